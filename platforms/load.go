package platforms

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

//go:embed presets/*.yaml variants/*.yaml
var embedded embed.FS

// Presets returns the names of the embedded platform presets, sorted.
func Presets() []string { return names("presets") }

// Variants returns the names of the embedded system variants, sorted.
func Variants() []string { return names("variants") }

func names(dir string) []string {
	ents, _ := embedded.ReadDir(dir)
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(out)
	return out
}

// PresetYAML returns the text of a preset ("presets") or variant ("variants").
func PresetYAML(kind, name string) ([]byte, error) {
	b, err := embedded.ReadFile(path.Join(kind, name+".yaml"))
	if err != nil {
		var list []string
		if kind == "variants" {
			list = Variants()
		} else {
			list = Presets()
		}
		return nil, fmt.Errorf("no %s named %q (have: %s)", strings.TrimSuffix(kind, "s"), name, strings.Join(list, ", "))
	}
	return b, nil
}

// Source is one layer of configuration: YAML text and the name errors are reported under.
type Source struct {
	Name string
	Data []byte
}

// Options selects what Load stacks on the defaults.
type Options struct {
	Preset  string   // embedded preset name ("" = built-in defaults only)
	Variant string   // embedded variant name ("" = none)
	Files   []string // user YAML files, applied in order
	Layers  []Source // YAML already in memory (an imported layer), applied after Files
	Sets    []string // "path.to.key=value" overrides, applied last
}

// Load builds a configuration from the options and validates it. Every error names the
// file (or preset, or --set) and line, or the field path.
func Load(o Options) (Config, error) {
	var srcs []Source
	if o.Preset != "" {
		b, err := PresetYAML("presets", o.Preset)
		if err != nil {
			return Config{}, err
		}
		srcs = append(srcs, Source{"preset " + o.Preset, b})
	}
	if o.Variant != "" {
		b, err := PresetYAML("variants", o.Variant)
		if err != nil {
			return Config{}, err
		}
		srcs = append(srcs, Source{"variant " + o.Variant, b})
	}
	for _, f := range o.Files {
		b, err := os.ReadFile(f)
		if err != nil {
			return Config{}, err
		}
		srcs = append(srcs, Source{f, b})
	}
	srcs = append(srcs, o.Layers...)
	for _, s := range o.Sets {
		b, err := setYAML(s)
		if err != nil {
			return Config{}, err
		}
		srcs = append(srcs, Source{"--set " + s, b})
	}
	c, err := Decode(srcs...)
	if err != nil {
		return c, err
	}
	if err := c.Validate(); err != nil {
		return c, err
	}
	return c, nil
}

// Decode applies each source in turn on top of the defaults, strictly: an unknown key, a
// value of the wrong type or a bad unit string is an error naming the source and line.
//
// The host profile (host.profile, hostos/profile.go) sets defaults, not values: the sources
// are decoded once to learn which profile they name (the last one that names one wins), then
// again over the defaults with that profile applied, so every key a source gives explicitly
// overrides the profile's value whichever source named the profile. An unknown profile name
// is left for Validate to report with its field path.
func Decode(srcs ...Source) (Config, error) {
	c, err := decodeProfiled(srcs)
	nilEmptySlices(reflect.ValueOf(&c).Elem())
	return c, err
}

// nilEmptySlices makes every empty list in v nil: "[]" in a source means the same as no
// list (no field tells them apart), and the resolved YAML leaves an empty list out, so
// without this a configuration given "namespaces: []" would not equal its own resolved
// YAML decoded again (FuzzSet).
func nilEmptySlices(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				nilEmptySlices(f)
			}
		}
	case reflect.Slice:
		if v.Len() == 0 && !v.IsNil() {
			v.SetZero()
			return
		}
		for i := range v.Len() {
			nilEmptySlices(v.Index(i))
		}
	}
}

