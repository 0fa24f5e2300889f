package uflip

import (
	"fmt"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestPlanCounts: on 1 GiB every point of the default sweeps fits, so each micro-benchmark
// has (#bases × #values) points: 11 IO sizes, 8 shifts (0, 0.5 … 32 KiB), 13 localities
// (1 … 4096 IOSizes = 128 MiB), 9 partition counts, 9 increments, 6 degrees, 6 pairs × 7
// ratios, 8 pauses, 8 bursts.
func TestPlanCounts(t *testing.T) {
	plan, err := NewPlan(DefaultPlanSpec(), 1<<30)
	require.NoError(t, err)
	want := map[Bench]int{BenchGranularity: 4 * 11, BenchAlignment: 4 * 8, BenchLocality: 4 * 13,
		BenchPartitioning: 2 * 9, BenchOrder: 2 * 9, BenchParallelism: 4 * 6, BenchMix: 6 * 7,
		BenchPause: 4 * 8, BenchBursts: 4 * 8}
	total := 0
	for b, n := range want {
		require.Len(t, plan.Runs(b), n, b.String())
		total += n
	}
	formats := 0
	for _, s := range plan.Steps {
		if s.Kind == StepFormat {
			formats++
			require.Equal(t, FormatRandom, s.Format)
		}
	}
	require.Equal(t, total+formats, len(plan.Steps))
	require.Equal(t, StepFormat, plan.Steps[0].Kind, "device state is enforced first")
	require.Greater(t, formats, 1, "1 GiB cannot hold every sequential-write area; resets are inserted")

	// On 8 MiB the localities above 8 MiB (512 … 4096 IOSizes) are left out: 9 remain.
	small, err := NewPlan(DefaultPlanSpec(), 8<<20)
	require.NoError(t, err)
	require.Len(t, small.Runs(BenchLocality), 4*9)
	require.Len(t, small.Runs(BenchGranularity), 4*11)
}

// TestPlanParameters checks the defaults (docs/sources.md §12) and the varied values of each benchmark.
func TestPlanParameters(t *testing.T) {
	plan, err := NewPlan(DefaultPlanSpec(), 1<<30)
	require.NoError(t, err)
	counts := map[Base]int64{SR: 128, RR: 256, SW: 1024, RW: 5116}
	for _, s := range plan.Steps {
		if s.Kind != StepRun {
			continue
		}
		r := s.Run
		require.Equal(t, int64(3), r.NbRun, s.Label)
		require.NoError(t, r.Validate(), s.Label)
		require.LessOrEqual(t, r.End(), plan.Capacity, s.Label)
		require.Zero(t, r.TargetOffset%(128<<10), "%s: target offset aligned to 128 KiB", s.Label)
		if s.Bench != BenchMix {
			require.Equal(t, counts[r.Base], r.IOCount, s.Label)
			wantIgnore := int64(0)
			if r.Base == RW {
				wantIgnore = 50
			}
			require.Equal(t, wantIgnore, r.IOIgnore, s.Label)
		}
		if s.Bench != BenchGranularity {
			require.Equal(t, int64(32<<10), r.IOSize, s.Label)
		}
	}
	values := func(b Bench, base Base, f func(Run) int64) []int64 {
		var v []int64
		for _, s := range plan.Runs(b) {
			if s.Run.Base == base {
				v = append(v, f(s.Run))
			}
		}
		return v
	}
	K := int64(1024)
	require.Equal(t, []int64{512, K, 2 * K, 4 * K, 8 * K, 16 * K, 32 * K, 64 * K, 128 * K, 256 * K, 512 * K},
		values(BenchGranularity, RW, func(r Run) int64 { return r.IOSize }))
	require.Equal(t, []int64{0, 512, K, 2 * K, 4 * K, 8 * K, 16 * K, 32 * K},
		values(BenchAlignment, SR, func(r Run) int64 { return r.IOShift }))
	require.Equal(t, []int64{32 * K, 64 * K, 128 * K, 256 * K, 512 * K, K * K, 2 * K * K, 4 * K * K,
		8 * K * K, 16 * K * K, 32 * K * K, 64 * K * K, 128 * K * K},
		values(BenchLocality, RW, func(r Run) int64 { return r.TargetSize }))
	require.Equal(t, []int64{1, 2, 4, 8, 16, 32, 64, 128, 256},
		values(BenchPartitioning, SW, func(r Run) int64 { return r.Partitions }))
	require.Equal(t, []int64{-1, 0, 1, 2, 4, 8, 16, 32, 64},
		values(BenchOrder, SR, func(r Run) int64 { return r.Incr }))
	require.Equal(t, []int64{1, 2, 4, 8, 16, 32},
		values(BenchParallelism, RR, func(r Run) int64 { return r.ParallelDegree }))
	require.Equal(t, []int64{100e6, 200e6, 400e6, 800e6, 1600e6, 3200e6, 6400e6, 12800e6},
		values(BenchPause, SW, func(r Run) int64 { return int64(r.Pause) }), "0.1 … 12.8 ms in ps")
	require.Equal(t, []int64{1, 2, 4, 8, 16, 32, 64, 128},
		values(BenchBursts, RR, func(r Run) int64 { return r.Burst }))
	for _, s := range plan.Runs(BenchBursts) {
		require.Equal(t, 10*sim.Millisecond, s.Run.Pause)
	}
	// Partitioned targets hold the run's IOs: SW 1024 × 32 KiB = 32 MiB for every P; SR
	// 128 × 32 KiB = 4 MiB, except P = 256, where one 32 KiB slot per partition needs 8 MiB.
	for _, s := range plan.Runs(BenchPartitioning) {
		want := 32 * K * K
		if s.Run.Base == SR {
			want = 4 * K * K
			if s.Run.Partitions == 256 {
				want = 8 * K * K
			}
		}
		require.Equal(t, want, s.Run.TargetSize, s.Label)
	}
	// Mix: six pairs, ratios 1 … 64; IOCount is the larger base count; each pattern its own
	// target (random reads and writes the whole device, SR and SW an area of their own).
	mixes := plan.Runs(BenchMix)
	seen := map[string]bool{}
	for _, s := range mixes {
		r := s.Run
		require.NotNil(t, r.Second)
		pair := r.Base.String() + "/" + r.Second.Base.String()
		seen[pair] = true
		require.Equal(t, max(counts[r.Base], counts[r.Second.Base]), r.IOCount, s.Label)
		if r.Base == RW || r.Second.Base == RW {
			require.Equal(t, int64(50), r.IOIgnore, s.Label)
		}
		for _, p := range r.patterns() {
			if p.Base.Random() {
				require.Equal(t, int64(0), p.TargetOffset)
				require.Equal(t, plan.Capacity, p.TargetSize, s.Label)
			} else {
				require.Equal(t, r.IOCount*32*K, p.TargetSize, s.Label)
			}
		}
	}
	require.Len(t, seen, 6)
	require.Equal(t, []int64{1, 2, 4, 8, 16, 32, 64}, func() []int64 {
		var v []int64
		for _, s := range mixes[:7] {
			v = append(v, s.Run.Ratio)
		}
		return v
	}())
}

// group classifies a step by docs/sources.md §12's ordering, written independently of the planner:
// reads; random writes; sequential writes; mixes; partitioning/parallelism; order.
func group(s Step) int {
	r := s.Run
	write := r.Base.Op() == OpWrite || (r.Second != nil && r.Second.Base.Op() == OpWrite)
	switch {
	case r.Fill:
		return 1
	case !write:
		return 0
	case s.Bench == BenchMix:
		return 4
	case s.Bench == BenchPartitioning || s.Bench == BenchParallelism:
		return 5
	case s.Bench == BenchOrder:
		return 6
	case r.Base == RW:
		return 2
	}
	return 3
}

// TestPlanOrderAndFreshAreas: groups never go backwards; between two formats (a format
// step, or one the plan puts before a repetition) no two sequential-write targets overlap,
// counting every repetition's; and each repetition of any other point whose target is
// smaller than the device runs on a space of its own, which no other repetition of that
// point touches.
func TestPlanOrderAndFreshAreas(t *testing.T) {
	for _, nb := range []int64{1, 3} {
		spec := DefaultPlanSpec()
		spec.NbRun = nb
		spec.Benches = append(spec.Benches, BenchReadback)
		plan, err := NewPlan(spec, 1<<30)
		require.NoError(t, err)
		last, inStep := 0, 0
		type span struct{ lo, hi int64 }
		overlap := func(a, b span) bool { return a.lo < b.hi && b.lo < a.hi }
		var fresh []span
		for _, s := range plan.Steps {
			if s.Kind == StepFormat {
				fresh = nil
				continue
			}
			g := group(s)
			require.GreaterOrEqual(t, g, last, s.Label)
			last = g
			require.Len(t, s.Reps, int(nb), s.Label)
			var own [2][]span // this point's repetitions, per pattern
			for rep := range s.Reps {
				if s.Reps[rep].Format {
					require.Positive(t, rep, "%s: a format before repetition 0 is a step", s.Label)
					fresh = nil
					inStep++
				}
				r := s.RepRun(rep)
				require.NoError(t, r.Validate(), s.Label)
				require.LessOrEqual(t, r.End(), plan.Capacity, s.Label)
				for i, p := range r.patterns() {
					require.Zero(t, p.TargetOffset%spec.Align, "%s rep %d", s.Label, rep)
					a := span{p.TargetOffset, p.TargetOffset + p.TargetSize + p.IOShift}
					if p.Base != SW && p.TargetSize+p.IOShift < plan.Capacity-spec.Align {
						for _, o := range own[i] {
							require.False(t, overlap(a, o), "%s rep %d: %v overlaps an earlier repetition's %v", s.Label, rep, a, o)
						}
						own[i] = append(own[i], a)
					}
					if p.Base != SW {
						continue
					}
					for _, o := range fresh {
						require.False(t, overlap(a, o), "%s rep %d: %v overlaps %v", s.Label, rep, a, o)
					}
					fresh = append(fresh, a)
				}
			}
		}
		require.Equal(t, 6, last)
		if nb == 3 {
			require.Positive(t, inStep, "1 GiB runs out of fresh space inside some point's repetitions")
		}
	}
}

// TestPlanReadback: the read-back points (not a uFLIP benchmark) are SR runs at each IO
// size over a target of readback_bytes (at least one IO: 256 KiB holds 64 IOs of 4 KiB,
// 8 of 32 KiB; a 512 KiB IO is its own target), each filled before it runs, counted as SR
// runs are, and planned after every read-only run and before the writes, wherever the
// spec lists them.
func TestPlanReadback(t *testing.T) {
	spec := DefaultPlanSpec()
	spec.Benches = []Bench{BenchReadback, BenchGranularity}
	spec.IOSizes = []int64{4096, 32 << 10, 512 << 10}
	spec.NbRun = 1
	plan, err := NewPlan(spec, 1<<30)
	require.NoError(t, err)
	var labels []string
	for _, s := range plan.Steps[1:] {
		labels = append(labels, s.Label)
		if s.Bench != BenchReadback {
			require.False(t, s.Run.Fill, s.Label)
			continue
		}
		r := s.Run
		require.True(t, r.Fill, s.Label)
		require.Equal(t, SR, r.Base, s.Label)
		require.Equal(t, spec.IOCount.SR, r.IOCount, s.Label)
		require.Equal(t, max(256<<10, r.IOSize), r.TargetSize, s.Label)
		require.Equal(t, float64(r.IOSize), xOf(s.Bench, r))
	}
	require.Equal(t, []string{"granularity/SR/io_size=4096", "granularity/SR/io_size=32768", "granularity/SR/io_size=524288",
		"granularity/RR/io_size=4096", "granularity/RR/io_size=32768", "granularity/RR/io_size=524288",
		"readback/SR/io_size=4096", "readback/SR/io_size=32768", "readback/SR/io_size=524288"}, labels[:9])
	s := DefaultPlanSpec()
	s.ReadbackBytes = 100
	require.ErrorContains(t, s.Validate(), "uflip.readback_bytes: 100 is not a positive multiple of 512")
}

func TestPlanSpecValidate(t *testing.T) {
	require.NoError(t, DefaultPlanSpec().Validate())
	s := DefaultPlanSpec()
	s.IOSize = 1000
	s.IOCount.RW = 0
	s.IOIgnore.SR = 200
	s.NbRun = 0
	s.Partitions = []int64{512}
	s.Degrees = []int64{0}
	s.IOShifts = []int64{64 << 10}
	s.Benches = []Bench{BenchNone}
	err := s.Validate()
	require.Error(t, err)
	for _, f := range []string{"uflip.io_size:", "uflip.io_count.rw:", "uflip.io_ignore.sr:", "uflip.nb_run:",
		"uflip.partitions[0]: 512 exceeds 256", "uflip.degrees[0]: 0 must be positive", "uflip.io_shifts[0]:",
		"uflip.benches[0]:"} {
		require.Contains(t, err.Error(), f)
	}
	_, err = NewPlan(DefaultPlanSpec(), 64<<10)
	require.ErrorContains(t, err, "below one alignment unit")
}

func ExampleGen() {
	// Four partitions of a 32 KiB target at 64 KiB, 4 KiB IOs: round robin over the
	// partitions (LBAs in sectors).
	g := NewGen(Pattern{Base: SW, IOSize: 4096, TargetOffset: 64 << 10, TargetSize: 32 << 10,
		Partitions: 4, Incr: 1}, nil)
	for range 8 {
		fmt.Print(g.Next().LBA, " ")
	}
	fmt.Println()
	// Output: 128 144 160 176 136 152 168 184
}

// TestSettleText: the settle names round-trip, and anything else is refused with the names.
func TestSettleText(t *testing.T) {
	for _, s := range []Settle{SettlePause, SettleFlush} {
		b, err := s.MarshalText()
		require.NoError(t, err)
		var back Settle
		require.NoError(t, back.UnmarshalText(b))
		require.Equal(t, s, back)
	}
	var s Settle
	require.EqualError(t, s.UnmarshalText([]byte("sync")), `settle "sync" is not one of pause, flush`)
	require.Equal(t, "settle(7)", Settle(7).String())
	spec := DefaultPlanSpec()
	spec.Settle = 7
	require.ErrorContains(t, spec.Validate(), "uflip.settle: 7 is not one of pause, flush")
}
