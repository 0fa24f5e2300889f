package sim

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// The quantities of configuration files (times, sizes, frequencies) decode from YAML
// through their text form; these methods add the line of a bad value to the error, so a
// configuration mistake is reported as "file: line 12: time "300": missing or unknown
// unit".

// UnmarshalYAML implements yaml.Unmarshaler.
func (t *Time) UnmarshalYAML(n *yaml.Node) error { return ScalarYAML(n, "time", t.UnmarshalText) }

// UnmarshalYAML implements yaml.Unmarshaler.
func (s *Size) UnmarshalYAML(n *yaml.Node) error { return ScalarYAML(n, "size", s.UnmarshalText) }

// UnmarshalYAML implements yaml.Unmarshaler.
func (f *Freq) UnmarshalYAML(n *yaml.Node) error {
	return ScalarYAML(n, "frequency", f.UnmarshalText)
}

// ScalarYAML decodes a YAML scalar through parse, the quantity's text form, and adds the
// line of a bad value to the error; a list or map in its place is an error naming what was
// expected. Quantity types of other packages (energy's currents and powers) use it too.
func ScalarYAML(n *yaml.Node, what string, parse func([]byte) error) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: a %s must be a single value with a unit, not a list or map", n.Line, what)
	}
	if err := parse([]byte(n.Value)); err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	return nil
}
