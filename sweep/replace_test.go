package sweep

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCheckReplace: a shard file may be replaced by the same shard of the same sweep (a
// retried task writes the same bytes), never by another sweep, another shard or over a file
// that is not a sweep result.
func TestCheckReplace(t *testing.T) {
	s := tinyBench()
	s.Flashbench.Ops = 200
	sh := Shard{1, 3}
	r, err := Run(s, Options{Shard: sh})
	require.NoError(t, err)
	paths, err := r.WriteFiles(t.TempDir())
	require.NoError(t, err)
	sealed, err := Seal(s)
	require.NoError(t, err)
	require.Equal(t, r.Spec, sealed, "Seal gives the spec Run records")
	require.NoError(t, CheckReplace(paths[0], sealed, sh))

	other := s
	other.Axes = Grid{{Key: "flash.channels", Values: []string{"1", "2", "4"}}}
	os2, err := Seal(other)
	require.NoError(t, err)
	require.ErrorContains(t, CheckReplace(paths[0], os2, sh), "holds the results of another sweep (axes differ)")
	require.ErrorContains(t, CheckReplace(paths[0], sealed, Shard{2, 3}), "holds shard 1/3 of this sweep, not 2/3")

	junk := filepath.Join(t.TempDir(), "sweep.json")
	require.NoError(t, os.WriteFile(junk, []byte("my notes\n"), 0o644))
	require.ErrorContains(t, CheckReplace(junk, sealed, Whole()), "is not a sweep result this sweep may replace")
}
