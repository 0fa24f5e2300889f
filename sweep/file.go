package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// File is a YAML sweep file:
//
//	kind: flashbench            # optional: flashbench or run
//	preset: tiny                # optional base configuration
//	variant: fd                 # optional
//	config: [my-platform.yaml]  # optional files over the preset
//	set: [flash.die.planes=2]   # optional overrides
//	axes:
//	  - key: flash.channels
//	    values: [4, 8, 16]
//	  - key: flash.ways
//	    values: [2, 4]
//
// Values are YAML scalars, taken as written. Decoding is strict: an unknown key, a value
// of the wrong shape, an empty or repeated value or a key swept twice is an error naming
// the file and line.
type File struct {
	Kind    Kind
	Preset  string
	Variant string
	Config  []string
	Set     []string
	Axes    Grid
}

// ReadSweepFile reads and decodes a sweep file.
func ReadSweepFile(path string) (File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return File{}, err
	}
	return DecodeFile(b, path)
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// DecodeFile decodes the text of a sweep file; name is used in errors only.
func DecodeFile(data []byte, name string) (File, error) {
	var f File
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return f, nil
		}
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
			return f, fmt.Errorf("%s:%s: %s", name, m[1], strings.TrimPrefix(err.Error(), m[0]))
		}
		return f, fmt.Errorf("%s: %w", name, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return f, fmt.Errorf("%s: more than one YAML document", name)
	}
	d := fileDecoder{name: name}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return f, nil
	}
	if root.Kind != yaml.MappingNode {
		return f, d.at(root, "want a mapping with keys kind, preset, variant, config, set, axes")
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if seen[k.Value] {
			d.errs = append(d.errs, d.at(k, "key %s given twice", k.Value))
			continue
		}
		seen[k.Value] = true
		switch k.Value {
		case "kind":
			s := d.scalar(v, "kind")
			if s != "" && s != string(KindFlashbench) && s != string(KindRun) {
				d.errs = append(d.errs, d.at(v, "kind: %q is not one of flashbench, run", s))
			}
			f.Kind = Kind(s)
		case "preset":
			f.Preset = d.scalar(v, "preset")
		case "variant":
			f.Variant = d.scalar(v, "variant")
		case "config":
			f.Config = d.scalars(v, "config")
		case "set":
			f.Set = d.scalars(v, "set")
		case "axes":
			f.Axes = d.axes(v)
		default:
			d.errs = append(d.errs, d.at(k, "unknown key %q (want kind, preset, variant, config, set, axes)", k.Value))
		}
	}
	return f, errors.Join(d.errs...)
}

// fileDecoder gathers the errors of one sweep file.
type fileDecoder struct {
	name string
	errs []error
}

func (d *fileDecoder) at(n *yaml.Node, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", d.name, n.Line, fmt.Sprintf(format, args...))
}

// scalar returns the text of a scalar node, recording an error for anything else.
func (d *fileDecoder) scalar(n *yaml.Node, field string) string {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		d.errs = append(d.errs, d.at(n, "%s: want a single value", field))
		return ""
	}
	return n.Value
}

// scalars returns the texts of a sequence of scalars.
func (d *fileDecoder) scalars(n *yaml.Node, field string) []string {
	if n.Kind != yaml.SequenceNode {
		d.errs = append(d.errs, d.at(n, "%s: want a list of values", field))
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for i, c := range n.Content {
		out = append(out, d.scalar(c, fmt.Sprintf("%s[%d]", field, i)))
	}
	return out
}

// axes decodes the list of axes.
func (d *fileDecoder) axes(n *yaml.Node) Grid {
	if n.Kind != yaml.SequenceNode {
		d.errs = append(d.errs, d.at(n, "axes: want a list of {key, values}"))
		return nil
	}
	var g Grid
	line := map[string]int{}
	for i, an := range n.Content {
		field := fmt.Sprintf("axes[%d]", i)
		if an.Kind != yaml.MappingNode {
			d.errs = append(d.errs, d.at(an, "%s: want a mapping with keys key and values", field))
			continue
		}
		var a Axis
		var hasKey, hasValues bool
		for j := 0; j+1 < len(an.Content); j += 2 {
			k, v := an.Content[j], an.Content[j+1]
			switch {
			case k.Value == "key" && !hasKey:
				a.Key, hasKey = d.scalar(v, field+".key"), true
			case k.Value == "values" && !hasValues:
				a.Values, hasValues = d.scalars(v, field+".values"), true
			case k.Value == "key" || k.Value == "values":
				d.errs = append(d.errs, d.at(k, "%s: key %s given twice", field, k.Value))
			default:
				d.errs = append(d.errs, d.at(k, "%s: unknown key %q (want key, values)", field, k.Value))
			}
		}
		if !hasKey || !hasValues {
			d.errs = append(d.errs, d.at(an, "%s: want both key and values", field))
			continue
		}
		if err := a.validate(); err != nil {
			d.errs = append(d.errs, d.at(an, "%s: %v", field, err))
			continue
		}
		if l, ok := line[a.Key]; ok {
			d.errs = append(d.errs, d.at(an, "%s: key %s is already swept at line %d", field, a.Key, l))
			continue
		}
		line[a.Key] = an.Line
		g = append(g, a)
	}
	return g
}
