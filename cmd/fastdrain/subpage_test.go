package main

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/sampletraces"
	"github.com/stretchr/testify/require"
)

// TestSubPagePresetsRun: mqsim-ref (8 KiB flash pages, two 4 KiB mapping units a page) runs
// whole-system scenarios with every page read back as written, and replays a trace on a
// preconditioned device; the same array with 16 KiB pages (four units a page, as current
// TLC NAND: docs/sources.md §3.4) runs too. Flushes pad pages, which the statistics table shows.
func TestSubPagePresetsRun(t *testing.T) {
	for _, set := range [][]string{nil, {"--set", "flash.die.page_size=16384"}} {
		args := append([]string{"run", "--preset", "mqsim-ref", "--duration", "100ms", "--no-files", "--check-data"}, set...)
		out, err := run(args...)
		require.NoError(t, err, "%v", set)
		require.Contains(t, out, "pages read back from the device as written")
		require.Contains(t, out, "page slots padded (sub-page mapping)")
	}
	// Deterministic: the same configuration and seed give the same output, byte for byte.
	args := []string{"run", "--preset", "mqsim-ref", "--set", "flash.die.page_size=16384", "--duration", "50ms", "--no-files", "--seed", "3"}
	a, err := run(args...)
	require.NoError(t, err)
	b, err := run(args...)
	require.NoError(t, err)
	require.Equal(t, a, b)
	tr := sampletraces.Path(t, sampletraces.TPCC)
	out, err := run("replay", tr, "--preset", "mqsim-ref", "--max", "500", "--set", "precondition.fill=0.05")
	require.NoError(t, err)
	require.Contains(t, out, "replayed 500 in")
}
