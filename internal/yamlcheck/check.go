package yamlcheck

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Kind is the class of a Problem.
type Kind int

// The problems Check finds.
const (
	UnknownKey Kind = iota // a key the type has no field for
	Null                   // a null value where null would keep the field's value
	NotWhole               // a fractional (or, for an unsigned field, negative) number for an integer field
	NotFinite              // .nan or .inf for a number field, which every range check lets through
)

// Problem is one mistake in a document: its line, the dotted path of the key or value
// ("flash.channels", "apps.series[2].app"), its class and a message that starts with the
// path and says what is wrong.
type Problem struct {
	Line int
	Path string
	Kind Kind
	Msg  string
}

// String returns "line N: message".
func (p Problem) String() string { return fmt.Sprintf("line %d: %s", p.Line, p.Msg) }

// Check parses src and walks it along type t (a struct type, usually), naming paths under
// root ("" for none). It returns every problem in document order; a document that does not
// parse yields none (the decoder reports the syntax error).
func Check(src []byte, t reflect.Type, root string) []Problem {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	if isNull(doc.Content[0]) {
		return nil // an empty document: the decoder leaves everything as it was, as asked
	}
	var w walker
	w.value(doc.Content[0], t, root)
	return w.out
}

type walker struct{ out []Problem }

func (w *walker) add(n *yaml.Node, path string, k Kind, msg string) {
	w.out = append(w.out, Problem{Line: n.Line, Path: path, Kind: k, Msg: msg})
}

var (
	yamlUnmarshaler = reflect.TypeFor[yaml.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// decodesItself reports whether values of t are decoded by their own method (units,
// enumerations), which reports its own errors.
func decodesItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(yamlUnmarshaler) || p.Implements(textUnmarshaler) ||
		t.Implements(yamlUnmarshaler) || t.Implements(textUnmarshaler)
}

// nullable reports whether a null sets a field of type t to something (nil): the decoder
// does so for pointers, slices, maps and interfaces, and leaves every other kind alone.
func nullable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return true
	}
	return false
}

// isNull reports whether n is a null scalar: "~", "null", or nothing at all.
func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// value checks node n, to be decoded into a value of type t at path. Aliases are not
// followed: their anchors were checked where they stand.
func (w *walker) value(n *yaml.Node, t reflect.Type, path string) {
	if isNull(n) {
		if !nullable(t) {
			w.add(n, path, Null, nullMessage(path, t))
		}
		return
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[yaml.Node]() || decodesItself(t) {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind == yaml.MappingNode {
			w.mapping(n, t, path)
		}
	case reflect.Slice, reflect.Array:
		if n.Kind == yaml.SequenceNode {
			for i, c := range n.Content {
				w.value(c, t.Elem(), fmt.Sprintf("%s[%d]", path, i))
			}
		}
	case reflect.Map:
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				w.value(n.Content[i+1], t.Elem(), join(path, n.Content[i].Value))
			}
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w.whole(n, path, false)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		w.whole(n, path, true)
	case reflect.Float32, reflect.Float64:
		w.finite(n, path)
	}
}

// mapping checks the keys of n against struct type t's fields and each value against its
// field's type.
func (w *walker) mapping(n *yaml.Node, t reflect.Type, path string) {
	fields := Fields(t)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Value == "<<" {
			continue // a merge key: the decoder checks what it merges
		}
		ft, ok := fields[k.Value]
		if !ok {
			w.add(k, join(path, k.Value), UnknownKey, "unknown key "+join(path, k.Value)+suggest(k.Value, path, fields))
			continue
		}
		w.value(v, ft, join(path, k.Value))
	}
}

// number returns the value of a float scalar n as the decoder reads it (".inf", "1e3",
// "1_000.5"), or false if n is not one.
func number(n *yaml.Node) (float64, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!float" {
		return 0, false
	}
	var f float64
	return f, n.Decode(&f) == nil
}

// whole checks that a number given for an integer field is a whole number (and, for an
// unsigned one, not negative): the decoder converts 3.7 to 3 without a word.
func (w *walker) whole(n *yaml.Node, path string, unsigned bool) {
	f, ok := number(n)
	switch {
	case !ok:
		return // an integer, or something the decoder refuses itself
	case math.IsInf(f, 0) || math.IsNaN(f) || f != math.Trunc(f):
		w.add(n, path, NotWhole, fmt.Sprintf("%s: %s is not a whole number (the field counts whole units)", label(path), n.Value))
	case unsigned && f < 0:
		w.add(n, path, NotWhole, fmt.Sprintf("%s: %s must not be negative", label(path), n.Value))
	}
}

// finite checks that a number given for a float field is finite: NaN fails every
// comparison, so a range check such as "fill < 0 || fill > 1" lets it through.
func (w *walker) finite(n *yaml.Node, path string) {
	if f, ok := number(n); ok && (math.IsInf(f, 0) || math.IsNaN(f)) {
		w.add(n, path, NotFinite, fmt.Sprintf("%s: %s is not a finite number", label(path), n.Value))
	}
}

// nullMessage says why a null is refused where it stands.
func nullMessage(path string, t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct && !decodesItself(t) {
		return label(path) + ": the section is empty (null): give its keys or leave it out (a null section keeps the values it had)"
	}
	return label(path) + ": no value (null): give one or leave the key out (a null keeps the value the key had)"
}

// label names path in a message; the document's root is "the document".
func label(path string) string {
	if path == "" {
		return "the document"
	}
	return path
}

// join appends key to a dotted path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// Fields maps the YAML keys of struct type t (inline structs flattened, "-" left out) to
// their field types.
func Fields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" {
			continue
		}
		if strings.Contains(opts, "inline") && f.Type.Kind() == reflect.Struct {
			for k, v := range Fields(f.Type) {
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
