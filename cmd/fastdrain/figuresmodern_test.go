package main

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/testtier"
	"github.com/stretchr/testify/require"
)

// TestFiguresModernAlone: the modern section runs on its own platform, so it is refused
// beside the paper's figures, before anything runs.
func TestFiguresModernAlone(t *testing.T) {
	_, err := run("figures", "--only", "modern,fig5", "--no-files")
	require.ErrorContains(t, err, "--only modern runs alone")
}

// TestFiguresModern runs the modern section for 100 ms a run (30 runs on gen4-tlc) and
// checks every app × variant row is printed.
func TestFiguresModern(t *testing.T) {
	testtier.SkipUnlessLong(t, "30 runs of gen4-tlc")
	out, err := run("figures", "--only", "modern", "--duration", "100ms", "--no-files")
	require.NoError(t, err)
	require.Contains(t, out, "FastDrain on a modern drive (gen4-tlc), 100ms simulated per run")
	for _, v := range []string{"vanilla", "fd-buf", "fd-ftl", "fd", "oracle-bg"} {
		require.Contains(t, out, v)
	}
}
