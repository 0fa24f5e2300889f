package sweep

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/flashbench"
	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// tinyBench is a 2 × 3 flashbench sweep of the tiny preset with 2,000 operations a point.
func tinyBench() Spec {
	p := DefaultFlashbench()
	p.Ops = 2000
	return Spec{Kind: KindFlashbench, Base: Base{Preset: "tiny"}, Flashbench: &p,
		Axes: Grid{{Key: "flash.channels", Values: []string{"1", "2"}}, {Key: "flash.ways", Values: []string{"1", "2", "4"}}}}
}

func jsonOf(t *testing.T, r *Result) []byte {
	var b bytes.Buffer
	require.NoError(t, r.WriteJSON(&b))
	return b.Bytes()
}

func csvOf(t *testing.T, r *Result) []byte {
	var b bytes.Buffer
	require.NoError(t, r.WriteCSV(&b))
	return b.Bytes()
}

func TestFlashbenchPointIsTheHandBuiltBench(t *testing.T) {
	r, err := Run(tinyBench(), Options{})
	require.NoError(t, err)
	require.Equal(t, 6, r.Points)
	require.Len(t, r.Rows, 6)
	require.Equal(t, Whole(), r.Shard)
	require.Len(t, r.Spec.Base.SHA256, 64)

	// Point 4 is channels=2, ways=2 (first axis slowest). Build that array by hand from
	// presets/tiny.yaml — 2-plane TLC dies of 32 blocks × 64 pages of 4 KiB, one die per
	// package, seed 1 — and run flashbench directly with the same stream.
	c := flashbench.DefaultConfig()
	c.Channels = 2
	c.Channel.Dies = 2 * 1
	c.Channel.Die.Planes, c.Channel.Die.BlocksPerPlane, c.Channel.Die.PagesPerBlock, c.Channel.Die.PageSize = 2, 32, 64, 4096
	c.Ops, c.QueueDepth, c.Seed = 2000, 64, 1
	want, err := flashbench.Run(c)
	require.NoError(t, err)
	row := r.Rows[4]
	require.Equal(t, []string{"2", "2"}, row.Values)
	m := map[string]float64{}
	for i, col := range r.Columns {
		m[col] = row.Metrics[i]
	}
	secs := float64(want.Elapsed) / 1e12
	require.Equal(t, float64(want.Elapsed)/1e6, m["elapsed_us"])
	require.InDelta(t, 2000/secs, m["iops"], 1e-9*m["iops"])
	// Reads and programs move one 4 KiB page each; erases none.
	require.InDelta(t, float64((want.Ops[0]+want.Ops[1])*4096)/secs/1e6, m["mb_per_s"], 1e-9*m["mb_per_s"])
	require.Equal(t, 2000.0, m["read_ops"]+m["program_ops"]+m["erase_ops"])
	require.Equal(t, float64(want.Ops[0]), m["read_ops"])
	require.InDelta(t, 1400, m["read_ops"], 100, "a 70/30 mix of 2000 ops: about 1400 reads")
	require.Equal(t, float64(want.Latency[0].Quantile(0.99))/1e6, m["read_p99_us"])
	for _, k := range []string{"channel_busy_mean", "die_busy_mean"} {
		require.Greater(t, m[k], 0.0, k)
		require.LessOrEqual(t, m[k], 1.0, k)
	}
	// Twice the ways (point 5 against 4) cannot lower the throughput of a die-bound array.
	require.Greater(t, r.Rows[5].Metrics[0], r.Rows[4].Metrics[0])
}

func TestShardsMergeToTheUnshardedOutput(t *testing.T) {
	s := tinyBench()
	whole, err := Run(s, Options{})
	require.NoError(t, err)
	wantJSON, wantCSV := jsonOf(t, whole), csvOf(t, whole)
	// n = 8 > 6 points leaves shards 6/8 and 7/8 empty.
	for _, n := range []int{1, 2, 3, 4, 5, 8} {
		var parts []*Result
		var names []string
		// Feed the shards in reverse order: Merge must sort by point.
		for i := n - 1; i >= 0; i-- {
			r, err := Run(s, Options{Shard: Shard{i, n}, Jobs: 2})
			require.NoError(t, err)
			require.Len(t, r.Rows, len(Shard{i, n}.Points(6)))
			back, err := ReadJSON(bytes.NewReader(jsonOf(t, r)), "shard")
			require.NoError(t, err)
			parts = append(parts, back)
			names = append(names, r.FileBase()+".json")
		}
		m, err := Merge(parts, names)
		require.NoError(t, err, "n=%d", n)
		require.Equal(t, string(wantJSON), string(jsonOf(t, m)), "n=%d", n)
		require.Equal(t, string(wantCSV), string(csvOf(t, m)), "n=%d", n)
	}
}

