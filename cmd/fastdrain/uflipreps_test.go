package main

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestUflipRepetitionsNeverRewrite (issue 36): the three repetitions of a sequential-write
// point each write a target space of their own, so none of their pages lands on a page
// still in the write buffer. tiny's buffer holds 256 pages (1 MiB); the point writes 16 IOs
// of 32 KiB = 128 pages a repetition, so a repetition that rewrote the previous one's LBAs
// would find all 128 still buffered. The firmware's count of page writes that hit a
// buffered page (buffer.Stats.Overwrites) must not grow during the point. The control runs
// the same point with every repetition on the first one's target (Executor.Run, what the
// plan did before): repetitions 2 and 3 overwrite 2 × 128 = 256 buffered pages.
func TestUflipRepetitionsNeverRewrite(t *testing.T) {
	spec := uflip.DefaultPlanSpec()
	spec.Benches = []uflip.Bench{uflip.BenchGranularity}
	spec.IOSizes = []int64{32 << 10}
	spec.IOCount = uflip.BaseCounts{SR: 4, RR: 4, SW: 16, RW: 4}
	spec.IOIgnore = uflip.BaseCounts{}
	spec.Format = uflip.FormatNone
	for _, control := range []bool{false, true} {
		cf := &cliflags.Config{Preset: "tiny", Sets: []string{"nvme.lba_size=512"}}
		m, err := openMachine(cf)
		dev := m.Dev
		require.NoError(t, err)
		plan, err := uflip.NewPlan(spec, 16<<20)
		require.NoError(t, err)
		var sw uflip.Step
		for _, st := range plan.Steps {
			if st.Kind == uflip.StepRun && st.Run.Base == uflip.SW {
				sw = st
			}
		}
		require.Len(t, sw.Reps, 3)
		x := &uflip.Executor{Dev: dev, Seed: 1, RunPause: spec.RunPause}
		var res uflip.Result
		var before, after int64
		var runErr error
		m.Eng.Spawn("uflip", func(p *sim.Proc) {
			defer m.Eng.Stop()
			before = m.SSD.FW.Buffer().Stats.Overwrites
			if control {
				runErr = x.Run(p, sw.Label, sw.Bench, sw.Point, sw.Run, &res)
			} else {
				runErr = x.Step(p, plan.Capacity, sw, &res)
			}
			after = m.SSD.FW.Buffer().Stats.Overwrites
		})
		m.Eng.Run()
		m.Eng.Close()
		require.NoError(t, runErr)
		require.Len(t, res.Runs, 3)
		if control {
			require.Equal(t, int64(2*128), after-before, "shared target: repetitions 2 and 3 rewrite buffered pages")
		} else {
			require.Zero(t, after-before, "each repetition on its own space: no buffered page is rewritten")
			lbas := map[int64]int{}
			for _, io := range res.IOs {
				if prev, ok := lbas[io.LBA]; ok {
					require.Equal(t, io.Rep, prev, "LBA %d written by repetitions %d and %d", io.LBA, prev, io.Rep)
				}
				lbas[io.LBA] = io.Rep
			}
		}
	}
}
