package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// TestYAMLQuantities: times, sizes and frequencies decode from YAML by their unit strings,
// and a bad one is reported with its line.
func TestYAMLQuantities(t *testing.T) {
	var ok struct {
		T Time `yaml:"t"`
		S Size `yaml:"s"`
		F Freq `yaml:"f"`
	}
	require.NoError(t, yaml.Unmarshal([]byte("t: 13.75ns\ns: 4KiB\nf: 400MHz\n"), &ok))
	require.Equal(t, Time(13750), ok.T)
	require.Equal(t, Size(4096), ok.S)
	require.Equal(t, Freq(400_000_000), ok.F)

	for _, c := range []struct{ doc, want string }{
		{"t: 1ns\ns: 4KiB\nf: 400\n", `line 3: frequency "400"`},
		{"\nt: 300\n", `line 2: time "300"`},
		{"s: [1, 2]\n", "line 1: a size must be a single value"},
	} {
		var v struct {
			T Time `yaml:"t"`
			S Size `yaml:"s"`
			F Freq `yaml:"f"`
		}
		err := yaml.Unmarshal([]byte(c.doc), &v)
		require.ErrorContains(t, err, c.want, c.doc)
	}
}
