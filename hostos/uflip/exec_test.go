package uflip

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// fakeDev is a test Device: latency = fixed[op] + perKiB·size/1024, or, when cycle is set,
// the next value of cycle. It blocks the caller for the latency and records how many IOs
// were outstanding at once.
type fakeDev struct {
	fixed    [3]sim.Time
	perKiB   sim.Time
	cycle    []sim.Time
	n        int
	out, max int
	failAt   int // 1-based IO number that fails; 0 never
	calls    []call
}

type call struct {
	at           sim.Time
	op           Op
	offset, size int64
}

func (d *fakeDev) Do(p *sim.Proc, op Op, offset, size int64) (sim.Time, error) {
	d.n++
	d.calls = append(d.calls, call{p.Now(), op, offset, size})
	if d.n == d.failAt {
		return 0, errors.New("media error")
	}
	lat := d.fixed[op] + d.perKiB*sim.Time(size/1024)
	if d.cycle != nil {
		lat = d.cycle[(d.n-1)%len(d.cycle)]
	}
	d.out++
	d.max = max(d.max, d.out)
	p.Sleep(lat)
	d.out--
	return lat, nil
}

// execute runs f as a process on a fresh engine and returns the result.
func execute(t *testing.T, x *Executor, f func(p *sim.Proc, res *Result) error) *Result {
	t.Helper()
	eng := sim.NewEngine()
	res := &Result{}
	var err error
	eng.Spawn("uflip", func(p *sim.Proc) { err = f(p, res) })
	eng.Run()
	require.NoError(t, err)
	return res
}

// TestExecutorSequentialTiming: SR, 4 IOs of 4 KiB, read latency 100 µs, two runs with a
// 100 ms pause between them. Run 0 submits at 0, 100, 200, 300 µs and ends at 400 µs; run 1
// starts at 400 µs + 100 ms = 100.4 ms.
func TestExecutorSequentialTiming(t *testing.T) {
	dev := &fakeDev{fixed: [3]sim.Time{100 * sim.Microsecond, sim.Millisecond, 0}}
	x := &Executor{Dev: dev, RunPause: 100 * sim.Millisecond}
	r := Run{Pattern: Pattern{Base: SR, IOSize: 4096, TargetSize: 1 << 20, Incr: 1}, IOCount: 4, NbRun: 2}
	res := execute(t, x, func(p *sim.Proc, res *Result) error { return x.Run(p, "sr", BenchGranularity, 0, r, res) })
	us := sim.Microsecond
	var submits []sim.Time
	for _, rec := range res.IOs {
		submits = append(submits, rec.Submit)
		require.Equal(t, 100*us, rec.Latency)
		require.Equal(t, OpRead, rec.Op)
	}
	require.Equal(t, []sim.Time{0, 100 * us, 200 * us, 300 * us,
		100400 * us, 100500 * us, 100600 * us, 100700 * us}, submits)
	require.Equal(t, []int64{0, 8, 16, 24}, []int64{res.IOs[0].LBA, res.IOs[1].LBA, res.IOs[2].LBA, res.IOs[3].LBA})
	require.Len(t, res.Runs, 2)
	require.Equal(t, RunStats{Label: "sr", Bench: BenchGranularity, Rep: 1, Start: 100400 * us,
		End: 100800 * us, IOs: 4, Counted: 4, Mean: 1e8, Min: 100 * us, Max: 100 * us}, res.Runs[1])
}

