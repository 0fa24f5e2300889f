package uflip

import (
	"math"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

const us = sim.Microsecond

// series returns startup IOs of 100 µs followed by running IOs cycling through period.
func series(startup, running int, period []sim.Time) []sim.Time {
	var s []sim.Time
	for range startup {
		s = append(s, 100*us)
	}
	for i := range running {
		s = append(s, period[i%len(period)])
	}
	return s
}

// erase5 is a running phase of period 5: four 1 ms writes, then one 11 ms write (an
// erase); its mean is (4 + 11) / 5 = 3 ms.
var erase5 = []sim.Time{sim.Millisecond, sim.Millisecond, sim.Millisecond, sim.Millisecond, 11 * sim.Millisecond}

// TestMSER5FindsTheStartUp: 125 start-up IOs of 100 µs (the Mtron's ≈125, seed), then 875
// IOs of period 5. k = 1000/5 = 200 batches; batches 0…24 are all start-up (mean 100 µs),
// every later batch holds exactly one period (mean 3 ms). MSER(d) = 0 for every d ≥ 25 and
// > 0 for d < 25 (a 100 µs batch is left among 3 ms ones), d ≤ k/2 = 100, so the smallest
// minimiser is d = 25 batches: IOIgnore 125.
func TestMSER5FindsTheStartUp(t *testing.T) {
	require.Equal(t, int64(125), MSER5(series(125, 875, erase5)))
}

// TestMSER5RoundsUpToABatch: a start-up of 123. Batches 0…23 are start-up, batch 24 (IOs
// 120…124) holds 3 start-up and 2 running IOs, so its mean differs; batches 25… (IOs 125…)
// each hold phases 2, 3, 4, 0, 1 of the period: one period, mean 3 ms. The smallest d with
// MSER 0 is 25: IOIgnore 125, the start-up rounded up to whole batches.
func TestMSER5RoundsUpToABatch(t *testing.T) {
	require.Equal(t, int64(125), MSER5(series(123, 877, erase5)))
}

// TestMSER5NoStartUp: a stationary periodic series gives MSER 0 at d = 0 already.
// A ramp (non-stationary) gives MSER(d) = δ²(N² − 1)/(12N) for N = k − d batch means spaced
// δ, increasing in N, so d = k/2: 1000 IOs → 200 batches → IOIgnore 100·5 = 500.
// Fewer than two batches: 0.
func TestMSER5NoStartUp(t *testing.T) {
	require.Equal(t, int64(0), MSER5(series(0, 1000, erase5)))
	var ramp []sim.Time
	for i := 1; i <= 1000; i++ {
		ramp = append(ramp, sim.Time(i)*us)
	}
	require.Equal(t, int64(500), MSER5(ramp))
	require.Equal(t, int64(0), MSER5(ramp[:9]))
}

// TestBatchMeansPeriod8: a running phase of period 8, seven 1 ms IOs then one 9 ms IO
// (mean 2 ms; the expensive IO is at index ≡ 7 mod 8).
//
// 800 IOs: batches of m = 80 = 10 periods all have mean 2 ms: half-width 0.
//
// 100 IOs: batches of m = 10 (IOs 10j…10j+9) hold the 9 ms IOs at 7, 15, 23, 31, 39, 47, 55,
// 63, 71, 79, 87, 95: counts 1,1,1,2,1,1,1,2,1,1, so batch means are 1 + 0.8c ms: eight of
// 1.8 ms and two of 2.6 ms. Grand mean 1.96 ms; squared deviations 8·0.16² + 2·0.64² =
// 1.024 ms²; s = √(1.024/9) = 0.337310 ms; h = 2.262157·s/√10 = 0.241297 ms; precision
// h/mean = 0.123111.
//
// 105 IOs: the first 5 are left out, IOs 5…104 form batches of 10 (not a whole period).
// Fewer than 10 IOs: not computable.
func TestBatchMeansPeriod8(t *testing.T) {
	p8 := []sim.Time{sim.Millisecond, sim.Millisecond, sim.Millisecond, sim.Millisecond,
		sim.Millisecond, sim.Millisecond, sim.Millisecond, 9 * sim.Millisecond}
	mean, half, ok := BatchMeans(series(0, 800, p8))
	require.True(t, ok)
	require.InDelta(t, 2e9, mean, 1e-3)
	require.Zero(t, half)

	s := series(0, 100, p8)
	mean, half, ok = BatchMeans(s)
	require.True(t, ok)
	require.InDelta(t, 1.96e9, mean, 1)
	require.InDelta(t, 0.241297e9, half, 1e3)

	mean5, _, _ := BatchMeans(append([]sim.Time{1, 1, 1, 1, 1}, s...))
	require.InDelta(t, 1.96e9, mean5, 1, "the 5 leading values are left out")

	_, _, ok = BatchMeans(s[:9])
	require.False(t, ok)
	_, prec := Precision(s[:9])
	require.True(t, math.IsInf(prec, 1))
}

// autoRun runs one repetition of an RW run with the automatic rule on a fakeDev whose
// latencies are lats, and returns the run's statistics and records.
func autoRun(t *testing.T, lats []sim.Time, cap int64, c Converge) (RunStats, []IORecord) {
	t.Helper()
	dev := &fakeDev{cycle: lats}
	x := &Executor{Dev: dev, Auto: c}
	r := Run{Pattern: Pattern{Base: RW, IOSize: 4096, TargetSize: 64 << 20, Incr: 1}, IOCount: cap, NbRun: 1}
	res := execute(t, x, func(p *sim.Proc, res *Result) error { return x.Run(p, "rw", BenchGranularity, 0, r, res) })
	require.Len(t, res.Runs, 1)
	return res.Runs[0], res.IOs
}

// TestAutoStopsOnceTheRunningPhaseConverges: 125 start-up IOs of 100 µs, then a constant
// 1 ms; Min 128, RelErr 5 %, cap 5116.
//
//   - n = 128: k = 25 batches, all start-up, so MSER is 0 at d = 0: IOIgnore 0. Batches of
//     m = 12 over IOs 8…127: nine of 100 µs and one (116…127: 9 × 0.1 + 3 × 1 ms) of
//     0.325 ms; mean 0.1225 ms, s = 0.0225 ms, h = 2.262·0.0225/√10 = 0.0161 ms:
//     precision 13.1 % > 5 %.
//   - n = 192: k = 38, d ≤ 19 < 25, so no truncation reaches the running phase; with a
//     start-up and b = 13 running batches MSER = a·b·Δ²/(a+b)³, smallest at a = 25 (d = 0).
//     Batches of 19 over IOs 2…191: six of 0.1 ms, one of (9·0.1 + 10)/19 = 0.5737 ms,
//     three of 1 ms: precision ≈ 73 %.
//   - n = 192 + 96 = 288: k = 57, d ≤ 28; MSER(25) = 0: IOIgnore 125; the 163 running IOs
//     are all 1 ms: precision 0. Stop: IOIgnore 125, IOCount 288, mean 1 ms.
func TestAutoStopsOnceTheRunningPhaseConverges(t *testing.T) {
	st, recs := autoRun(t, series(125, 10000, []sim.Time{sim.Millisecond}), 5116, Converge{RelErr: 0.05, Min: 128})
	require.Equal(t, &Outcome{IOIgnore: 125, IOCount: 288, Precision: 0, Converged: true}, st.Auto)
	require.Equal(t, int64(288), st.IOs)
	require.Equal(t, int64(163), st.Counted)
	require.Equal(t, 1e9, st.Mean)
	require.Len(t, recs, 288)
	require.True(t, recs[124].Ignored)
	require.False(t, recs[125].Ignored)
}

// TestAutoStopsAtTheCap: a ramp of 1, 2, 3 … µs never converges. Checks at 128 and 192
// (precision ≈ 13 %), then the cap of 200 IOs. Over all 200: k = 40, MSER picks d = k/2 = 20
// (see TestMSER5NoStartUp): IOIgnore 100; the 100 running IOs of 101…200 µs form batch means
// 105.5 + 10j µs, s = 10·√(110/12) = 30.2765 µs, h = 2.262157·30.2765/√10 = 21.6588 µs,
// mean 150.5 µs: precision 0.143912, not converged.
func TestAutoStopsAtTheCap(t *testing.T) {
	var ramp []sim.Time
	for i := 1; i <= 400; i++ {
		ramp = append(ramp, sim.Time(i)*us)
	}
	st, _ := autoRun(t, ramp, 200, Converge{RelErr: 0.05, Min: 128})
	require.Equal(t, int64(100), st.Auto.IOIgnore)
	require.Equal(t, int64(200), st.Auto.IOCount)
	require.InDelta(t, 0.143912, st.Auto.Precision, 1e-5)
	require.False(t, st.Auto.Converged)
	require.Equal(t, 150.5e6, st.Mean)
}

// TestAutoBufferedBacklog: a run that starts behind a buffered backlog — 250 writes of
// 4 KiB at 2 ms (each waits for one of the previous run's buffered pages to be evicted),
// then its own running phase alternating 100 and 500 µs (mean 300 µs). Min 128, RelErr 5 %.
//
// Without a minimum run length the first check, at 128 IOs, sees only the plateau: 25 equal
// batches (MSER 0 at d = 0) and 10 equal batch means (half-width 0): the rule stops there
// and reports the backlog's 2 ms as the run's mean, 6.7 × too high.
//
// With MinBytes = 2 × the backlog (2 × 250 × 4 KiB = 2,048,000 B, 500 IOs) the checks at
// 128, 192, 288 and 432 IOs are skipped and the first is at 648. MSER-5: k = 129 batches;
// batches 0…49 are the plateau, later ones alternate 260 and 340 µs (5 IOs starting at an
// even or an odd index). d = 50 leaves 40 of 260 and 39 of 340: Σ(Z − Z̄)²/79² = 20.25;
// d = 51: 124,800/78² = 20.51; d = 52: 20.78; d ≤ 49 keeps a 2 ms batch: IOIgnore 250.
// Batch means over IOs 258…647 (398 − 8), m = 39: batches starting at an even index hold 20
// of 100 and 19 of 500 µs (294.872 µs), the others 305.128 µs, five of each: mean 300 µs,
// s = 5.1282·√(10/9) = 5.4056 µs, h = 2.262157·s/√10 = 3.8670 µs, precision 0.012890 ≤ 5 %:
// stop at 648 with the 398 counted IOs' mean, exactly 300 µs.
func TestAutoBufferedBacklog(t *testing.T) {
	lats := series(0, 250, []sim.Time{2 * sim.Millisecond})
	lats = append(lats, series(0, 10000, []sim.Time{100 * us, 500 * us})...)
	st, _ := autoRun(t, lats, 5116, Converge{RelErr: 0.05, Min: 128})
	require.Equal(t, &Outcome{IOIgnore: 0, IOCount: 128, Precision: 0, Converged: true}, st.Auto)
	require.Equal(t, 2e9, st.Mean, "the plateau taken for the running phase")

	st, recs := autoRun(t, lats, 5116, Converge{RelErr: 0.05, Min: 128, MinBytes: 2 * 250 * 4096})
	require.Equal(t, int64(250), st.Auto.IOIgnore)
	require.Equal(t, int64(648), st.Auto.IOCount)
	require.InDelta(t, 0.012890, st.Auto.Precision, 1e-5)
	require.True(t, st.Auto.Converged)
	require.Equal(t, int64(398), st.Counted)
	require.Equal(t, 300e6, st.Mean)
	require.True(t, recs[249].Ignored)
	require.False(t, recs[250].Ignored)
}

// TestAutoTruncationAtTheBound: 130 IOs of 200 µs (buffered), 14 of 200 ms (IOs 130–143:
// merges a repetition pays for the log blocks an earlier one left), then 400 µs. 4 KiB IOs;
// MinBytes 1 MiB (256 IOs) skips the checks at 128 and 192.
//
//   - n = 288: k = 57 batches, bound ⌊57/2⌋ = 28 batches (140 IOs). Every d ≤ 27 keeps a
//     200 ms batch among 400 µs ones; d = 28 keeps one (IOs 140–144: four merges); MSER is
//     smallest at the bound: IOIgnore 140. The batch means over L = 148 leave out the first
//     8 (IOs 140–147, the merges among them): ten batches of 400 µs, half-width 0. Counted
//     there, the mean would be (4 × 200 ms + 144 × 400 µs) / 148 = 5.795 ms, 14.5 × the
//     running phase's: the truncation at the bound does not count, and the run goes on.
//   - n = 432: k = 86, bound 43. Batch 28 (IOs 140–144) is 4 × 200 ms + 400 µs; from batch
//     29 on every batch is 400 µs: MSER(29) = 0, the smallest zero: IOIgnore 145, 287
//     counted IOs of exactly 400 µs, precision 0. Stop.
func TestAutoTruncationAtTheBound(t *testing.T) {
	lats := series(0, 130, []sim.Time{200 * us})
	lats = append(lats, series(0, 14, []sim.Time{200 * sim.Millisecond})...)
	lats = append(lats, series(0, 10000, []sim.Time{400 * us})...)
	st, _ := autoRun(t, lats, 5116, Converge{RelErr: 0.05, Min: 128, MinBytes: 1 << 20})
	require.Equal(t, &Outcome{IOIgnore: 145, IOCount: 432, Precision: 0, Converged: true}, st.Auto)
	require.Equal(t, int64(287), st.Counted)
	require.Equal(t, 400e6, st.Mean)
	require.True(t, atBound(140, 288))
	require.False(t, atBound(145, 432))
}

func TestConvergeValidate(t *testing.T) {
	require.NoError(t, DefaultConverge().Validate())
	require.NoError(t, Converge{RelErr: 0.05, Min: 100}.Validate())
	err := Converge{RelErr: 1.5, Min: 10}.Validate()
	require.ErrorContains(t, err, "rel_err: 1.5 is not in [0, 1)")
	require.ErrorContains(t, err, "min: 10 is below 100")
	require.ErrorContains(t, Converge{MinBytes: -1}.Validate(), "min_bytes: -1 is negative")
	s := DefaultPlanSpec()
	s.Auto.RelErr = -1
	require.ErrorContains(t, s.Validate(), "uflip.auto.rel_err")
}

// TestAutoParallelStreams: two streams of a constant 1 ms device. Each stream's first check
// at 128 IOs sees 25 equal batches (MSER 0 at d = 0: IOIgnore 0) and 10 equal batch means
// (precision 0): both stop at 128. The run reports IOIgnore 0, IOCount 128 per stream, 256
// IOs and 256 counted, each stream's records together.
func TestAutoParallelStreams(t *testing.T) {
	dev := &fakeDev{cycle: []sim.Time{sim.Millisecond}}
	x := &Executor{Dev: dev, Auto: Converge{RelErr: 0.01, Min: 128}}
	r := Run{Pattern: Pattern{Base: RR, IOSize: 4096, TargetSize: 64 << 20, Incr: 1}, IOCount: 1000,
		ParallelDegree: 2, NbRun: 1}
	res := execute(t, x, func(p *sim.Proc, res *Result) error { return x.Run(p, "rr", BenchParallelism, 0, r, res) })
	require.Len(t, res.Runs, 1)
	st := res.Runs[0]
	require.Equal(t, &Outcome{IOIgnore: 0, IOCount: 128, Precision: 0, Converged: true}, st.Auto)
	require.Equal(t, int64(256), st.IOs)
	require.Equal(t, int64(256), st.Counted)
	require.Len(t, res.IOs, 256)
	require.Equal(t, 2, dev.max, "the two streams overlap")
}
