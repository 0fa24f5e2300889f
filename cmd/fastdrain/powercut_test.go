package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/runner/replayrun"
	"github.com/stretchr/testify/require"
)

// tinyCutSets are the --set flags of a scripted cut at cutAt on the tiny machine, with
// power-loss protection (the drain runs).
func tinyCutSets(cutAt string) []string {
	return []string{"--preset", "tiny", "--set", "firmware.power_loss.enabled=true",
		"--set", "firmware.power_loss_protection=true", "--set", "firmware.power_loss.cut_at=" + cutAt}
}

// writeTrace writes a DiskSim trace of n 4 KiB writes at 1 µs intervals (time in ns,
// device, 512-byte sector, sectors, 0 = write) and returns its path.
func writeTrace(t *testing.T, n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Join([]string{strconv.Itoa(i * 1000), "0", strconv.Itoa(8 * i), "8", "0"}, " ") + "\n")
	}
	p := filepath.Join(t.TempDir(), "w.disksim")
	require.NoError(t, os.WriteFile(p, []byte(b.String()), 0o644))
	return p
}

// TestReplayPowerCut: replay with a cut in the middle of 2,000 writes (issue 38: it
// panicked in the replay summary) reports the requests completed before the cut, the
// requests in flight that never completed (afap at --qd 8 keeps 8 in flight while the
// trace lasts) and the power-loss table, in text and in JSON; a cut after the trace's end
// is an error naming cut_at.
func TestReplayPowerCut(t *testing.T) {
	trace := writeTrace(t, 2000)
	args := append([]string{"replay", trace, "--qd", "8"}, tinyCutSets("3ms")...)
	out, err := run(args...)
	require.NoError(t, err)
	require.Contains(t, out, "power cut at 3.000ms (firmware.power_loss.cut_at): ")
	require.Contains(t, out, "the replay's results are of the requests completed before it; 8 requests in flight at the cut never completed")
	require.Contains(t, out, "power loss (replay)")
	require.Contains(t, out, "recovery: pages scanned / records / logical pages mapped")
	js, _, err := runStdout(append(args, "--format", "json")...)
	require.NoError(t, err)
	var s replayrun.Summary
	require.NoError(t, json.Unmarshal([]byte(js), &s))
	require.Equal(t, int64(8), s.Unfinished)
	require.Positive(t, s.Replayed)
	require.Less(t, s.Replayed, int64(2000-8))
	require.NotNil(t, s.PowerLoss)
	_, err = run(append([]string{"replay", trace}, tinyCutSets("100s")...)...)
	require.ErrorContains(t, err, "firmware.power_loss.cut_at: 100s is after the end of the run (it ended at ")
}

// TestFioPowerCut: fio with a cut while its job writes (issue 38: "fio: no job ran")
// reports the IOs completed before the cut, the one in flight (a sync engine's job has one
// outstanding) and the power-loss table; a cut while the machine idles before the jobs
// says no job had started; a cut after the jobs' end is an error naming cut_at.
func TestFioPowerCut(t *testing.T) {
	job := filepath.Join(t.TempDir(), "w.fio")
	require.NoError(t, os.WriteFile(job, []byte("[w]\nrw=randwrite\nbs=4k\ndirect=1\nsize=16m\nio_size=8m\n"), 0o644))
	out, err := run(append([]string{"fio", job}, tinyCutSets("5ms")...)...)
	require.NoError(t, err)
	require.Contains(t, out, "the jobs' results are of the IOs completed before it; 1 IOs in flight at the cut never completed")
	require.Contains(t, out, "fio jobs")
	require.Contains(t, out, "power loss (fio)")
	out, err = run(append([]string{"fio", job, "--idle", "10ms"}, tinyCutSets("5ms")...)...)
	require.NoError(t, err)
	require.Contains(t, out, "; no job had started")
	require.NotContains(t, out, "fio jobs")
	_, err = run(append([]string{"fio", job}, tinyCutSets("100s")...)...)
	require.ErrorContains(t, err, "firmware.power_loss.cut_at: 100s is after the end of the run")
	// A read job's own file is laid out before the job starts (16 MiB of 1 MiB writes: on
	// tiny the job starts after 1.2 s): a cut at 5 ms comes before it.
	read := filepath.Join(t.TempDir(), "r.fio")
	require.NoError(t, os.WriteFile(read, []byte("[r]\nrw=read\nbs=4k\nsize=16m\n"), 0o644))
	out, err = run(append([]string{"fio", read, "--out", ""}, tinyCutSets("5ms")...)...)
	require.NoError(t, err)
	require.Contains(t, out, "; no job had started")
	require.Contains(t, out, "power loss (fio)")
	require.NotContains(t, out, "fio jobs")
	// In JSON the jobs as of the cut and the power-loss table; the sentence goes to stderr.
	js, stderr, err := runStdout(append([]string{"fio", job, "--format", "json", "--out", ""}, tinyCutSets("5ms")...)...)
	require.NoError(t, err)
	require.Contains(t, stderr, "1 IOs in flight at the cut never completed")
	var doc fioDoc
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	require.Len(t, doc.Jobs, 1)
	require.Positive(t, doc.Jobs[0].Write.IOs)
	require.Less(t, doc.Jobs[0].Write.IOs, int64(2048), "8 MiB of 4 KiB writes were not all done")
	require.NotEmpty(t, doc.PowerLoss)
}

// TestUflipPowerCut: uflip with a cut (issue 38: empty tables, exit 0) names the plan step
// the cut stopped (here the third: the format and the first granularity run complete by
// 3 s), keeps the runs completed before it and prints the power-loss table; a cut during
// the format leaves no run; a cut after the plan is an error naming cut_at.
func TestUflipPowerCut(t *testing.T) {
	args := []string{"uflip", "--span", "16MiB", "--nbrun", "1", "--bench", "granularity", "--io-divisor", "8", "--out", ""}
	out, err := run(append(args, tinyCutSets("3s")...)...)
	require.NoError(t, err)
	require.Contains(t, out, "on tiny the cut stopped step 3 of 48 (granularity/SR/io_size=1024): the runs below are those completed before it")
	require.Contains(t, out, "granularity/SR/io_size=512")
	require.Contains(t, out, "power loss (tiny)")
	out, err = run(append(args, tinyCutSets("300ms")...)...)
	require.NoError(t, err)
	require.Contains(t, out, "the cut stopped step 1 of 48 (format/random)")
	plan := filepath.Join(t.TempDir(), "plan.yaml")
	require.NoError(t, os.WriteFile(plan, []byte("benches: [granularity]\nio_sizes: [4096]\nio_count: {sr: 8, rr: 8, sw: 8, rw: 8}\nio_ignore: {rw: 0}\nnb_run: 1\nformat: none\n"), 0o644))
	_, err = run(append([]string{"uflip", "--plan", plan, "--span", "16MiB", "--out", ""}, tinyCutSets("1000s")...)...)
	require.ErrorContains(t, err, "firmware.power_loss.cut_at: 1000s is after the end of the run")
}