// TestExecutorStatsAfterIgnore: RW, latencies cycle 1, 3, 2, 6 ms, IOIgnore 1. The
// statistics cover 3, 2, 6 ms: mean 11/3 ms, min 2 ms, max 6 ms, population std-dev
// sqrt(((3−11/3)² + (2−11/3)² + (6−11/3)²)/3) ms = sqrt(78/27) ms ≈ 1.6997 ms.
func TestExecutorStatsAfterIgnore(t *testing.T) {
	ms := sim.Millisecond
	dev := &fakeDev{cycle: []sim.Time{ms, 3 * ms, 2 * ms, 6 * ms}}
	x := &Executor{Dev: dev, Seed: 9}
	r := Run{Pattern: Pattern{Base: RW, IOSize: 8192, TargetSize: 1 << 20}, IOCount: 4, IOIgnore: 1, NbRun: 1}
	res := execute(t, x, func(p *sim.Proc, res *Result) error { return x.Run(p, "rw", BenchGranularity, 0, r, res) })
	st := res.Runs[0]
	require.Equal(t, int64(4), st.IOs)
	require.Equal(t, int64(3), st.Counted)
	require.InDelta(t, 11.0/3*1e9, st.Mean, 1e-3)
	require.Equal(t, 2*ms, st.Min)
	require.Equal(t, 6*ms, st.Max)
	require.InDelta(t, math.Sqrt(78.0/27)*1e9, st.StdDev, 1)
	require.Equal(t, sim.Time(0), st.Start)
	require.Equal(t, 12*ms, st.End)
	require.True(t, res.IOs[0].Ignored)
	require.False(t, res.IOs[1].Ignored)
	for _, rec := range res.IOs {
		require.Equal(t, OpWrite, rec.Op)
		require.Zero(t, rec.LBA%16, "8 KiB-aligned random LBAs")
		require.Less(t, rec.LBA, int64(2048))
	}
}

// TestExecutorSizeLatencyMix: latency 20 µs + 1 µs per KiB; an SR(4 KiB)/SW(8 KiB) mix at
// ratio 3 issues SW, SR, SR, SR, SW, SR, SR, SR: latencies 28, 24, 24, 24, 28, 24, 24, 24 µs,
// mean 200/8 = 25 µs, std-dev sqrt((2·9 + 6·1)/8) = sqrt(3) µs.
func TestExecutorSizeLatencyMix(t *testing.T) {
	us := sim.Microsecond
	dev := &fakeDev{fixed: [3]sim.Time{20 * us, 20 * us, 0}, perKiB: us}
	x := &Executor{Dev: dev}
	r := Run{Pattern: Pattern{Base: SR, IOSize: 4096, TargetSize: 1 << 20, Incr: 1},
		Second: &Pattern{Base: SW, IOSize: 8192, TargetOffset: 1 << 20, TargetSize: 1 << 20, Incr: 1},
		Ratio:  3, IOCount: 8, NbRun: 1}
	res := execute(t, x, func(p *sim.Proc, res *Result) error { return x.Run(p, "mix", BenchMix, 2, r, res) })
	var pats []int
	for _, rec := range res.IOs {
		pats = append(pats, rec.Pattern)
	}
	require.Equal(t, []int{2, 1, 1, 1, 2, 1, 1, 1}, pats)
	st := res.Runs[0]
	require.InDelta(t, 25e6, st.Mean, 1e-6)
	require.InDelta(t, math.Sqrt(3)*1e6, st.StdDev, 1e-3)
	require.Equal(t, 24*us, st.Min)
	require.Equal(t, 28*us, st.Max)
	require.Equal(t, 200*us, st.End)
	require.Equal(t, 2, st.Point)
}

// TestExecutorParallel: D = 4 streams of 3 IOs at 1 ms each run side by side: 4 IOs
// outstanding, the run ends at 3 ms, and stream k stays in the k-th quarter of the target.
func TestExecutorParallel(t *testing.T) {
	dev := &fakeDev{fixed: [3]sim.Time{0, sim.Millisecond, 0}}
	x := &Executor{Dev: dev, Seed: 1}
	r := Run{Pattern: Pattern{Base: RW, IOSize: 4096, TargetSize: 64 << 10}, IOCount: 3, ParallelDegree: 4, NbRun: 1}
	res := execute(t, x, func(p *sim.Proc, res *Result) error { return x.Run(p, "par", BenchParallelism, 0, r, res) })
	require.Equal(t, 4, dev.max)
	st := res.Runs[0]
	require.Equal(t, int64(12), st.IOs)
	require.Equal(t, 3*sim.Millisecond, st.End)
	require.Len(t, res.IOs, 12)
	for _, rec := range res.IOs {
		// 64 KiB / 4 = 16 KiB = 32 sectors per stream.
		lo := int64(rec.Stream) * 32
		require.GreaterOrEqual(t, rec.LBA, lo)
		require.Less(t, rec.LBA, lo+32)
	}
}

