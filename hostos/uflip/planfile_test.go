package uflip

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDecodePlanSpec: a plan file sets PlanSpec's keys over the defaults; what the decoder
// alone would take silently (a fraction for a count, a null) and unknown keys are errors
// naming the line and key, and the result is validated.
func TestDecodePlanSpec(t *testing.T) {
	spec := DefaultPlanSpec()
	require.NoError(t, DecodePlanSpec([]byte("nb_run: 1\nio_count: {sw: 64}\n"), &spec))
	require.Equal(t, int64(1), spec.NbRun)
	require.Equal(t, int64(64), spec.IOCount.SW)
	require.Equal(t, DefaultPlanSpec().IOCount.RW, spec.IOCount.RW, "keys not given keep the default")
	for _, c := range []struct{ doc, want string }{
		{"nb_run: 2.5\n", "line 1: nb_run: 2.5 is not a whole number"},
		{"io_sizes: [4096, 6144.5]\n", "line 1: io_sizes[1]: 6144.5 is not a whole number"},
		{"io_count: ~\n", "line 1: io_count: the section is empty (null)"},
		{"nb_run:\n", "line 1: nb_run: no value (null)"},
		{"nb_rn: 1\n", "line 1: unknown key nb_rn (did you mean nb_run?)"},
		{"nb_run: x\n", "line 1: cannot unmarshal !!str `x` into int64"},
		{"nb_run: -1\n", "uflip.nb_run: -1 must be positive"},
		{"nb_run: 1\n---\nnb_run: 2\n", "more than one YAML document"},
	} {
		spec := DefaultPlanSpec()
		require.ErrorContains(t, DecodePlanSpec([]byte(c.doc), &spec), c.want, c.doc)
	}
}