func TestOutputDoesNotDependOnJobs(t *testing.T) {
	s := tinyBench()
	var outs []string
	for _, jobs := range []int{1, 3, 8} {
		r, err := Run(s, Options{Jobs: jobs})
		require.NoError(t, err)
		outs = append(outs, string(jsonOf(t, r)))
	}
	require.Equal(t, outs[0], outs[1])
	require.Equal(t, outs[0], outs[2])
}

func TestProgressCountsEveryPoint(t *testing.T) {
	var seen []int
	r, err := Run(tinyBench(), Options{Shard: Shard{1, 2}, Jobs: 2, Progress: func(d int) { seen = append(seen, d) }})
	require.NoError(t, err)
	require.Len(t, r.Rows, 3) // points 1, 3, 5
	require.Equal(t, []int{1, 2, 3}, seen)
}

func TestJSONRoundTrip(t *testing.T) {
	r, err := Run(tinyBench(), Options{Shard: Shard{1, 4}})
	require.NoError(t, err)
	// A failed point round-trips too.
	r.Rows[0].Metrics, r.Rows[0].Error = nil, "flashbench: something broke"
	b := jsonOf(t, r)
	back, err := ReadJSON(bytes.NewReader(b), "r.json")
	require.NoError(t, err)
	require.Equal(t, r, back)
	require.Equal(t, string(b), string(jsonOf(t, back)))
	require.Contains(t, string(csvOf(t, back)), ",flashbench: something broke\n")
	require.Equal(t, 1, back.Failed())
}

func TestReadJSONRejectsBadFiles(t *testing.T) {
	r, err := Run(tinyBench(), Options{Shard: Shard{0, 2}})
	require.NoError(t, err)
	good := string(jsonOf(t, r))
	for _, tc := range []struct {
		name, from, to, err string
	}{
		{"unknown field", `"points": 6,`, `"points": 6, "extra": 1,`, `unknown field "extra"`},
		{"format", FormatVersion, "fastdrain-sweep/0", "format"},
		{"syntax", `"points": 6,`, `"points": 6,,`, "r.json:"},
		{"wrong value", `"values":["1","4"]`, `"values":["1","2"]`, `point 2 has values ["1" "2"]`},
		{"not in shard", `{"point":2,`, `{"point":3,`, "point 3 is not in shard 0/2"},
		{"points", `"points": 6,`, `"points": 7,`, "the grid has 6"},
		{"type", `"points": 6,`, `"points": "6",`, "r.json:"},
		{"distribution", `"latency_ps":[{"name":"read","ps":{"count":`, `"latency_ps":[{"name":"read","ps":{"count":1`, "latency_ps[0]: histogram read: buckets hold"},
		{"repeated distribution", `{"name":"program"`, `{"name":"read"`, `latency_ps[1]: name "read" is empty or repeated`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Contains(t, good, tc.from)
			_, err := ReadJSON(strings.NewReader(strings.Replace(good, tc.from, tc.to, 1)), "r.json")
			require.ErrorContains(t, err, "r.json")
			require.ErrorContains(t, err, tc.err)
		})
	}
}

func TestMergeErrorsNameTheFiles(t *testing.T) {
	s := tinyBench()
	shard := func(s Spec, i, n int) *Result {
		r, err := Run(s, Options{Shard: Shard{i, n}})
		require.NoError(t, err)
		return r
	}
	a, b, c := shard(s, 0, 3), shard(s, 1, 3), shard(s, 2, 3)

	_, err := Merge([]*Result{a, c}, []string{"a.json", "c.json"})
	require.ErrorContains(t, err, "missing 2 of 6 points (shard 1/3 not given): 1; 4")

	_, err = Merge([]*Result{a, b, c, b}, []string{"a.json", "b.json", "c.json", "b2.json"})
	require.ErrorContains(t, err, "b2.json: shard 1/3 is also in b.json")

	// Shards of different counts overlap: point 0 is in 0/3 and in 0/2.
	_, err = Merge([]*Result{a, b, c, shard(s, 0, 2)}, []string{"a.json", "b.json", "c.json", "h.json"})
	require.ErrorContains(t, err, "point 0 (flash.channels=1, flash.ways=1) is in a.json and h.json")

	other := tinyBench()
	other.Flashbench.Ops = 1000
	_, err = Merge([]*Result{a, b, shard(other, 2, 3)}, []string{"a.json", "b.json", "o.json"})
	require.ErrorContains(t, err, "o.json: not the same sweep as a.json: flashbench parameters differ")

	other = tinyBench()
	other.Axes[1].Values = []string{"1", "2", "8"}
	_, err = Merge([]*Result{a, shard(other, 1, 3)}, []string{"a.json", "o.json"})
	require.ErrorContains(t, err, "o.json: not the same sweep as a.json: axes differ")

	other = tinyBench()
	other.Base.Sets = []string{"flash.die.blocks_per_plane=16"}
	_, err = Merge([]*Result{a, shard(other, 1, 3)}, []string{"a.json", "o.json"})
	require.ErrorContains(t, err, "base configuration differ")

	_, err = Merge(nil, nil)
	require.ErrorContains(t, err, "no shard results")
}