// TestExecutorPauseAndBurst: 100 µs reads with a 1 ms pause. Burst 0: pause after every IO,
// submits at 0, 1.1, 2.2, 3.3 ms. Burst 2: pause after IOs 2 and 4, submits at 0, 0.1, 1.2,
// 1.3 ms.
func TestExecutorPauseAndBurst(t *testing.T) {
	us := sim.Microsecond
	for _, c := range []struct {
		burst int64
		want  []sim.Time
	}{
		{0, []sim.Time{0, 1100 * us, 2200 * us, 3300 * us}},
		{2, []sim.Time{0, 100 * us, 1200 * us, 1300 * us}},
	} {
		dev := &fakeDev{fixed: [3]sim.Time{100 * us, 0, 0}}
		x := &Executor{Dev: dev}
		r := Run{Pattern: Pattern{Base: SR, IOSize: 4096, TargetSize: 1 << 20, Incr: 1},
			IOCount: 4, Pause: sim.Millisecond, Burst: c.burst, NbRun: 1}
		res := execute(t, x, func(p *sim.Proc, res *Result) error { return x.Run(p, "p", BenchPause, 0, r, res) })
		var got []sim.Time
		for _, rec := range res.IOs {
			got = append(got, rec.Submit)
		}
		require.Equal(t, c.want, got, "burst %d", c.burst)
	}
}

// TestExecutorPlan runs a small plan end to end: a random format of 2.25 MiB (1022 IOs,
// see TestRandomFormat), then Granularity at 4 and 8 KiB for the four bases, one run each.
func TestExecutorPlan(t *testing.T) {
	spec := DefaultPlanSpec()
	spec.Benches = []Bench{BenchGranularity}
	spec.IOSizes = []int64{4096, 8192}
	spec.IOCount = BaseCounts{SR: 4, RR: 4, SW: 4, RW: 6}
	spec.IOIgnore = BaseCounts{RW: 2}
	spec.NbRun = 1
	plan, err := NewPlan(spec, 18*FormatChunk)
	require.NoError(t, err)
	require.Len(t, plan.Steps, 1+8)
	dev := &fakeDev{fixed: [3]sim.Time{10 * sim.Microsecond, 50 * sim.Microsecond, 0}}
	x := &Executor{Dev: dev, Seed: 3}
	var sunk []IORecord
	x.IOSink = func(r IORecord) { sunk = append(sunk, r) }
	res := execute(t, x, func(p *sim.Proc, res *Result) error { return x.RunPlan(p, plan, res) })
	require.Len(t, res.Runs, 9)
	require.Equal(t, "format/random", res.Runs[0].Label)
	require.Equal(t, int64(1022), res.Runs[0].IOs)
	require.Empty(t, res.IOs, "records went to the sink")
	require.Len(t, sunk, 2*(4+4+4+6))
	// Reads first: the two SR and two RR runs precede the writes.
	for i, want := range []string{"granularity/SR/io_size=4096", "granularity/SR/io_size=8192",
		"granularity/RR/io_size=4096", "granularity/RR/io_size=8192"} {
		require.Equal(t, want, res.Runs[1+i].Label)
	}
	// Format: 1022 writes of 50 µs end at 51.1 ms; the first run starts 100 ms later.
	require.Equal(t, 51100*sim.Microsecond, res.Runs[0].End)
	require.Equal(t, 151100*sim.Microsecond, res.Runs[1].Start)
	nRW := 0
	for _, r := range res.Runs[1:] {
		if strings.HasPrefix(r.Label, "granularity/RW/") {
			nRW++
			require.Equal(t, int64(4), r.Counted, "%s: 6 IOs − 2 ignored", r.Label)
		}
	}
	require.Equal(t, 2, nRW)
}

