package firmware

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// testParams are the parameters of the test policy "test-params".
type testParams struct {
	Pages int `yaml:"pages"`
	Inner struct {
		Ratio float64 `yaml:"ratio"`
	} `yaml:"inner"`
}

func (p *testParams) Validate() error {
	if p.Pages < 1 {
		return fmt.Errorf("pages: %d must be at least 1", p.Pages)
	}
	return nil
}

func init() {
	RegisterEvictionPolicy("test-params", EvictionPolicyDef{
		Params: func() any { p := &testParams{Pages: 3}; p.Inner.Ratio = 0.5; return p },
		New:    func(Spec) EvictionPolicy { return vanilla{} },
	})
}

// decodeSpec decodes each YAML document over the defaults in turn, as platforms does one
// source after another.
func decodeSpec(t *testing.T, docs ...string) (Spec, error) {
	t.Helper()
	s := DefaultSpec()
	for _, d := range docs {
		if err := yaml.Unmarshal([]byte(d), &s); err != nil {
			return s, err
		}
	}
	return s, nil
}

// TestPolicyParams: a policy's block is decoded over its defaults (pages 3, ratio 0.5),
// merged key by key over the blocks of earlier sources (nested mappings too), and
// every mistake is named by its field path: an unknown key, a value of the wrong type, a
// block for an unregistered policy or for one that takes no parameters, and the policy's
// own Validate.
func TestPolicyParams(t *testing.T) {
	s, err := decodeSpec(t)
	require.NoError(t, err)
	p := s.Params("test-params").(*testParams)
	require.Equal(t, 3, p.Pages)
	require.Equal(t, 0.5, p.Inner.Ratio)

	s, err = decodeSpec(t, "policies: {test-params: {pages: 7, inner: {ratio: 0.25}}}",
		"policies: {test-params: {inner: {ratio: 0.75}}}")
	require.NoError(t, err)
	require.NoError(t, s.Validate())
	p = s.Params("test-params").(*testParams)
	require.Equal(t, 7, p.Pages)
	require.Equal(t, 0.75, p.Inner.Ratio)

	for doc, want := range map[string]string{
		"policies: {test-params: {pagez: 1}}":      "firmware.policies.test-params.pagez",
		"policies: {test-params: {pages: many}}":   `firmware.policies.test-params.pages: "many" is not an integer`,
		"policies: {no-such: {pages: 1}}":          `firmware.policies.no-such: unknown buffer policy "no-such"`,
		"policies: {vanilla: {pages: 1}}":          `firmware.policies.vanilla: the policy "vanilla" takes no parameters`,
		"policies: {test-params: 3}":               "firmware.policies.test-params: want a mapping of parameters",
		"policies: {test-params: {inner: {r: 1}}}": "firmware.policies.test-params.inner.r",
	} {
		_, err := decodeSpec(t, doc)
		require.ErrorContains(t, err, want, doc)
	}
	s, err = decodeSpec(t, "policies: {test-params: {pages: 0}}")
	require.NoError(t, err)
	require.EqualError(t, s.Validate(), "firmware.policies.test-params.pages: 0 must be at least 1")
}

// FuzzPolicyParams: any YAML given as firmware.policies (in one or two sources) is either
// refused with an error or accepted; an accepted spec validates without a panic, gives
// every block's parameters (Params) when it validates, and its blocks encode and decode
// back to the same parameters.
func FuzzPolicyParams(f *testing.F) {
	for _, s := range []string{
		"{test-params: {pages: 7}}", "{test-params: {inner: {ratio: 2}}}", "{test-params: {pages: many}}",
		"{vanilla: {x: 1}}", "{test-params: 3}", "[1, 2]", "{test-params: {pages: 0}}", "{no-such: {}}",
		"{test-params: {pages: 1, pages: 2}}", "{test-params: {inner: [1]}}", "{test-params: ~}",
	} {
		f.Add(s, "{test-params: {pages: 2}}")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		s, err := decodeSpec(t, "policies: "+a, "policies: "+b)
		if err != nil || s.Validate() != nil {
			return
		}
		out, err := yaml.Marshal(s)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		back := DefaultSpec()
		if err := yaml.Unmarshal(out, &back); err != nil {
			t.Fatalf("decode of the encoded spec: %v\n%s", err, out)
		}
		for name := range s.Policies {
			require.Equal(t, s.Params(name), back.Params(name), name)
		}
	})
}
