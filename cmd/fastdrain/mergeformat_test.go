package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMergeFormat: merge --format json and csv print exactly the sweep.json and sweep.csv
// they write (the summary line goes to stderr, so stdout parses); a bad --format is an
// error naming the flag, before any file is read.
func TestMergeFormat(t *testing.T) {
	parts, merged := t.TempDir(), t.TempDir()
	var files []string
	for _, sh := range []string{"0/2", "1/2"} {
		_, err := runSweepCmd(newSweepCmd(), append(tinySweep, "--out", parts, "--shard", sh, "--jobs", "1")...)
		require.NoError(t, err)
	}
	for _, f := range []string{"shard-0-of-2.json", "shard-1-of-2.json"} {
		files = append(files, filepath.Join(parts, "sweep", f))
	}
	for _, c := range []struct{ format, file string }{{"json", "sweep.json"}, {"csv", "sweep.csv"}} {
		stdout, stderr, err := runStdout(append([]string{"merge", "-o", merged, "--format", c.format}, files...)...)
		require.NoError(t, err)
		require.Contains(t, stderr, "merged 2 files: 4 points")
		b, err := os.ReadFile(filepath.Join(merged, "sweep", c.file))
		require.NoError(t, err)
		require.Equal(t, string(b), stdout, c.format)
	}
	_, err := run(append([]string{"merge", "-o", merged, "--format", "xml"}, files...)...)
	require.ErrorContains(t, err, `--format "xml": want text, json or csv`)
}
