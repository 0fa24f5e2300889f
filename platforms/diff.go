package platforms

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Change is one field whose value differs between two configurations.
type Change struct {
	Path string // the field's dotted path, e.g. flash.channels
	A, B string // its value in each configuration ("" where absent)
}

// Diff returns every field whose resolved value differs between a and b, by path.
func Diff(a, b Config) ([]Change, error) {
	var flat [2]map[string]string
	for i, c := range []Config{a, b} {
		out, err := c.Resolved()
		if err != nil {
			return nil, err
		}
		var n yaml.Node
		if err := yaml.Unmarshal(out, &n); err != nil {
			return nil, err
		}
		flat[i] = map[string]string{}
		flatten(&n, "", flat[i])
	}
	keys := map[string]bool{}
	for _, m := range flat {
		for k := range m {
			keys[k] = true
		}
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var cs []Change
	for _, k := range sorted {
		if x, y := flat[0][k], flat[1][k]; x != y {
			cs = append(cs, Change{k, x, y})
		}
	}
	return cs, nil
}

// flatten records every scalar of a YAML tree under its dotted path.
func flatten(n *yaml.Node, path string, out map[string]string) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			flatten(c, path, out)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			p := n.Content[i].Value
			if path != "" {
				p = path + "." + p
			}
			flatten(n.Content[i+1], p, out)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			flatten(c, fmt.Sprintf("%s[%d]", path, i), out)
		}
	default:
		out[path] = n.Value
	}
}

// LoadArg loads "preset", "preset/variant" or a YAML file (a name ending in .yaml or
// .yml, applied over the built-in defaults), with the overrides sets.
func LoadArg(a string, sets []string) (Config, error) {
	if strings.HasSuffix(a, ".yaml") || strings.HasSuffix(a, ".yml") {
		return Load(Options{Files: []string{a}, Sets: sets})
	}
	p, v, _ := strings.Cut(a, "/")
	return Load(Options{Preset: p, Variant: v, Sets: sets})
}