// decodeProfiled is Decode before nilEmptySlices.
func decodeProfiled(srcs []Source) (Config, error) {
	c := Default()
	if err := decodeOnto(&c, srcs); err != nil {
		return c, err
	}
	def := Default()
	if c.Host.Profile == def.Host.Profile {
		// The built-in defaults are that profile's values (TestDefaultIsLinux6Profile).
		return c, nil
	}
	h, err := def.Host.WithProfile(c.Host.Profile)
	if err != nil {
		return c, nil // Validate names host.profile and the choices
	}
	def.Host = h
	if err := decodeOnto(&def, srcs); err != nil {
		return def, err
	}
	return def, nil
}

// decodeOnto applies each source in turn on top of c (Decode).
func decodeOnto(c *Config, srcs []Source) error {
	for _, s := range srcs {
		// The document of a --set was built from the flag: its line numbers mean nothing.
		flag := strings.HasPrefix(s.Name, "--set ")
		if ps := keyProblems(s.Data); len(ps) > 0 {
			msg := strings.Join(ps, "\n  ")
			if flag {
				msg = lineTag.ReplaceAllString(msg, "")
			}
			return fmt.Errorf("%s: %s", s.Name, msg)
		}
		dec := yaml.NewDecoder(bytes.NewReader(s.Data))
		dec.KnownFields(true)
		if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
			msg := explainTypeErrors(err.Error(), s.Data)
			if flag {
				return fmt.Errorf("%s: %s", s.Name, setLinePaths(msg, s.Data))
			}
			if msg != err.Error() {
				return fmt.Errorf("%s: %s", s.Name, msg)
			}
			return fmt.Errorf("%s: %w", s.Name, err)
		}
		// A second document in one source is a mistake, not something to ignore.
		var extra yaml.Node
		if err := dec.Decode(&extra); err == nil {
			return fmt.Errorf("%s: more than one YAML document", s.Name)
		}
	}
	return nil
}

// lineTag matches the "line N: " a YAML error names a position with.
var lineTag = regexp.MustCompile(`line \d+: `)

// lineTagAt matches a "line N: " and what follows it on the line.
var lineTagAt = regexp.MustCompile(`line (\d+): ([^\n]*)`)

// namesPath matches a message that begins with a field's path ("flash.channels: …").
var namesPath = regexp.MustCompile(`^[\w.\[\]]+: `)

// setLinePaths rewrites the "line N: " tags of an error about a --set document, whose
// lines mean nothing to the user, as the path of the value on that line ("line 4: time
// \"4\": …" of energy.peak_windows=[1ms, 4] becomes "energy.peak_windows[1]: time \"4\": …"),
// or drops them where the message begins with a path already or the line has no value.
func setLinePaths(msg string, src []byte) string {
	paths, _ := valuePaths(src)
	return lineTagAt.ReplaceAllStringFunc(msg, func(m string) string {
		g := lineTagAt.FindStringSubmatch(m)
		var n int
		fmt.Sscan(g[1], &n)
		if p := paths[n]; p != "" && !namesPath.MatchString(g[2]) {
			return p + ": " + g[2]
		}
		return g[2]
	})
}

