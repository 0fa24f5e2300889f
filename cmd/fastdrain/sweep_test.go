package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sweep"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"
)

// runSweepCmd executes a sweep or merge command built directly (the root wires them in).
func runSweepCmd(cmd *cobra.Command, args ...string) (string, error) {
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	return out.String(), err
}

// tinySweep is a 2 × 2 flashbench sweep of the tiny preset, 2,000 operations a point.
var tinySweep = []string{"--kind", "flashbench", "--preset", "tiny", "--axis", "flash.channels=1,2",
	"--axis", "flash.ways=1,2", "--ops", "2000"}

func TestSweepCommandWritesTableCSVAndJSON(t *testing.T) {
	dir := t.TempDir()
	out, err := runSweepCmd(newSweepCmd(), append(tinySweep, "--out", dir)...)
	require.NoError(t, err)
	require.Contains(t, out, "sweep of flashbench points on tiny: 4 grid points (flash.channels (2) × flash.ways (2)), shard 0/1 runs 4")
	require.Contains(t, out, "die_busy_mean")
	for _, f := range []string{"sweep.json", "sweep.csv"} {
		st, err := os.Stat(filepath.Join(dir, "sweep", f))
		require.NoError(t, err, f)
		require.Positive(t, st.Size())
	}
	out, err = runSweepCmd(newSweepCmd(), append(tinySweep, "--no-files", "--format", "csv")...)
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(dir, "sweep", "sweep.csv"))
	require.NoError(t, err)
	require.Equal(t, string(b), out, "--format csv prints the CSV file")
}

func TestSweepShardsMergeByteForByte(t *testing.T) {
	whole, parts, merged := t.TempDir(), t.TempDir(), t.TempDir()
	_, err := runSweepCmd(newSweepCmd(), append(tinySweep, "--out", whole, "--jobs", "1")...)
	require.NoError(t, err)
	var files []string
	for _, sh := range []string{"0/3", "1/3", "2/3"} {
		_, err := runSweepCmd(newSweepCmd(), append(tinySweep, "--out", parts, "--shard", sh, "--jobs", "3")...)
		require.NoError(t, err)
	}
	for i := 2; i >= 0; i-- {
		files = append(files, filepath.Join(parts, "sweep", "shard-"+string(rune('0'+i))+"-of-3.json"))
	}
	out, err := runSweepCmd(newMergeCmd(), append([]string{"-o", merged}, files...)...)
	require.NoError(t, err)
	require.Contains(t, out, "merged 3 files: 4 points")
	for _, f := range []string{"sweep.json", "sweep.csv"} {
		want, err := os.ReadFile(filepath.Join(whole, "sweep", f))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(merged, "sweep", f))
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), f)
	}

	// A missing shard is named; so is a file given twice.
	_, err = runSweepCmd(newMergeCmd(), "-o", merged, files[0], files[2])
	require.ErrorContains(t, err, "missing 1 of 4 points (shard 1/3 not given): 1")
	_, err = runSweepCmd(newMergeCmd(), "-o", merged, files[0], files[1], files[2], files[1])
	require.ErrorContains(t, err, files[1]+" is given twice")
	_, err = runSweepCmd(newMergeCmd(), "-o", merged, filepath.Join(parts, "nope.json"))
	require.ErrorContains(t, err, "nope.json")
}

func TestSweepFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(file, []byte("kind: flashbench\npreset: tiny\naxes:\n  - {key: flash.channels, values: [1, 2]}\n"), 0o644))
	out, err := runSweepCmd(newSweepCmd(), "--file", file, "--axis", "flash.ways=1,2", "--ops", "1000", "--no-files")
	require.NoError(t, err)
	require.Contains(t, out, "4 grid points (flash.channels (2) × flash.ways (2))")
	require.NoError(t, os.WriteFile(file, []byte("axes:\n  - {key: flash.channels, values: [1, 1]}\n"), 0o644))
	_, err = runSweepCmd(newSweepCmd(), "--file", file)
	require.ErrorContains(t, err, "s.yaml:2: axes[0]: axis flash.channels: value \"1\" is listed twice")
}

func TestSweepBadFlagsNameTheFlag(t *testing.T) {
	_, err := runSweepCmd(newSweepCmd(), "--kind", "fio", "--shard", "3/3", "--axis", "nokey", "--format", "xml")
	for _, s := range []string{"--kind", "--shard", "--axis", "--format"} {
		require.ErrorContains(t, err, s)
	}
	_, err = runSweepCmd(newSweepCmd(), "--kind", "run", "--axis", "flash.channels=4", "--ops", "10", "--duration", "-1s")
	require.ErrorContains(t, err, "--ops applies to --kind flashbench only")
	require.ErrorContains(t, err, "--duration")
	_, err = runSweepCmd(newSweepCmd(), "--kind", "flashbench", "--axis", "flash.channels=4", "--scenario", "x", "--mix", "1/2")
	require.ErrorContains(t, err, "--scenario applies to --kind run only")
	require.ErrorContains(t, err, "--mix")
	_, err = runSweepCmd(newSweepCmd(), "--preset", "tiny")
	require.ErrorContains(t, err, "at least one --axis")
	_, err = runSweepCmd(newSweepCmd(), append(tinySweep, "--axis", "flash.nope=1", "--no-files")...)
	require.ErrorContains(t, err, "axis flash.nope value 1")
}

