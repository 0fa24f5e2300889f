package firmware

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/internal/yamlcheck"
	"go.yaml.in/yaml/v3"
)

// PolicyParams are the parameter blocks of registered policies (firmware.policies), each
// under its policy's name: firmware.policies.fixed-rate.drain_rate is the drain_rate of the
// eviction policy registered as "fixed-rate" (EvictionPolicyDef.Params). A block is kept
// as written, merged key by key over the blocks of earlier sources (a preset, then files,
// then --set), and decoded into the policy's own parameter type when the firmware is
// validated and built (Spec.Params). Only a policy registered with parameters may have a
// block; a block for one that is not selected is checked all the same.
type PolicyParams map[string]*yaml.Node

// UnmarshalYAML implements yaml.Unmarshaler: each block is checked against its policy's
// parameter type (unknown keys and wrong types are named by their field path) and merged
// over the block already there.
func (pp *PolicyParams) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: firmware.policies: want a mapping of policy names to parameter blocks", n.Line)
	}
	if *pp == nil {
		*pp = PolicyParams{}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		name, block := n.Content[i].Value, n.Content[i+1]
		if block.Kind != yaml.MappingNode {
			return fmt.Errorf("line %d: firmware.policies.%s: want a mapping of parameters", block.Line, name)
		}
		if _, err := decodeParams(name, block); err != nil {
			return fmt.Errorf("line %d: %w", block.Line, err)
		}
		if old, ok := (*pp)[name]; ok {
			mergeMapping(old, block)
		} else {
			(*pp)[name] = block
		}
	}
	return nil
}

// mergeMapping sets each key of mapping src in mapping dst, merging nested mappings.
func mergeMapping(dst, src *yaml.Node) {
	for i := 0; i+1 < len(src.Content); i += 2 {
		k, v := src.Content[i], src.Content[i+1]
		j := 0
		for ; j+1 < len(dst.Content); j += 2 {
			if dst.Content[j].Value == k.Value {
				break
			}
		}
		switch {
		case j+1 >= len(dst.Content):
			dst.Content = append(dst.Content, k, v)
		case v.Kind == yaml.MappingNode && dst.Content[j+1].Kind == yaml.MappingNode:
			mergeMapping(dst.Content[j+1], v)
		default:
			dst.Content[j+1] = v
		}
	}
}

// paramsRoot is the field path of name's parameter block.
func paramsRoot(name string) string { return "firmware.policies." + name }

// paramsOf returns the defaults of the parameters of the registered policy name, or an
// error naming the field if it has none.
func paramsOf(name string) (any, error) {
	def, err := evictionPolicies.r.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", paramsRoot(name), err)
	}
	if def.Params == nil {
		return nil, fmt.Errorf("%s: the policy %q takes no parameters", paramsRoot(name), name)
	}
	p := def.Params()
	if t := reflect.TypeOf(p); t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("firmware: policy %q: Params must return a pointer to a struct, not %T", name, p))
	}
	return p, nil
}

// decodeParams decodes block (nil: none) over the defaults of name's parameters, strictly,
// and validates them (their Validate method, if any). Every error names its field path.
func decodeParams(name string, block *yaml.Node) (any, error) {
	p, err := paramsOf(name)
	if err != nil || block == nil {
		return p, err
	}
	src, err := yaml.Marshal(block)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", paramsRoot(name), err)
	}
	var msgs []string
	for _, pr := range yamlcheck.Check(src, reflect.TypeOf(p).Elem(), paramsRoot(name)) {
		msgs = append(msgs, pr.Msg)
	}
	if len(msgs) > 0 {
		return nil, errors.New(strings.Join(msgs, "; "))
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(p); err != nil {
		return nil, paramTypeErrors(err, src, paramsRoot(name))
	}
	return p, nil
}

// typeErr matches one of yaml.v3's type errors: "line 2: cannot unmarshal !!str `four` into int".
var typeErr = regexp.MustCompile("line (\\d+): cannot unmarshal !!\\w+ `(.*)` into ([\\w.\\[\\]]+)")

// paramTypeErrors rewrites the decoder's type errors in a parameter block (src, under
// root) with the value's field path and what was wanted, in words.
func paramTypeErrors(err error, src []byte, root string) error {
	lines := map[string]string{}
	var doc yaml.Node
	if yaml.Unmarshal(src, &doc) == nil && len(doc.Content) > 0 {
		var walk func(n *yaml.Node, path string)
		walk = func(n *yaml.Node, path string) {
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					walk(n.Content[i+1], path+"."+n.Content[i].Value)
				}
				return
			}
			lines[strconv.Itoa(n.Line)] = path
		}
		walk(doc.Content[0], root)
	}
	ms := typeErr.FindAllStringSubmatch(err.Error(), -1)
	if len(ms) == 0 {
		return fmt.Errorf("%s: %w", root, err)
	}
	var msgs []string
	for _, m := range ms {
		path, ok := lines[m[1]]
		if !ok {
			path = root
		}
		msgs = append(msgs, fmt.Sprintf("%s: %q is not %s", path, m[2], kindWords(m[3])))
	}
	return errors.New(strings.Join(msgs, "; "))
}

// kindWords names a Go kind for people.
func kindWords(kind string) string {
	switch {
	case strings.HasPrefix(kind, "uint"):
		return "a non-negative integer"
	case strings.HasPrefix(kind, "int"):
		return "an integer"
	case strings.HasPrefix(kind, "float"):
		return "a number"
	case kind == "bool":
		return "true or false"
	case kind == "string":
		return "a string"
	}
	return "a value of the parameter's kind"
}

// validateParams checks every parameter block: decoded over its policy's defaults, and
// each policy's Validate. Its errors name the field path.
func (s Spec) validateParams() error {
	var errs []error
	for _, name := range s.paramNames() {
		p, err := decodeParams(name, s.Policies[name])
		if err == nil {
			err = validateParamBlock(name, p)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// validateParamBlock calls p's Validate, if it has one, and names the field path of its
// error ("firmware.policies.fixed-rate.drain_rate: …" for "drain_rate: …").
func validateParamBlock(name string, p any) error {
	v, ok := p.(interface{ Validate() error })
	if !ok {
		return nil
	}
	if err := v.Validate(); err != nil {
		return fmt.Errorf("%s.%w", paramsRoot(name), err)
	}
	return nil
}

// paramNames returns the names of the policies with a parameter block, sorted.
func (s Spec) paramNames() []string {
	return slices.Sorted(maps.Keys(s.Policies))
}

// Params returns the parameters of the registered policy name: its parameter type's
// defaults (EvictionPolicyDef.Params) with the block firmware.policies.name decoded over
// them. A policy's New calls it for its own parameters; the spec must be valid
// (Validate checked the block), and a policy registered without Params panics.
func (s Spec) Params(name string) any {
	p, err := decodeParams(name, s.Policies[name])
	if err != nil {
		panic(fmt.Sprintf("firmware: Params(%q) on a spec Validate refuses: %v", name, err))
	}
	return p
}
