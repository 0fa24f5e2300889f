package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/sampletraces"
	"github.com/fastdrain-sim/fastdrain/runner/replayrun"
	"github.com/stretchr/testify/require"
)

func TestUflipCommand(t *testing.T) {
	dir := t.TempDir()
	out, err := run("uflip", "--bench", "granularity", "--io-divisor", "64", "--nbrun", "1", "--format-device", "none", "--out", dir)
	require.NoError(t, err)
	require.Contains(t, out, "granularity/RW/io_size=4096")
	for _, f := range []string{"runs.csv", "ios.csv"} {
		_, err := os.Stat(filepath.Join(dir, "uflip", "fastdrain-small", f))
		require.NoError(t, err)
	}
	_, err = run("uflip", "--bench", "speed", "--format-device", "weird", "--span", "huge", "--io-divisor", "0")
	require.ErrorContains(t, err, "--bench")
	require.ErrorContains(t, err, "--format-device")
	require.ErrorContains(t, err, "--span")
	require.ErrorContains(t, err, "--io-divisor")
}

func TestUflipOnARealFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "dev.img")
	out, err := run("uflip", "--bench", "granularity", "--io-divisor", "128", "--nbrun", "1", "--format-device", "none",
		"--span", "8MiB", "--target", f, "--out", "")
	if err != nil {
		require.ErrorContains(t, err, "O_DIRECT", "the only acceptable failure is a file system without O_DIRECT")
		t.Skip(err)
	}
	require.Contains(t, out, "granularity/SR/io_size=512")
}

func TestReplayCommand(t *testing.T) {
	tr := sampletraces.Path(t, sampletraces.TPCC)
	rec := filepath.Join(t.TempDir(), "rec.csv")
	out, err := run("replay", tr, "--max", "500", "--records", rec)
	require.NoError(t, err)
	// The first 500 requests of the TPC-C trace (counted with awk).
	require.Contains(t, out, "replayed 500 in")
	require.Contains(t, out, "replay: per operation")
	st, err := os.Stat(rec)
	require.NoError(t, err)
	require.Positive(t, st.Size())
	_, err = run("replay", tr, "--mode", "sometimes", "--past-capacity", "maybe", "--time-scale", "x")
	require.ErrorContains(t, err, "--mode")
	require.ErrorContains(t, err, "--past-capacity")
	require.ErrorContains(t, err, "--time-scale")
	_, err = run("replay", "/no/such/trace")
	require.Error(t, err)
	_, err = run("replay", tr, "--qd", "0")
	require.ErrorContains(t, err, "--qd 0: want 1 … 65536")
	_, err = run("replay", tr, "--format", "disksim")
	require.ErrorContains(t, err, "the trace's format is --trace-format disksim")
	empty := filepath.Join(t.TempDir(), "empty.trace")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	_, err = run("replay", empty, "--trace-format", "disksim")
	require.ErrorContains(t, err, "empty.trace: no requests in the trace (0 lines")
}

func TestReplaySummaryByHand(t *testing.T) {
	// testdata/small.disksim (time_ns device lba size_sectors type; type 1 is a read, 0 a
	// write; sectors of 512 B):
	//   read  4096 B at 0            aligned: asked 4096, moved 4096
	//   read  1536 B at 4608         [4608, 6144) rounds out to [4096, 8192): asked 1536, moved 4096
	//   write 4096 B at 8192         aligned: asked 4096, moved 4096
	//   write 4096 B at 1.024e15     past the device: wrapped, asked 4096, moved 4096
	// so reads asked 5632 and moved 8192, writes asked and moved 8192, 1 rounded, 1 wrapped.
	dir := t.TempDir()
	out, _, err := runStdout("replay", "testdata/small.disksim", "--trace-format", "disksim", "--format", "json", "--out", dir)
	require.NoError(t, err)
	var s replayrun.Summary
	require.NoError(t, json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &s))
	require.Equal(t, "disksim", s.TraceFormat)
	require.Equal(t, [3]int64{4, 1, 1}, [3]int64{s.Requests, s.Rounded, s.Wrapped})
	require.Equal(t, int64(4096), s.BlockBytes)
	byOp := map[string]replayrun.OpSum{}
	for _, o := range s.Ops {
		byOp[o.Op] = o
	}
	require.Equal(t, [3]int64{2, 5632, 8192}, [3]int64{byOp["read"].Requests, byOp["read"].BytesAsked, byOp["read"].BytesMoved})
	require.Equal(t, [3]int64{2, 8192, 8192}, [3]int64{byOp["write"].Requests, byOp["write"].BytesAsked, byOp["write"].BytesMoved})
	require.Equal(t, [3]int64{4, 13824, 16384}, [3]int64{byOp["all"].Requests, byOp["all"].BytesAsked, byOp["all"].BytesMoved})
	// IOPS and MB/s are over the replay's span: 4 requests and 16384 B in elapsed_us.
	require.InDelta(t, 4/(s.ElapsedUs/1e6), s.IOPS, 1e-6*s.IOPS)
	require.InDelta(t, 16384/(s.ElapsedUs/1e6)/1e6, byOp["all"].MBps, 1e-6*byOp["all"].MBps)
	require.LessOrEqual(t, byOp["all"].At(50), byOp["all"].At(99))
	for _, f := range []string{"replay.json", "replay.csv"} {
		_, err := os.Stat(filepath.Join(dir, "replay", "small-fastdrain-small", f))
		require.NoError(t, err, f)
	}
}