func TestBadAxisKeyIsNamed(t *testing.T) {
	s := tinyBench()
	s.Axes = append(s.Axes, Axis{Key: "flash.chanels", Values: []string{"4"}})
	_, err := Run(s, Options{})
	require.ErrorContains(t, err, "axis flash.chanels value 4")
	require.ErrorContains(t, err, "chanels")

	s = tinyBench()
	s.Axes[0].Values = []string{"1", "lots"}
	_, err = Run(s, Options{})
	require.ErrorContains(t, err, "axis flash.channels value lots")

	// A value that decodes but is out of range names the point and the field.
	s = tinyBench()
	s.Axes[0].Values = []string{"1", "300"}
	_, err = Run(s, Options{})
	require.ErrorContains(t, err, "point 3 (flash.channels=300, flash.ways=1): flash.channels: 300 is not in 1 … 256")
}

func TestFlashbenchAcceptsAFlashOnlyPreset(t *testing.T) {
	// mqsim-ref with 12 KiB pages (three 4 KiB mapping units, which sub-page mapping does not
	// pack) is refused for full-system use but is a valid flash array.
	sets := []string{"flash.die.page_size=12288"}
	_, err := platforms.Load(platforms.Options{Preset: "mqsim-ref", Sets: sets})
	require.Error(t, err)
	s := tinyBench()
	s.Base.Preset, s.Base.Sets = "mqsim-ref", sets
	s.Axes = Grid{{Key: "flash.channels", Values: []string{"1", "2"}}}
	r, err := Run(s, Options{})
	require.NoError(t, err)
	require.Len(t, r.Rows, 2)
	s.Kind, s.Flashbench, s.Run = KindRun, nil, &RunParams{Scenario: "apache-u", Duration: sim.Second}
	_, err = Run(s, Options{})
	require.ErrorContains(t, err, "firmware.page_size")
}

func TestSpecValidate(t *testing.T) {
	fb := DefaultFlashbench()
	fb.Ops, fb.QueueDepth, fb.Mix = 0, 0, [3]int{0, 0, 0}
	err := Spec{Kind: KindFlashbench, Flashbench: &fb, Run: &RunParams{}}.Validate()
	for _, e := range []string{"flashbench.ops", "flashbench.qd", "flashbench.mix", "run: parameters given"} {
		require.ErrorContains(t, err, e)
	}
	err = Spec{Kind: KindRun, Run: &RunParams{Scenario: "nope", Duration: 0, Warmup: -1}}.Validate()
	for _, e := range []string{"run.scenario", "run.duration", "run.warmup"} {
		require.ErrorContains(t, err, e)
	}
	require.ErrorContains(t, Spec{Kind: "fio"}.Validate(), `kind: "fio"`)
	require.ErrorContains(t, Spec{Kind: KindRun}.Validate(), "run: parameters missing")
}

