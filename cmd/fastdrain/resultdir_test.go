package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSweepRefusesAnotherSweepsFile: a sweep rewrites its own result file (a retried task:
// the same bytes), refuses, before running, to replace another sweep's without --force, and
// replaces it with --force; merge follows the same rule for its sweep.json.
func TestSweepRefusesAnotherSweepsFile(t *testing.T) {
	dir := t.TempDir()
	base := []string{"sweep", "--kind", "flashbench", "--preset", "tiny", "--ops", "200", "--jobs", "1", "--out", dir, "--format", "csv"}
	_, err := run(append(base, "--axis", "flash.channels=1,2")...)
	require.NoError(t, err)
	p := filepath.Join(dir, "sweep", "sweep.json")
	first, err := os.ReadFile(p)
	require.NoError(t, err)
	_, err = run(append(base, "--axis", "flash.channels=1,2")...)
	require.NoError(t, err, "the same sweep rewrites its file")
	again, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Equal(t, first, again)

	_, err = run(append(base, "--axis", "flash.ways=1,2")...)
	require.ErrorContains(t, err, p+" holds the results of another sweep (axes differ): give another --out, or --force to replace it")
	kept, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Equal(t, first, kept, "nothing was replaced")
	_, err = run(append(base, "--axis", "flash.ways=1,2", "--force")...)
	require.NoError(t, err)

	// merge: its own output again is fine; another sweep's sweep.json is refused.
	_, err = run(append(base, "--axis", "flash.channels=1,2", "--shard", "0/2")...)
	require.NoError(t, err)
	_, err = run(append(base, "--axis", "flash.channels=1,2", "--shard", "1/2")...)
	require.NoError(t, err)
	shards := []string{filepath.Join(dir, "sweep", "shard-0-of-2.json"), filepath.Join(dir, "sweep", "shard-1-of-2.json")}
	_, err = run(append([]string{"merge", "-o", dir}, shards...)...) // dir/sweep/sweep.json: the ways sweep
	require.ErrorContains(t, err, "holds the results of another sweep (axes differ): give another --out, or --force")
	merged := filepath.Join(dir, "merged")
	_, err = run(append([]string{"merge", "-o", merged}, shards...)...)
	require.NoError(t, err)
	_, err = run(append([]string{"merge", "-o", merged}, shards...)...)
	require.NoError(t, err, "merging the same shards again rewrites the same file")
	m, err := os.ReadFile(filepath.Join(merged, "sweep", "sweep.json"))
	require.NoError(t, err)
	require.Equal(t, first, m, "the merged file is the unsharded run's, byte for byte")
}
