package bench

import (
	"runtime"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// BenchmarkSweep runs a sweep of four independent co-located runs (the full FastDrain
// variant on fastdrain-tlc, db-s + ungzip for five simulated seconds each) with runner.RunAll
// on one and on two workers, reporting runs per wall-second ("runs/s"). Target: two workers
// ≥ 1.8× one worker (runs share nothing but the Go heap). Each case runs with GOMAXPROCS set
// to its number of workers (and restored after), so that it measures W workers on W cores:
// a build's precondition, and the garbage collector, otherwise use every core even with one
// worker. The two-worker case reports its rate over the one-worker case's ("x-1-worker")
// and that over 1.8 ("x-target", ≥ 1: met) when both ran in the same invocation.
func BenchmarkSweep(b *testing.B) {
	c, err := platforms.Load(platforms.Options{Preset: "fastdrain-tlc", Variant: "fd"})
	if err != nil {
		b.Fatal(err)
	}
	sc, err := apps.LookupScenario("db-s+ungzip")
	if err != nil {
		b.Fatal(err)
	}
	sc.Duration = 5 * sim.Second
	opts := make([]runner.Options, 4)
	for i := range opts {
		s := sc
		s.Seed = uint64(i + 1)
		opts[i] = runner.Options{Label: "fd", Config: c, Workload: runner.Workload{Scenario: s, Apps: apps.DefaultSpec()}}
	}
	one := 0.0 // the one-worker rate, once it has run
	for _, workers := range []int{1, 2} {
		b.Run(map[int]string{1: "workers=1", 2: "workers=2"}[workers], func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(workers))
			runs := 0
			for b.Loop() {
				_, errs := runner.RunAll(opts, workers, nil)
				for _, err := range errs {
					if err != nil {
						b.Fatal(err)
					}
				}
				runs += len(opts)
			}
			rate := float64(runs) / b.Elapsed().Seconds()
			b.ReportMetric(rate, "runs/s")
			if workers == 1 {
				one = rate
			} else if one > 0 {
				b.ReportMetric(rate/one, "x-1-worker")
				b.ReportMetric(rate/one/sweepTarget, "x-target")
			}
		})
	}
}