func TestSweepRunKind(t *testing.T) {
	out, err := runSweepCmd(newSweepCmd(), "--kind", "run", "--scenario", "apache-u", "--duration", "100ms",
		"--axis", "firmware.buffer.pages=1024,2048", "--no-files", "--format", "json")
	require.NoError(t, err)
	require.Contains(t, out, `"kind": "run"`)
	require.Contains(t, out, `"duration": "100ms"`)
	require.Contains(t, out, `"apache-u.p99_us"`)
}

func TestSweepShardAutoFromA1BasedSlurmArray(t *testing.T) {
	// The tasks of "sbatch --array=1-3" run shards 0/3, 1/3 and 2/3 with --shard auto; the
	// merge of their files is the unsharded sweep, byte for byte (latency distributions too).
	whole, parts, merged := t.TempDir(), t.TempDir(), t.TempDir()
	_, err := runSweepCmd(newSweepCmd(), append(tinySweep, "--out", whole, "--jobs", "1")...)
	require.NoError(t, err)
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "3")
	t.Setenv("SLURM_ARRAY_TASK_MIN", "1")
	t.Setenv("SLURM_ARRAY_TASK_MAX", "3")
	var files []string
	for id := 1; id <= 3; id++ {
		t.Setenv("SLURM_ARRAY_TASK_ID", string(rune('0'+id)))
		out, err := runSweepCmd(newSweepCmd(), append(tinySweep, "--out", parts, "--shard", "auto")...)
		require.NoError(t, err)
		require.Contains(t, out, "shard "+string(rune('0'+id-1))+"/3, from SLURM_ARRAY_TASK_ID="+string(rune('0'+id)))
		files = append(files, filepath.Join(parts, "sweep", "shard-"+string(rune('0'+id-1))+"-of-3.json"))
	}
	_, err = runSweepCmd(newMergeCmd(), append([]string{"-o", merged}, files...)...)
	require.NoError(t, err)
	want, err := os.ReadFile(filepath.Join(whole, "sweep", "sweep.json"))
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(merged, "sweep", "sweep.json"))
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
	require.Contains(t, string(got), `"latency_ps":[{"name":"read"`)
}

func TestSweepPercentilesShardedIsUnsharded(t *testing.T) {
	// --percentiles 50,99.99 replaces each operation kind's p99 column with p50 and p99.99,
	// read from the point's latency distribution; shards merge byte for byte as before, and
	// shards of another percentile list do not merge with them.
	pcts := append(append([]string(nil), tinySweep...), "--percentiles", "99.99,50")
	whole, parts, merged, other := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	_, err := runSweepCmd(newSweepCmd(), append(pcts, "--out", whole, "--jobs", "1")...)
	require.NoError(t, err)
	var files []string
	for _, sh := range []string{"0/2", "1/2"} {
		_, err := runSweepCmd(newSweepCmd(), append(pcts, "--out", parts, "--shard", sh, "--jobs", "2")...)
		require.NoError(t, err)
	}
	files = append(files, filepath.Join(parts, "sweep", "shard-1-of-2.json"), filepath.Join(parts, "sweep", "shard-0-of-2.json"))
	_, err = runSweepCmd(newMergeCmd(), append([]string{"-o", merged}, files...)...)
	require.NoError(t, err)
	for _, f := range []string{"sweep.json", "sweep.csv"} {
		want, err := os.ReadFile(filepath.Join(whole, "sweep", f))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(merged, "sweep", f))
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), f)
	}

	r, err := sweep.ReadFile(filepath.Join(whole, "sweep", "sweep.json"))
	require.NoError(t, err)
	require.Equal(t, report.Percentiles{50, 99.99}, r.Spec.Percentiles)
	require.NotContains(t, r.Columns, "read_p99_us")
	for _, w := range r.Rows {
		h, err := r.Pool("read", w.Point)
		require.NoError(t, err)
		for _, c := range []struct {
			col string
			q   float64
		}{{"read_p50_us", 0.5}, {"read_p9999_us", 0.9999}} {
			v := w.Metrics[slices.Index(r.Columns, c.col)]
			require.Equal(t, float64(h.Quantile(c.q))/1e6, v, "point %d %s", w.Point, c.col)
		}
	}

	_, err = runSweepCmd(newSweepCmd(), append(tinySweep, "--out", other, "--shard", "1/2", "--percentiles", "50")...)
	require.NoError(t, err)
	_, err = runSweepCmd(newMergeCmd(), "-o", merged, files[1], filepath.Join(other, "sweep", "shard-1-of-2.json"))
	require.ErrorContains(t, err, "percentiles differ")
	_, err = runSweepCmd(newSweepCmd(), append(tinySweep, "--no-files", "--percentiles", "50,100")...)
	require.ErrorContains(t, err, `--percentiles "50,100"`)
}