// TestExecutorFill: a read run with Fill writes its target before each repetition — 16 KiB
// at 64 KiB in 4 KiB IOs: writes at 64, 68, 72, 76 KiB — then reads it, wrapping within the
// target (6 reads: 64 … 76, 64, 68 KiB). Only the reads are recorded and counted (10 µs
// each); with the flush settle, the fill's writes are flushed before the next repetition.
func TestExecutorFill(t *testing.T) {
	dev := &fakeDev{fixed: [3]sim.Time{10 * sim.Microsecond, 50 * sim.Microsecond, 0}}
	x := &Executor{Dev: dev, Settle: SettleFlush}
	r := Run{Pattern: Pattern{Base: SR, IOSize: 4096, TargetOffset: 64 << 10, TargetSize: 16 << 10, Incr: 1},
		IOCount: 6, NbRun: 2, Fill: true}
	res := execute(t, x, func(p *sim.Proc, res *Result) error { return x.Run(p, "rb", BenchReadback, 0, r, res) })
	type io struct {
		op  Op
		kib int64
	}
	var got []io
	for _, c := range dev.calls {
		got = append(got, io{c.op, c.offset >> 10})
		if c.op != OpFlush {
			require.Equal(t, int64(4096), c.size)
		}
	}
	rep := []io{{OpWrite, 64}, {OpWrite, 68}, {OpWrite, 72}, {OpWrite, 76},
		{OpRead, 64}, {OpRead, 68}, {OpRead, 72}, {OpRead, 76}, {OpRead, 64}, {OpRead, 68}}
	require.Equal(t, append(append(append([]io(nil), rep...), io{OpFlush, 0}), rep...), got)
	require.Len(t, res.IOs, 12, "the fill's writes are not recorded")
	for _, rec := range res.IOs {
		require.Equal(t, OpRead, rec.Op)
	}
	require.Len(t, res.Runs, 2)
	for _, st := range res.Runs {
		require.Equal(t, int64(6), st.Counted)
		require.Equal(t, float64(10*sim.Microsecond), st.Mean)
	}
	// The first repetition's reads start after the fill's 4 × 50 µs.
	require.Equal(t, 200*sim.Microsecond, res.Runs[0].Start)
}

func TestExecutorErrors(t *testing.T) {
	dev := &fakeDev{fixed: [3]sim.Time{sim.Microsecond, sim.Microsecond, 0}, failAt: 3}
	x := &Executor{Dev: dev}
	r := Run{Pattern: Pattern{Base: SW, IOSize: 4096, TargetSize: 1 << 20, Incr: 1}, IOCount: 4, NbRun: 1}
	eng := sim.NewEngine()
	var err error
	eng.Spawn("u", func(p *sim.Proc) { err = x.Run(p, "sw", BenchGranularity, 0, r, &Result{}) })
	eng.Run()
	require.ErrorContains(t, err, "run sw rep 0 stream 0 IO 2 (write at 8192, 4096 B): media error")
	r.IOCount = 0
	eng.Spawn("u", func(p *sim.Proc) { err = x.Run(p, "bad", BenchGranularity, 0, r, &Result{}) })
	eng.Run()
	require.ErrorContains(t, err, "io_count: 0 must be positive")
}

func BenchmarkExecutorRun(b *testing.B) {
	dev := &fakeDev{fixed: [3]sim.Time{sim.Microsecond, sim.Microsecond, 0}}
	r := Run{Pattern: Pattern{Base: RW, IOSize: 4096, TargetSize: 1 << 30}, IOCount: 1000, NbRun: 1}
	b.ReportAllocs()
	for b.Loop() {
		dev.calls = dev.calls[:0]
		x := &Executor{Dev: dev, IOSink: func(IORecord) {}}
		eng := sim.NewEngine()
		eng.Spawn("u", func(p *sim.Proc) { _ = x.Run(p, "b", BenchGranularity, 0, r, &Result{}) })
		eng.Run()
	}
}

// TestExecutorDeterministic: the same plan and seed give identical records twice; another
// seed gives other random LBAs.
func TestExecutorDeterministic(t *testing.T) {
	spec := DefaultPlanSpec()
	spec.Benches = []Bench{BenchParallelism}
	spec.Degrees = []int64{4}
	spec.IOCount = BaseCounts{SR: 8, RR: 8, SW: 8, RW: 8}
	spec.IOIgnore = BaseCounts{}
	spec.NbRun = 1
	spec.Format = FormatNone
	plan, err := NewPlan(spec, 4<<20)
	require.NoError(t, err)
	once := func(seed uint64) []IORecord {
		dev := &fakeDev{fixed: [3]sim.Time{10 * sim.Microsecond, 30 * sim.Microsecond, 0}, perKiB: sim.Microsecond}
		x := &Executor{Dev: dev, Seed: seed}
		return execute(t, x, func(p *sim.Proc, res *Result) error { return x.RunPlan(p, plan, res) }).IOs
	}
	a, b, c := once(1), once(1), once(2)
	require.Len(t, a, 4*4*8)
	require.Equal(t, a, b)
	require.NotEqual(t, a, c)
}
