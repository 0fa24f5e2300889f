package uflip

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// pt is a synthetic point: bench b, base base, varied value x, mean latency meanUS µs, and
// min/max as given (µs).
func pt(b Bench, base Base, x, meanUS, minUS, maxUS float64) Point {
	return Point{Label: b.String() + "/" + base.String(), Bench: b, Base: base, X: x, Counted: 100,
		Run: Run{Pattern: Pattern{Base: base, IOSize: 32 << 10}}, Mean: meanUS * 1e6,
		Min: sim.Time(minUS * 1e6), Max: sim.Time(maxUS * 1e6)}
}

// flat is a point whose min and max equal its mean.
func flat(b Bench, base Base, x, meanUS float64) Point { return pt(b, base, x, meanUS, meanUS, meanUS) }

const kib = 1 << 10

// TestFindingSequential: held when SW ≤ RW at every common IO size; broken when SW costs
// more at one size. Break case: at 512 KiB SW 20 ms vs RW 16 ms, ratio 1.25 (the worst), at
// 32 KiB SW 100 µs vs RW 1 ms, ratio 0.1.
func TestFindingSequential(t *testing.T) {
	hold := []Point{flat(BenchGranularity, SW, 32*kib, 100), flat(BenchGranularity, RW, 32*kib, 1000),
		flat(BenchGranularity, SW, 512*kib, 2000), flat(BenchGranularity, RW, 512*kib, 16000)}
	f := findSequential(hold)
	require.Equal(t, Held, f.Verdict)
	require.Contains(t, f.Evidence, "at 2 IO sizes, SW/RW mean is at most 0.12 (at 512KiB") // 2000/16000 = 0.125 → "0.12"
	require.Empty(t, f.Mechanism)

	brk := []Point{hold[0], hold[1], flat(BenchGranularity, SW, 512*kib, 20000), hold[3]}
	f = findSequential(brk)
	require.Equal(t, NotHeld, f.Verdict)
	require.Contains(t, f.Evidence, "at most 1.25 (at 512KiB: SW 20.00ms, RW 16.00ms)")
	require.Contains(t, f.Mechanism, "firmware/buffer")

	require.Equal(t, NotEvaluated, findSequential(hold[:1]).Verdict)
}

// TestFindingLocality: SW 100 µs at 32 KiB. Held: RW at 4 MiB 150 µs and 16 MiB 180 µs (the
// worst focused point: 1.8× SW ≤ 2), at 128 MiB 900 µs = 5× the focused 180 µs ≥ 2. Broken
// by a focused area at 3× SW (300 µs), and separately by a large area at only 1.5× (270 µs).
// Without a point above 16 MiB it is not evaluated.
func TestFindingLocality(t *testing.T) {
	sw := flat(BenchGranularity, SW, 32*kib, 100)
	loc := func(x, m float64) Point { return flat(BenchLocality, RW, x, m) }
	hold := []Point{sw, loc(1<<20, 50), loc(4<<20, 150), loc(16<<20, 180), loc(128<<20, 900)}
	f := findLocality(hold, 32*kib)
	require.Equal(t, Held, f.Verdict)
	require.Equal(t, "RW in 16MiB: 180.0us = 1.80× SW (100.0us); RW in 128MiB: 900.0us = 5.00× the focused area", f.Evidence)

	f = findLocality([]Point{sw, loc(4<<20, 300), loc(128<<20, 900)}, 32*kib)
	require.Equal(t, NotHeld, f.Verdict)
	require.Contains(t, f.Evidence, "= 3.00× SW")
	require.Contains(t, f.Mechanism, "focused random writes cost more than sequential")

	f = findLocality([]Point{sw, loc(16<<20, 180), loc(128<<20, 270)}, 32*kib)
	require.Equal(t, NotHeld, f.Verdict)
	require.Contains(t, f.Evidence, "= 1.50× the focused area")
	require.Contains(t, f.Mechanism, "page-level mapping")

	require.Equal(t, NotEvaluated, findLocality([]Point{sw, loc(16<<20, 180)}, 32*kib).Verdict)
}

// TestFindingsLogBlock: the same points give the same verdicts under a log-block FTL, with
// its mechanisms: a focused area at 3× SW is the merges' copies over the bus (the
// page-mapped text would blame buffer hits), a large area only 1.5× the focused one is the
// log-block pool; a finding that holds gets no mechanism, and alignment keeps its own.
func TestFindingsLogBlock(t *testing.T) {
	sw := flat(BenchGranularity, SW, 32*kib, 100)
	loc := func(x, m float64) Point { return flat(BenchLocality, RW, x, m) }
	// RW aligned 1 ms, shifted by 512 B 1.1 ms: 1.10× < 1.2, alignment not held.
	pts := []Point{sw, loc(4<<20, 300), loc(128<<20, 900), flat(BenchAlignment, RW, 0, 1000), flat(BenchAlignment, RW, 512, 1100)}
	near := FindingsLogBlock(pts, 32*kib)
	page := Findings(pts, 32*kib)
	for i := range near {
		require.Equal(t, page[i].Verdict, near[i].Verdict, near[i].ID)
	}
	require.Equal(t, "locality", near[1].ID)
	require.Equal(t, NotHeld, near[1].Verdict)
	require.Contains(t, near[1].Mechanism, "no copy-back")
	require.Contains(t, page[1].Mechanism, "focused random writes cost more than sequential")
	require.Equal(t, "alignment", near[2].ID)
	require.Equal(t, NotHeld, near[2].Verdict)
	require.Equal(t, page[2].Mechanism, near[2].Mechanism)

	wide := FindingsLogBlock([]Point{sw, loc(16<<20, 180), loc(128<<20, 270)}, 32*kib)
	require.Equal(t, NotHeld, wide[1].Verdict)
	require.Contains(t, wide[1].Mechanism, "pool of firmware.ftl.log_blocks")

	held := FindingsLogBlock([]Point{sw, loc(1<<20, 50), loc(4<<20, 150), loc(16<<20, 180), loc(128<<20, 900)}, 32*kib)
	require.Equal(t, Held, held[1].Verdict)
	require.Empty(t, held[1].Mechanism)
}