// setYAML turns "a.b.c=value" into the YAML document "a: {b: {c: value}}". The value is a
// YAML scalar taken as written ("400MHz", "yes"), or, when it opens with "[" or "{", a YAML
// flow sequence or mapping ("[1, 3]", "{icc2: 30mA}") read as a configuration file reads it
// (setValue); either way the document is decoded by the same strict path as a file.
func setYAML(s string) ([]byte, error) {
	key, val, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(key) == "" {
		return nil, fmt.Errorf("--set %q: want path.to.key=value", s)
	}
	val = strings.TrimSpace(val)
	if val == "" {
		// An empty value would reach the decoder as a null, which keeps the preset's value.
		return nil, fmt.Errorf("--set %q: no value after \"=\" (give path.to.key=value; an empty value would leave the preset's in place)", s)
	}
	parts := strings.Split(strings.TrimSpace(key), ".")
	var b strings.Builder
	for i, p := range parts {
		if p == "" || strings.ContainsAny(p, " :{}[],#&*!|>'\"%@`") {
			return nil, fmt.Errorf("--set %q: bad key %q", s, p)
		}
		b.WriteString(strings.Repeat("  ", i))
		b.WriteString(p)
		b.WriteString(":")
		if i < len(parts)-1 {
			b.WriteString("\n")
		}
	}
	v, err := setValue(s, val)
	if err != nil {
		return nil, err
	}
	if v.Kind == yaml.ScalarNode {
		// The value is a YAML scalar; quote it so "400MHz" or "yes" arrive as written.
		vb, err := yaml.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("--set %q: %w", s, err)
		}
		b.WriteString(" ")
		b.Write(bytes.TrimSpace(vb))
		b.WriteString("\n")
		return []byte(b.String()), nil
	}
	// A list or mapping: in block style on the lines below its key, indented under it.
	var vb bytes.Buffer
	enc := yaml.NewEncoder(&vb)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("--set %q: %w", s, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("--set %q: %w", s, err)
	}
	indent := strings.Repeat("  ", len(parts))
	for _, l := range strings.SplitAfter(vb.String(), "\n") {
		if l != "" {
			b.WriteString("\n" + indent + strings.TrimSuffix(l, "\n"))
		}
	}
	b.WriteString("\n")
	return []byte(b.String()), nil
}

// setValue returns the YAML node of a --set value. A value opening with "[" or "{" is a
// YAML flow sequence or mapping, parsed as in a file (one document, nothing after it) and
// laid out in block style so that each element has a line of its own and an error names
// it by path ("energy.peak_windows[1]"); any other value is a scalar kept as written, so
// "400MHz" or "yes" arrive as text and the decoder gives them their field's type.
func setValue(s, val string) (*yaml.Node, error) {
	if val[0] != '[' && val[0] != '{' {
		return &yaml.Node{Kind: yaml.ScalarNode, Value: val}, nil
	}
	bad := func(why string) error {
		return fmt.Errorf("--set %q: the value is not a YAML list [a, b] or mapping {k: v}: %s", s, why)
	}
	dec := yaml.NewDecoder(strings.NewReader(val))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil, bad(strings.TrimPrefix(lineTag.ReplaceAllString(err.Error(), ""), "yaml: "))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, bad("more than one YAML document")
	}
	if len(doc.Content) != 1 || (doc.Content[0].Kind != yaml.SequenceNode && doc.Content[0].Kind != yaml.MappingNode) {
		return nil, bad("want one list or mapping")
	}
	v := doc.Content[0]
	blockStyle(v)
	return v, nil
}

// blockStyle clears the flow style and comments of n's collections, so that each element
// is encoded on a line of its own.
func blockStyle(n *yaml.Node) {
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
	if n.Kind == yaml.SequenceNode || n.Kind == yaml.MappingNode {
		n.Style &^= yaml.FlowStyle
	}
	for _, c := range n.Content {
		blockStyle(c)
	}
}

// Resolved returns the configuration as YAML with every mapping's keys sorted, so two
// resolved configurations diff cleanly. It is written next to every result.
func (c Config) Resolved() ([]byte, error) {
	var n yaml.Node
	if err := n.Encode(c); err != nil {
		return nil, err
	}
	sortKeys(&n)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return nil, err
	}
	return buf.Bytes(), enc.Close()
}

func sortKeys(n *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		type kv struct{ k, v *yaml.Node }
		var pairs []kv
		for i := 0; i+1 < len(n.Content); i += 2 {
			pairs = append(pairs, kv{n.Content[i], n.Content[i+1]})
		}
		sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].k.Value < pairs[j].k.Value })
		n.Content = n.Content[:0]
		for _, p := range pairs {
			n.Content = append(n.Content, p.k, p.v)
		}
	}
	for _, c := range n.Content {
		sortKeys(c)
	}
}
