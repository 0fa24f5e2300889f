package platforms

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"go.yaml.in/yaml/v3"
)

// Annotated is Resolved with the host profile's part marked (config show): host.profile says
// which keys it sets, and each of those keys says whether its value is the profile's or
// overrides it ("overrides host.profile paper: 2ms"). Decoding the text back gives c.
func (c Config) Annotated() ([]byte, error) {
	var n yaml.Node
	if err := n.Encode(c); err != nil {
		return nil, err
	}
	sortKeys(&n)
	if err := c.annotateProfile(&n); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return nil, err
	}
	return buf.Bytes(), enc.Close()
}

// annotateProfile adds the profile's comments to the encoded configuration root.
func (c Config) annotateProfile(root *yaml.Node) error {
	name := c.Host.Profile
	settings := hostos.ProfileSettings(name)
	if settings == nil {
		return nil // Validate reports an unknown profile
	}
	// The profile's own values: the defaults with only the profile applied.
	ref, err := hostos.DefaultSpec().WithProfile(name)
	if err != nil {
		return err
	}
	var refNode yaml.Node
	if err := refNode.Encode(ref); err != nil {
		return err
	}
	host := child(root, "host")
	var paths []string
	for _, st := range settings {
		paths = append(paths, "host."+st.Path)
		v := lookup(host, st.Path)
		want := lookup(&refNode, st.Path)
		if v == nil || want == nil {
			return fmt.Errorf("host profile %s: no key host.%s", name, st.Path)
		}
		if v.Value == want.Value {
			v.LineComment = "host.profile " + name + ": " + st.Why
		} else {
			v.LineComment = fmt.Sprintf("overrides host.profile %s (%s)", name, want.Value)
		}
	}
	if p := child(host, "profile"); p != nil {
		p.LineComment = "sets the defaults of " + strings.Join(paths, ", ") + "; keys given explicitly override them"
	}
	return nil
}

// child returns the value of key in mapping n (nil if absent or n is not a mapping).
func child(n *yaml.Node, key string) *yaml.Node {
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// lookup follows a dotted path of keys from n.
func lookup(n *yaml.Node, path string) *yaml.Node {
	for _, k := range strings.Split(path, ".") {
		n = child(n, k)
	}
	return n
}
