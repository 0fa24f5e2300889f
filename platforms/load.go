package platforms

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
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
				return fmt.Errorf("%s: %s", s.Name, lineTag.ReplaceAllString(msg, ""))
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

// setYAML turns "a.b.c=value" into the YAML document "a: {b: {c: value}}".
func setYAML(s string) ([]byte, error) {
	key, val, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(key) == "" {
		return nil, fmt.Errorf("--set %q: want path.to.key=value", s)
	}
	if strings.TrimSpace(val) == "" {
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
	// The value is a YAML scalar; quote it so "400MHz" or "yes" arrive as written.
	node := yaml.Node{Kind: yaml.ScalarNode, Value: strings.TrimSpace(val)}
	vb, err := yaml.Marshal(&node)
	if err != nil {
		return nil, fmt.Errorf("--set %q: %w", s, err)
	}
	b.WriteString(" ")
	b.Write(bytes.TrimSpace(vb))
	b.WriteString("\n")
	return []byte(b.String()), nil
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
