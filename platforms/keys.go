package platforms

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/internal/yamlcheck"
	"go.yaml.in/yaml/v3"
)

// Configuration errors in the configuration's own words: yaml.v3 reports an unknown key as
// "field chanels not found in type platforms.Flash" and a bad value as "cannot unmarshal !!str
// `four` into int", and accepts a null section or a fractional count without a word.
// keyProblems walks a source's YAML against the Config type, by yaml tags, so every unknown
// key is named by its full path with the nearest known keys, and explainTypeErrors rewrites
// yaml's type errors with the path of the value at their line.

// keyProblems returns, for src, every key that is not a configuration key ("line N:
// unknown key flash.chanels (did you mean flash.channels?)"), every null that would keep
// a value silently ("line N: flash: the section is empty (null): …") and every fractional
// number given for an integer field ("line N: flash.channels: 3.7 is not a whole number
// …"): internal/yamlcheck, which stops at types that decode themselves (units, enums).
func keyProblems(src []byte) []string {
	var out []string
	for _, p := range yamlcheck.Check(src, reflect.TypeFor[Config](), "") {
		out = append(out, p.String())
	}
	return out
}

// valuePaths maps each line of src to the dotted path of the first scalar value on it,
// and each line to the path of the innermost list or mapping that begins on it.
func valuePaths(src []byte) (scalars, collections map[int]string) {
	var doc yaml.Node
	scalars, collections = map[int]string{}, map[int]string{}
	if err := yaml.Unmarshal(src, &doc); err != nil || len(doc.Content) == 0 {
		return scalars, collections
	}
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
			// The innermost: a mapping's line is its first key's, which may hold a list too.
			if path != "" {
				collections[n.Line] = path
			}
		} else if _, seen := scalars[n.Line]; !seen && path != "" {
			scalars[n.Line] = path
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				walk(n.Content[i+1], strings.TrimPrefix(path+"."+n.Content[i].Value, "."))
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, fmt.Sprintf("%s[%d]", path, i))
			}
		}
	}
	walk(doc.Content[0], "")
	return scalars, collections
}

// typeErr matches one of yaml.v3's type errors: "line 2: cannot unmarshal !!str `four` into
// int", or, for a list or mapping, which yaml.v3 does not quote, "line 2: cannot unmarshal
// !!seq into int".
var typeErr = regexp.MustCompile("line (\\d+): cannot unmarshal !!(\\w+)(?: `(.*)`)? into ([\\w.\\[\\]]+)")

// collectionKinds names the YAML collections yaml.v3's type errors name by tag.
var collectionKinds = map[string]string{"seq": "a list", "map": "a mapping"}

// goKinds names Go types for people.
var goKinds = map[string]string{"int": "an integer", "int64": "an integer", "int32": "an integer", "uint64": "a non-negative integer",
	"uint32": "a non-negative integer", "uint8": "a small non-negative integer", "float64": "a number", "bool": "true or false",
	"string": "a string"}

// explainTypeErrors rewrites yaml's type errors with the value's path and what was wanted.
func explainTypeErrors(msg string, src []byte) string {
	paths, collections := valuePaths(src)
	if !typeErr.MatchString(msg) {
		return msg
	}
	msg = strings.TrimPrefix(msg, "yaml: unmarshal errors:\n  ")
	return typeErr.ReplaceAllStringFunc(msg, func(m string) string {
		g := typeErr.FindStringSubmatch(m)
		line, val, into := g[1], g[3], g[4]
		want, ok := goKinds[into]
		if !ok {
			want = "a value of another kind"
			if strings.HasPrefix(into, "[]") {
				want = "a list"
			} else if strings.Contains(into, ".") {
				want = "a mapping of its keys"
			}
		}
		if strings.HasPrefix(into, "map[") {
			want = "a mapping"
		}
		var n int
		fmt.Sscan(line, &n)
		p, given := paths[n], strconv.Quote(val)
		if kind, ok := collectionKinds[g[2]]; ok {
			// A collection is named by its own path, not its first element's.
			p, given = collections[n], kind
		}
		if p == "" {
			return fmt.Sprintf("line %s: %s is not %s", line, given, want)
		}
		return fmt.Sprintf("line %s: %s: %s is not %s", line, p, given, want)
	})
}