func TestFioCommand(t *testing.T) {
	out, err := run("fio", "testdata/jobs.yaml")
	require.NoError(t, err)
	// db: io_size 8 MiB of 4 KiB blocks = 2048 IOs, rwmixread 70 → 1434 reads (fio's exact
	// deck) and 614 writes; log: 4 MiB = 1024 writes with a flush every 16 → 64 flushes.
	require.Regexp(t, `db │  read │ 1434 `, out)
	require.Regexp(t, `db │ write │  614 `, out)
	require.Regexp(t, `log │ write │ 1024 `, out)
	require.Regexp(t, `log │ flush │   64 `, out)
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("jobs:\n  - name: x\n    zonemode: zbd\n"), 0o644))
	_, err = run("fio", bad)
	require.ErrorContains(t, err, `bad.yaml:3: unknown key "zonemode"`)
}

// TestFioINICommand: testdata/jobs.fio is testdata/jobs.yaml as fio INI (bs=4k = 4096,
// 64m/8m/128m/16m/4m powers of 1024), so the counts match TestFioCommand: db 1434 reads and
// 614 writes, log 1024 writes and 64 flushes; the log's latency file has one line per write
// (flushes are not logged): 1024 lines, each with direction 1 and bs 4096, the first at
// offset 128m (log_offset=1 adds fio's offset column before the priority).
func TestFioINICommand(t *testing.T) {
	_, err := run("fio", "--no-files", "testdata/jobs.fio")
	require.ErrorContains(t, err, "the jobs write fio logs (log_lat.2.log, …), which go to --out/fio/: drop --no-files or give --out DIR")
	dir := t.TempDir()
	out, _, err := runStdout("fio", "--output-format=json", "--out", dir, "testdata/jobs.fio")
	require.NoError(t, err)
	var doc struct {
		Version string `json:"fio version"`
		Jobs    []struct {
			Name string `json:"jobname"`
			Read struct {
				TotalIOs int64 `json:"total_ios"`
			}
			Write struct {
				TotalIOs int64 `json:"total_ios"`
				IOBytes  int64 `json:"io_bytes"`
			}
			Sync struct {
				TotalIOs int64 `json:"total_ios"`
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Equal(t, "fastdrain "+version, doc.Version)
	require.Len(t, doc.Jobs, 2)
	require.Equal(t, int64(1434), doc.Jobs[0].Read.TotalIOs)
	require.Equal(t, int64(614), doc.Jobs[0].Write.TotalIOs)
	require.Equal(t, int64(1024), doc.Jobs[1].Write.TotalIOs)
	require.Equal(t, int64(4<<20), doc.Jobs[1].Write.IOBytes)
	require.Equal(t, int64(64), doc.Jobs[1].Sync.TotalIOs)
	saved, err := os.ReadFile(filepath.Join(dir, "fio", "jobs-fastdrain-small", "fio.json"))
	require.NoError(t, err)
	require.JSONEq(t, out, string(saved))
	lat, err := os.ReadFile(filepath.Join(dir, "fio", "jobs-fastdrain-small", "log_lat.2.log"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(lat), "\n"), "\n")
	require.Len(t, lines, 1024)
	require.True(t, strings.HasSuffix(lines[0], ", 134217728, 0"), "first write at offset=128m = 128·2^20: %s", lines[0])
	for _, l := range lines {
		f := strings.Split(l, ", ")
		require.Len(t, f, 6)
		require.Equal(t, "1", f[2])
		require.Equal(t, "4096", f[3])
	}
	_, err = run("fio", "--format", "xml", "testdata/jobs.yaml")
	require.ErrorContains(t, err, `--format "xml": want text, json or csv`)
	_, err = run("fio", "--format", "text", "--output-format", "json", "testdata/jobs.fio")
	require.ErrorContains(t, err, "disagree")
	_, err = run("fio", "--output-format", "normal", "testdata/jobs.yaml")
	require.NoError(t, err)
}

// TestUflipFindingsOnAPreset: the finding checks on a small real preset run (fastdrain-small,
// a 64 MiB span, every IO absorbed by its 64 MiB write buffer). Every write then completes
// at buffer speed whatever its address, so "sequential writes are the cheapest" cannot hold
// strictly and the focused-area finding does not hold (no larger area costs more); the
// parallel finding does not hold on reads (16 dies serve 32 streams concurrently).
func TestUflipFindingsOnAPreset(t *testing.T) {
	out, err := run("uflip", "--findings", "--io-divisor", "64", "--nbrun", "1", "--format-device", "none",
		"--span", "64MiB", "--out", "")
	require.NoError(t, err)
	require.Contains(t, out, "uFLIP findings on fastdrain-small")
	for _, id := range []string{"sequential", "locality", "alignment", "erases", "partitions", "parallel", "pause"} {
		require.Contains(t, out, "] "+id+": ")
	}
	require.Contains(t, out, "[not held] locality:")
	require.Contains(t, out, "[not held] parallel:")
	require.Contains(t, out, "mechanism: die and channel parallelism")
	require.NotContains(t, out, "bench(", "only the six benchmarks the checks read are run")
	require.NotContains(t, out, "order/")
}

// TestUflipAutoCounts: --auto prints the chosen IOIgnore/IOCount per run and writes them
// to runs.csv; bad values are errors naming the flag.
func TestUflipAutoCounts(t *testing.T) {
	dir := t.TempDir()
	out, err := run("uflip", "--bench", "granularity", "--auto", "0.1", "--auto-cap", "200", "--nbrun", "1",
		"--format-device", "none", "--span", "16MiB", "--out", dir)
	require.NoError(t, err)
	require.Contains(t, out, "IOIgnore")
	require.Contains(t, out, "converged")
	csv, err := os.ReadFile(filepath.Join(dir, "uflip", "fastdrain-small", "runs.csv"))
	require.NoError(t, err)
	require.Contains(t, string(csv), "auto_io_ignore,auto_io_count,auto_precision,auto_converged")
	_, err = run("uflip", "--auto", "2", "--auto-min", "10", "--auto-cap", "5")
	require.ErrorContains(t, err, "--auto/--auto-min")
	require.ErrorContains(t, err, "rel_err: 2 is not in [0, 1)")
	require.ErrorContains(t, err, "min: 10 is below 100")
	require.ErrorContains(t, err, "--auto-cap 5 is below --auto-min 10")
	_, err = run("uflip", "--plots", "--out", "")
	require.ErrorContains(t, err, "--plots draws into --out/uflip/plots")
	_, err = run("uflip", "--bench", "granularity", "--span", "1MiB", "--trace-run", "nope", "--out", "")
	require.ErrorContains(t, err, `--trace-run "nope" is not a run of this plan`)
}

// TestUflipCalibrationOnAFile: the same plan on a file target and on a preset, with plots:
// a calibration table with one row per base and an "all" row, and one plot per base plus
// the trace.
func TestUflipCalibrationOnAFile(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "dev.img")
	out, err := run("uflip", "--bench", "granularity", "--io-divisor", "128", "--nbrun", "1", "--format-device", "none",
		"--span", "8MiB", "--target", f, "--vs", "fastdrain-small", "--plots", "--findings", "--out", dir)
	if err != nil {
		require.ErrorContains(t, err, "O_DIRECT", "the only acceptable failure is a file system without O_DIRECT")
		t.Skip(err)
	}
	require.Contains(t, out, "uFLIP calibration: target / fastdrain-small")
	for _, row := range []string{"│ granularity │   SR │", "│ granularity │  all │"} {
		require.Contains(t, out, row)
	}
	for _, p := range []string{"target/runs.csv", "fastdrain-small/ios.csv", "fastdrain-small/findings.txt", "target/findings.txt", "plots/granularity-SR.png",
		"plots/granularity-RW.png", "plots/trace-granularity_RW_io_size32768.png"} {
		_, err := os.Stat(filepath.Join(dir, "uflip", "target-vs-fastdrain-small", p))
		require.NoError(t, err, p)
	}
	_, err = run("uflip", "--vs", "fastdrain-small", "--preset", "fastdrain-small", "--out", "")
	require.ErrorContains(t, err, "--vs: fastdrain-small is already one of the devices")
}

// TestUflipPlanFile: --plan reads a PlanSpec YAML over uFLIP's defaults (here a reversed
// partitions list, run in the file's order); a bad file is an error naming the file and
// line, without Go type names.
func TestUflipPlanFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "plan.yaml")
	require.NoError(t, os.WriteFile(good, []byte("benches: [partitioning]\npartitions: [4, 1]\nio_count: {sr: 8, rr: 8, sw: 8, rw: 8}\nio_ignore: {rw: 0}\nnb_run: 1\n"), 0o644))
	out, err := run("uflip", "--plan", good, "--format-device", "none", "--span", "16MiB", "--out", "")
	require.NoError(t, err)
	i4, i1 := strings.Index(out, "partitioning/SW/partitions=4"), strings.Index(out, "partitioning/SW/partitions=1 ")
	require.True(t, i4 >= 0 && i1 > i4, "P=4 runs before P=1, as the file lists them")
	// The plan's format and IOIgnore stand unless a flag says otherwise.
	own := filepath.Join(dir, "own.yaml")
	require.NoError(t, os.WriteFile(own, []byte("benches: [granularity]\nio_sizes: [4096]\nio_count: {sr: 8, rr: 8, sw: 8, rw: 8}\nio_ignore: {sr: 2, rw: 0}\nnb_run: 1\nformat: none\nsettle: flush\n"), 0o644))
	js, _, err := runStdout("uflip", "--plan", own, "--span", "16MiB", "--out", "", "--format", "json")
	require.NoError(t, err)
	var doc struct {
		FormatDevice string `json:"format_device"`
		Settle       string
		Devices      []struct {
			Runs []struct {
				Label    string
				IOIgnore int64 `json:"io_ignore"`
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	require.Equal(t, "none", doc.FormatDevice)
	require.Equal(t, "flush", doc.Settle)
	require.Equal(t, "granularity/SR/io_size=4096", doc.Devices[0].Runs[0].Label, "no format run first")
	require.Equal(t, int64(2), doc.Devices[0].Runs[0].IOIgnore)
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("nb_run: 1\nbogus: 2\n"), 0o644))
	_, err = run("uflip", "--plan", bad)
	require.ErrorContains(t, err, "--plan "+bad+": line 2: unknown key bogus")
	require.NotContains(t, err.Error(), "uflip.PlanSpec")
	require.NoError(t, os.WriteFile(bad, []byte("nb_run: 0\n"), 0o644))
	_, err = run("uflip", "--plan", bad)
	require.ErrorContains(t, err, "uflip.nb_run: 0 must be positive")
}

func TestUflipTargetNeedsForceToOverwrite(t *testing.T) {
	// An existing non-empty file is refused without --force (ufliprun.TestCheckTarget has the
	// other cases).
	full := filepath.Join(t.TempDir(), "data.img")
	require.NoError(t, os.WriteFile(full, []byte("precious"), 0o644))
	_, err := run("uflip", "--bench", "granularity", "--span", "8MiB", "--target", full, "--out", "")
	require.ErrorContains(t, err, "give --force")
}

func TestReplaySort(t *testing.T) {
	// Lines out of time order are refused without --sort and replayed in time order with it:
	// 4 requests, times 2000, 0, 1000, 0 ns relative to the earliest.
	path := filepath.Join(t.TempDir(), "u.trace")
	require.NoError(t, os.WriteFile(path, []byte("3000 0 0 8 1\n1000 0 8 8 0\n2000 0 16 8 1\n1000 0 24 8 1\n"), 0o644))
	_, err := run("replay", path, "--trace-format", "disksim")
	require.ErrorContains(t, err, "earlier than the previous request")
	out, _, err := runStdout("replay", path, "--trace-format", "disksim", "--sort", "--format", "json")
	require.NoError(t, err)
	var s replayrun.Summary
	require.NoError(t, json.Unmarshal([]byte(out), &s))
	require.Equal(t, int64(4), s.Replayed)
	require.Equal(t, "disksim", s.TraceFormat)
}