func TestRunPointIsTheRunnerResult(t *testing.T) {
	// Two 100 ms runs of apache-u on fastdrain-tlc with 4 and 8 channels; the 8-channel
	// point must report exactly what runner.Run reports for that machine.
	p := DefaultRun()
	p.Scenario, p.Duration = "apache-u", 100*sim.Millisecond
	s := Spec{Kind: KindRun, Base: Base{Preset: "fastdrain-tlc", Variant: "fd"}, Run: &p,
		Axes: Grid{{Key: "flash.channels", Values: []string{"4", "8"}}}}
	r, err := Run(s, Options{})
	require.NoError(t, err)
	require.Equal(t, []string{"apache-u.requests", "apache-u.mean_us", "apache-u.p50_us", "apache-u.p99_us",
		"apache-u.p999_us", "waf"}, r.Columns[:6])

	c, err := platforms.Load(platforms.Options{Preset: "fastdrain-tlc", Variant: "fd", Sets: []string{"flash.channels=8"}})
	require.NoError(t, err)
	sc, err := apps.LookupScenario("apache-u")
	require.NoError(t, err)
	sc.Duration = 100 * sim.Millisecond
	want, err := runner.Run(runner.Options{Config: c, Workload: runner.Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
	require.NoError(t, err)
	a := want.App("apache-u")
	row := r.Rows[1]
	require.Equal(t, "", row.Error)
	require.Equal(t, float64(a.Requests), row.Metrics[0])
	require.Positive(t, row.Metrics[0])
	require.Equal(t, float64(a.Latency.Quantile(0.99))/1e6, row.Metrics[3])
	col := func(name string) float64 {
		i := slices.Index(r.Columns, name)
		require.GreaterOrEqual(t, i, 0, name)
		return row.Metrics[i]
	}
	require.Equal(t, float64(want.Buffer.PeakOccupancy), col("buffer_peak_pages"))
	// The row carries apache-u's whole distribution: rebuilt, it is the runner's histogram.
	require.Len(t, row.Latency, 1)
	require.Equal(t, "apache-u", row.Latency[0].Name)
	require.Equal(t, a.Latency.Data(), row.Latency[0].Ps)
}

func TestPoolMergesPointsDistributions(t *testing.T) {
	// Pooling the read latencies of points 4 and 5 is the same as merging the two points'
	// own histograms, sample for sample: count is the sum of the read counts, and every
	// quantile is that of the merged histogram, after a JSON round trip of the result.
	r, err := Run(tinyBench(), Options{})
	require.NoError(t, err)
	back, err := ReadJSON(bytes.NewReader(jsonOf(t, r)), "r.json")
	require.NoError(t, err)
	pooled, err := back.Pool("read", 4, 5)
	require.NoError(t, err)
	readOps := func(k int) float64 { return r.Rows[k].Metrics[3] } // columns: iops, mb_per_s, elapsed_us, read_ops
	require.Equal(t, "read_ops", r.Columns[3])
	require.Equal(t, uint64(readOps(4)+readOps(5)), pooled.Count())
	var want sim.Histogram
	for _, k := range []int{4, 5} {
		h, err := sim.FromData("read", r.Rows[k].Latency[0].Ps)
		require.NoError(t, err)
		want.Merge(h)
	}
	require.Equal(t, want.Data(), pooled.Data())
	_, err = back.Pool("read", 9)
	require.ErrorContains(t, err, "point 9 is not in this result")
	_, err = back.Pool("trim", 1)
	require.ErrorContains(t, err, `no distribution "trim"`)
}

func TestWriteFiles(t *testing.T) {
	r, err := Run(tinyBench(), Options{Shard: Shard{2, 3}})
	require.NoError(t, err)
	dir := t.TempDir()
	paths, err := r.WriteFiles(dir)
	require.NoError(t, err)
	require.Equal(t, []string{filepath.Join(dir, "shard-2-of-3.json"), filepath.Join(dir, "shard-2-of-3.csv")}, paths)
	back, err := ReadFile(paths[0])
	require.NoError(t, err)
	require.Equal(t, r, back)
	b, err := os.ReadFile(paths[1])
	require.NoError(t, err)
	// Header: point, 2 axes, 17 flashbench metrics; points 2 and 5.
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	require.Len(t, lines, 3)
	require.Equal(t, "point,flash.channels,flash.ways,iops,mb_per_s,elapsed_us,read_ops,read_mean_us,read_p99_us,"+
		"program_ops,program_mean_us,program_p99_us,erase_ops,erase_mean_us,erase_p99_us,channel_busy_mean,die_busy_mean,"+
		"nand_array_j,onfi_bus_j,flash_avg_w", lines[0])
	require.True(t, strings.HasPrefix(lines[1], "2,1,4,"))
	require.True(t, strings.HasPrefix(lines[2], "5,2,4,"))
}

func BenchmarkFlashbenchSweep(b *testing.B) {
	s := tinyBench()
	s.Flashbench.Ops = 500
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(s, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestAxesOverJobParameters(t *testing.T) {
	// Two dies on one channel, QD 1 then QD 8. At QD 1 each operation is submitted when
	// the previous one completes, so the run lasts exactly the sum of all latencies:
	// Σ mean·count over kinds.
	s := tinyBench()
	s.Axes = Grid{{Key: "flash.ways", Values: []string{"2"}}, {Key: "flashbench.qd", Values: []string{"1", "8"}},
		{Key: "flash.channels", Values: []string{"1"}}}
	r, err := Run(s, Options{})
	require.NoError(t, err)
	m := func(row int, col string) float64 {
		for i, c := range r.Columns {
			if c == col {
				return r.Rows[row].Metrics[i]
			}
		}
		t.Fatalf("no column %s", col)
		return 0
	}
	sum := 0.0
	for _, k := range []string{"read", "program", "erase"} {
		sum += m(0, k+"_mean_us") * m(0, k+"_ops")
	}
	require.InDelta(t, m(0, "elapsed_us"), sum, 1e-6*sum)
	require.Less(t, m(1, "elapsed_us"), m(0, "elapsed_us"), "8 outstanding operations keep both dies busy")

	for _, tc := range []struct {
		key, val, err string
	}{
		{"flashbench.qd", "0", "axis flashbench.qd value 0: flashbench.qd: 0 is not in 1 … 1048576"},
		{"flashbench.qd", "x", `flashbench.qd: "x": invalid syntax`},
		{"flashbench.mix", "1/2", "want three weights"},
		{"flashbench.depth", "1", "no such flashbench parameter (have qd, ops, mix, multi_plane, slc, seed)"},
		{"flashbench.slc", "true", "flashbench.slc: the tlc die has no SLC mode (flash.die.slc: t_read and t_prog)"},
		{"run.duration", "1s", "run.duration: a parameter of run points"},
	} {
		s := tinyBench()
		s.Axes = append(s.Axes, Axis{Key: tc.key, Values: []string{tc.val}})
		_, err := Run(s, Options{})
		require.ErrorContains(t, err, tc.err, tc.key)
	}
	p := DefaultRun()
	s = Spec{Kind: KindRun, Base: Base{Preset: "fastdrain-tlc"}, Run: &p,
		Axes: Grid{{Key: "run.warmup", Values: []string{"20s"}}, {Key: "flashbench.qd", Values: []string{"4"}}}}
	_, err = Run(s, Options{})
	require.ErrorContains(t, err, "run.warmup: 20s is not in 0 … run.duration (10s)")
	require.ErrorContains(t, err, "flashbench.qd: a parameter of flashbench points")
}

// TestRunRefusesNegativeJobs: a negative number of parallel simulations was read as one
// per CPU (issue 38); it is refused before anything runs.
func TestRunRefusesNegativeJobs(t *testing.T) {
	_, err := Run(tinyBench(), Options{Jobs: -1})
	require.EqualError(t, err, "sweep: jobs: -1 must not be negative (0 = one per CPU)")
}

// TestSLCAxis: the flashbench.slc axis reaches flashbench. On tiny's TLC die with a pSLC
// mode of tPROG 300 µs, a program-only stream at QD 1 on one die costs a program's bus
// phase plus 300 µs per page in SLC mode, against the native pages' tPROG (at least the
// LSB page's) otherwise: the SLC point's mean program latency is the lower. (Blocks of 96
// pages: a block in SLC mode must hold whole word lines of 3.)
func TestSLCAxis(t *testing.T) {
	p := DefaultFlashbench()
	p.Ops, p.QueueDepth, p.Mix = 200, 1, [3]int{0, 1, 0}
	s := Spec{Kind: KindFlashbench, Flashbench: &p, Base: Base{Preset: "tiny",
		Sets: []string{"flash.channels=1", "flash.ways=1", "flash.die.pages_per_block=96", "flash.die.slc.t_read=25us", "flash.die.slc.t_prog=300us"}},
		Axes: Grid{{Key: "flashbench.slc", Values: []string{"false", "true"}}}}
	r, err := Run(s, Options{})
	require.NoError(t, err)
	col := -1
	for i, c := range r.Columns {
		if c == "program_mean_us" {
			col = i
		}
	}
	require.Empty(t, r.Rows[1].Error)
	native, slc := r.Rows[0].Metrics[col], r.Rows[1].Metrics[col]
	require.Greater(t, slc, 300.0)
	require.Less(t, slc, 300.0+60) // 300 µs + the page's data-in on tiny's bus
	require.Greater(t, native, slc)
}
