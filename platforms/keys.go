package platforms

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Configuration errors in the configuration's own words: yaml.v3 reports an unknown key as
// "field chanels not found in type platforms.Flash" and a bad value as "cannot unmarshal !!str
// `four` into int". keyProblems walks a source's YAML against the Config type, by yaml tags,
// so every unknown key is named by its full path with the nearest known keys, and
// explainTypeErrors rewrites yaml's type errors with the path of the value at their line.

// keyProblems returns, for src, every key that is not a configuration key: "line N: unknown
// key flash.chanels (did you mean flash.channels?)". It stops at types that decode
// themselves (units, enums, lists), which report their own errors.
func keyProblems(src []byte) []string {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil || len(doc.Content) == 0 {
		return nil // a syntax error: the decoder reports it
	}
	var out []string
	walkKeys(doc.Content[0], reflect.TypeOf(Config{}), "", &out)
	return out
}

var unmarshalerType = reflect.TypeOf((*yaml.Unmarshaler)(nil)).Elem()

// yamlFields maps the yaml keys of struct type t (inline structs flattened) to field types.
func yamlFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if strings.Contains(opts, "inline") && f.Type.Kind() == reflect.Struct {
			for k, v := range yamlFields(f.Type) {
				out[k] = v
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = f.Type
	}
	return out
}

func walkKeys(n *yaml.Node, t reflect.Type, path string, out *[]string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || n.Kind != yaml.MappingNode || reflect.PointerTo(t).Implements(unmarshalerType) {
		return
	}
	fields := yamlFields(t)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		ft, ok := fields[k.Value]
		if !ok {
			*out = append(*out, fmt.Sprintf("line %d: unknown key %s%s", k.Line, path, k.Value)+suggest(k.Value, path, fields))
			continue
		}
		walkKeys(v, ft, path+k.Value+".", out)
	}
}

// suggest returns " (did you mean …?)" with the known keys nearest to key, or "".
func suggest(key, path string, fields map[string]reflect.Type) string {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for name := range fields {
		if d := editDistance(key, name); d <= max(2, len(key)/3) {
			cs = append(cs, cand{name, d})
		}
	}
	if len(cs) == 0 { // no near spelling: a key that contains the typed one, or the reverse
		for name := range fields {
			if strings.Contains(name, key) || strings.Contains(key, name) {
				cs = append(cs, cand{name, editDistance(key, name)})
			}
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d || cs[i].d == cs[j].d && cs[i].name < cs[j].name })
	if len(cs) == 0 {
		var all []string
		for name := range fields {
			all = append(all, path+name)
		}
		sort.Strings(all)
		if len(all) > 12 {
			return ""
		}
		return " (known here: " + strings.Join(all, ", ") + ")"
	}
	var names []string
	for i, c := range cs {
		if i == 3 {
			break
		}
		names = append(names, path+c.name)
	}
	return " (did you mean " + strings.Join(names, " or ") + "?)"
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// valuePaths maps each line of src to the dotted path of the scalar value on it.
func valuePaths(src []byte) map[int]string {
	var doc yaml.Node
	out := map[int]string{}
	if err := yaml.Unmarshal(src, &doc); err != nil || len(doc.Content) == 0 {
		return out
	}
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				walk(n.Content[i+1], strings.TrimPrefix(path+"."+n.Content[i].Value, "."))
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, fmt.Sprintf("%s[%d]", path, i))
			}
		default:
			if _, seen := out[n.Line]; !seen {
				out[n.Line] = path
			}
		}
	}
	walk(doc.Content[0], "")
	return out
}

// typeErr matches one of yaml.v3's type errors: "line 2: cannot unmarshal !!str `four` into int".
var typeErr = regexp.MustCompile("line (\\d+): cannot unmarshal !!(\\w+) `(.*)` into ([\\w.\\[\\]]+)")

// goKinds names Go types for people.
var goKinds = map[string]string{"int": "an integer", "int64": "an integer", "int32": "an integer", "uint64": "a non-negative integer",
	"uint32": "a non-negative integer", "uint8": "a small non-negative integer", "float64": "a number", "bool": "true or false",
	"string": "a string"}

// explainTypeErrors rewrites yaml's type errors with the value's path and what was wanted.
func explainTypeErrors(msg string, src []byte) string {
	paths := valuePaths(src)
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
		var n int
		fmt.Sscan(line, &n)
		p := paths[n]
		if p == "" {
			return fmt.Sprintf("line %s: %q is not %s", line, val, want)
		}
		return fmt.Sprintf("line %s: %s: %q is not %s", line, p, val, want)
	})
}