// TestFindingAlignment: RW aligned 1 ms, shifted by 512 B 1.3 ms (1.30× ≥ 1.2: held; the
// 32 KiB shift equals the IO size and is not an unaligned point). Broken: 1.1 ms (1.10×).
func TestFindingAlignment(t *testing.T) {
	al := func(x, m float64) Point { return flat(BenchAlignment, RW, x, m) }
	f := findAlignment([]Point{al(0, 1000), al(512, 1300), al(32*kib, 5000)})
	require.Equal(t, Held, f.Verdict)
	require.Equal(t, "RW 1.00ms → 1.30ms (1.30×, shift 512B)", f.Evidence)
	f = findAlignment([]Point{al(0, 1000), al(512, 1100), al(32*kib, 5000)})
	require.Equal(t, NotHeld, f.Verdict)
	require.Contains(t, f.Mechanism, "4 KiB mapping unit")
	require.Equal(t, NotEvaluated, findAlignment([]Point{al(0, 1000)}).Verdict)
}

// TestFindingErases: at 32 KiB, SR 50, RR 60, SW 100 µs; RW mean 1 ms (10× the slowest,
// SW) with min 100 µs and max 20 ms (200×): held. Broken when RW's max is only 300 µs
// (3× its min < 5), and when RW's mean is 150 µs (1.5× < 2).
func TestFindingErases(t *testing.T) {
	g := func(b Base, m float64) Point { return flat(BenchGranularity, b, 32*kib, m) }
	rest := []Point{g(SR, 50), g(RR, 60), g(SW, 100)}
	f := findErases(append(rest, pt(BenchGranularity, RW, 32*kib, 1000, 100, 20000)), 32*kib)
	require.Equal(t, Held, f.Verdict)
	require.Equal(t, "at 32KiB: RW mean 1.00ms = 10.0× the slowest of SR/RR/SW (SW 100.0us); RW min 100.0us, max 20.00ms (200×)", f.Evidence)
	f = findErases(append(rest, pt(BenchGranularity, RW, 32*kib, 1000, 100, 300)), 32*kib)
	require.Equal(t, NotHeld, f.Verdict)
	require.Contains(t, f.Mechanism, "buffer admission")
	require.Equal(t, NotHeld, findErases(append(rest, pt(BenchGranularity, RW, 32*kib, 150, 20, 20000)), 32*kib).Verdict)
	require.Equal(t, NotEvaluated, findErases(rest, 32*kib).Verdict)
}

// TestFindingPartitions: P=1 100 µs; P=4 120, P=8 180 µs (worst 1.8× ≤ 2); P=256 1 ms
// (10× ≥ 2): held. Broken when P=256 costs 150 µs (1.5×), and when P=8 costs 250 µs (2.5×).
func TestFindingPartitions(t *testing.T) {
	p := func(x, m float64) Point { return flat(BenchPartitioning, SW, x, m) }
	f := findPartitions([]Point{p(1, 100), p(4, 120), p(8, 180), p(256, 1000)})
	require.Equal(t, Held, f.Verdict)
	require.Equal(t, "SW P=1 100.0us; worst of P≤8 (P=8) 180.0us = 1.80×; P=256 1.00ms = 10.00×", f.Evidence)
	require.Equal(t, NotHeld, findPartitions([]Point{p(1, 100), p(8, 180), p(256, 150)}).Verdict)
	f = findPartitions([]Point{p(1, 100), p(8, 250), p(256, 1000)})
	require.Equal(t, NotHeld, f.Verdict)
	require.Contains(t, f.Mechanism, "page-level mapping")
	require.Equal(t, NotEvaluated, findPartitions([]Point{p(1, 100), p(8, 180)}).Verdict)
}

