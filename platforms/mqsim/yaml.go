package mqsim

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// YAML returns the settings as a fastdrain configuration layer, keys nested and in the
// order first set, each value with a comment naming the MQSim element it came from, and a
// header listing every note (what has no exact equivalent, and why).
func (r *Result) YAML(source string) ([]byte, error) {
	root := &yaml.Node{Kind: yaml.MappingNode}
	for _, s := range r.Settings {
		if err := put(root, strings.Split(s.Key, "."), s); err != nil {
			return nil, err
		}
	}
	var head strings.Builder
	fmt.Fprintf(&head, "Imported from MQSim's %s by \"fastdrain config import mqsim\".\n", source)
	head.WriteString("Apply it on a preset: fastdrain run --preset fastdrain-tlc --config THIS.yaml\n")
	writeNotes(&head, "Not imported exactly:", r.Notes)
	doc := &yaml.Node{Kind: yaml.DocumentNode, HeadComment: strings.TrimRight(head.String(), "\n"), Content: []*yaml.Node{root}}
	out, err := yaml.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// put sets path under m, creating mappings on the way.
func put(m *yaml.Node, path []string, s Setting) error {
	for i := 0; i < len(m.Content); i += 2 {
		if m.Content[i].Value != path[0] {
			continue
		}
		v := m.Content[i+1]
		if len(path) == 1 || v.Kind != yaml.MappingNode {
			return fmt.Errorf("mqsim: %s is set twice", s.Key)
		}
		return put(v, path[1:], s)
	}
	k := &yaml.Node{Kind: yaml.ScalarNode, Value: path[0]}
	if len(path) > 1 {
		v := &yaml.Node{Kind: yaml.MappingNode}
		m.Content = append(m.Content, k, v)
		return put(v, path[1:], s)
	}
	v := &yaml.Node{Kind: yaml.ScalarNode, LineComment: "MQSim " + s.From}
	switch x := s.Value.(type) {
	case int:
		v.Tag, v.Value = "!!int", strconv.Itoa(x)
	case float64:
		v.Tag, v.Value = "!!float", strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		v.Tag, v.Value = "!!bool", strconv.FormatBool(x)
	case string:
		v.Tag, v.Value = "!!str", x
	default:
		return fmt.Errorf("mqsim: %s: value %v of an unexpected kind", s.Key, s.Value)
	}
	m.Content = append(m.Content, k, v)
	return nil
}

// writeNotes lists notes under title for a file's header comment, one a line: element,
// value, line, "nearest" or "no equivalent", and why. Nothing is written for no notes.
func writeNotes(head *strings.Builder, title string, notes []Note) {
	if len(notes) == 0 {
		return
	}
	fmt.Fprintf(head, "\n%s\n", title)
	for _, n := range notes {
		mark := "no equivalent"
		if n.Nearest {
			mark = "nearest"
		}
		fmt.Fprintf(head, "  %s = %s (line %d, %s): %s\n", n.Element, n.Value, n.Line, mark, n.Why)
	}
}