// TestFindingParallel: RW D=1 1 ms, D=8 8 ms: gain 8·1/8 = 1.00 < 1.25: held (uFLIP's
// devices). SR D=1 100 µs, D=32 400 µs: gain 32·100/400 = 8: not held.
func TestFindingParallel(t *testing.T) {
	p := func(b Base, x, m float64) Point { return flat(BenchParallelism, b, x, m) }
	f := findParallel([]Point{p(RW, 1, 1000), p(RW, 8, 8000)})
	require.Equal(t, Held, f.Verdict)
	require.Equal(t, "RW D=8: 1.00× the throughput of D=1", f.Evidence)
	f = findParallel([]Point{p(RW, 1, 1000), p(RW, 8, 8000), p(SR, 1, 100), p(SR, 32, 400)})
	require.Equal(t, NotHeld, f.Verdict)
	require.Contains(t, f.Evidence, "SR D=32: 8.00× the throughput of D=1")
	require.Contains(t, f.Mechanism, "die and channel parallelism")
	require.Equal(t, NotEvaluated, findParallel([]Point{p(RW, 1, 1000)}).Verdict)
}

// TestFindingPause: RW without pause (granularity 32 KiB) 1 ms; with pauses of 100 µs and
// 12.8 ms: 900 µs and 200 µs; 200/1000 = 0.20 ≤ 0.8: held. Broken with 900 µs at 12.8 ms
// (0.90×). Without the granularity point, the shortest pause is the reference.
func TestFindingPause(t *testing.T) {
	ref := flat(BenchGranularity, RW, 32*kib, 1000)
	pp := func(x, m float64) Point { return flat(BenchPause, RW, x, m) }
	f := findPause([]Point{ref, pp(100, 900), pp(12800, 200)}, 32*kib)
	require.Equal(t, Held, f.Verdict)
	require.Equal(t, "RW: 1.00ms with no pause, 200.0us with pause 12800us (0.20×)", f.Evidence)
	f = findPause([]Point{ref, pp(100, 900), pp(12800, 900)}, 32*kib)
	require.Equal(t, NotHeld, f.Verdict)
	require.Contains(t, f.Mechanism, "buffer eviction")
	f = findPause([]Point{pp(100, 900), pp(12800, 450)}, 32*kib)
	require.Equal(t, Held, f.Verdict)
	require.Contains(t, f.Evidence, "900.0us with pause 100us, 450.0us with pause 12800us (0.50×)")
	require.Equal(t, NotEvaluated, findPause([]Point{ref}, 32*kib).Verdict)
}

// TestPointsMergeRepetitions: two repetitions of one step, counts 2 and 2, means 100 and
// 300 ps, std-devs 0 and 100: merged mean (200 + 600)/4 = 200; pooled E[x²] =
// (2·(0 + 100²) + 2·(100² + 300²))/4 = (20000 + 200000)/4 = 55000, minus 200² = 15000:
// std-dev √15000 = 122.47; min of mins, max of maxes.
func TestPointsMergeRepetitions(t *testing.T) {
	r := Run{Pattern: Pattern{Base: SW, IOSize: 4096, TargetSize: 1 << 20, Incr: 1}, IOCount: 2, NbRun: 2}
	plan := &Plan{Steps: []Step{{Kind: StepRun, Bench: BenchGranularity, Label: "g", Run: r}, {Kind: StepRun, Label: "never"}}}
	pts := Points(plan, []RunStats{
		{Label: "g", Counted: 2, Mean: 100, Min: 100, Max: 100},
		{Label: "g", Rep: 1, Counted: 2, Mean: 300, StdDev: 100, Min: 200, Max: 400},
	})
	require.Len(t, pts, 1)
	p := pts[0]
	require.Equal(t, 4096.0, p.X)
	require.Equal(t, 2, p.Reps)
	require.Equal(t, int64(4), p.Counted)
	require.Equal(t, 200.0, p.Mean)
	require.InDelta(t, 122.474, p.StdDev, 1e-3)
	require.Equal(t, sim.Time(100), p.Min)
	require.Equal(t, sim.Time(400), p.Max)
}

// TestCalibrate: device A's SW points 100 and 300 µs, B's 50 and 100 µs: ratio of means
// 200/75 = 2.667; A's RW point 1 ms, B's 2 ms: 0.5; "all": (100+300+1000)/3 over
// (50+100+2000)/3 = 1400/2150 = 0.6512. A point only A ran is left out.
func TestCalibrate(t *testing.T) {
	mk := func(label string, base Base, m float64) Point {
		return Point{Label: label, Bench: BenchGranularity, Base: base, Counted: 1, Mean: m * 1e6}
	}
	a := []Point{mk("sw1", SW, 100), mk("sw2", SW, 300), mk("rw", RW, 1000), mk("only-a", RW, 5)}
	b := []Point{mk("sw1", SW, 50), mk("sw2", SW, 100), mk("rw", RW, 2000)}
	rs := Calibrate(a, b)
	require.Len(t, rs, 3)
	require.Equal(t, "SW", rs[0].Base)
	require.Equal(t, 2, rs[0].Points)
	require.InDelta(t, 2.6667, rs[0].Ratio, 1e-4)
	require.Equal(t, "RW", rs[1].Base)
	require.InDelta(t, 0.5, rs[1].Ratio, 1e-9)
	require.Equal(t, "all", rs[2].Base)
	require.Equal(t, 3, rs[2].Points)
	require.InDelta(t, 0.65116, rs[2].Ratio, 1e-5)
}
