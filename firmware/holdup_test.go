package firmware

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// holdupRun runs a write burst on the small rig (8 processes of random 1–8-page writes,
// no flushes, over the first half of the logical span) for 40 ms with the policy and
// allocator given, with power-loss protection and hold-up h (0: unbounded), sampling the
// dirty pages every 10 µs, then cuts the power and runs until the firmware stops. It
// returns the report and the peak of dirty plus evicting pages (the data a cut would have
// to drain) seen before the cut.
func holdupRun(t testing.TB, policy Policy, alloc string, h sim.Time) (PowerLossReport, int) {
	return holdupRunAt(t, policy, alloc, h, false, 40*sim.Millisecond)
}

// holdupRunAt is holdupRun with the cut at the time given; with bursty, each process
// writes for 1 ms of every 40 (a write starts in the first millisecond).
func holdupRunAt(t testing.TB, policy Policy, alloc string, h sim.Time, bursty bool, at sim.Time) (PowerLossReport, int) {
	s := smallSpec(policy, alloc)
	s.PowerLossProtection = true
	s.PowerLoss = PowerLoss{Enabled: true, Holdup: h}
	s.Verify = false
	r := newRig(t, s, nil)
	f := r.fw
	span := f.LogicalPages() / 2
	dead := false
	for k := 0; k < 8; k++ {
		rng := sim.NewRNG(7, fmt.Sprintf("burst%d", k))
		r.eng.Spawn("host", func(p *sim.Proc) {
			buf := make([]uint64, 8)
			v := uint64(1)
			for !dead {
				if bursty && p.Now()%(40*sim.Millisecond) >= sim.Millisecond {
					p.Sleep(40*sim.Millisecond - p.Now()%(40*sim.Millisecond))
					continue
				}
				n := 1 + rng.IntN(8)
				lba := rng.Int64N(span - int64(n) + 1)
				v++
				for i := range buf[:n] {
					buf[i] = Stamp(lba+int64(i), v)
				}
				r.cmd(p, nvme.OpWrite, lba, n, nvme.Hint{}, buf)
			}
		})
	}
	peak := 0
	r.eng.Spawn("sampler", func(p *sim.Proc) {
		for !dead {
			peak = max(peak, f.Buffer().Occupancy())
			p.Sleep(10 * sim.Microsecond)
		}
	})
	r.eng.At(at, func() {
		dead = true
		require.NoError(t, f.PowerCut())
	})
	r.eng.Run()
	require.True(t, f.PoweredOff())
	r.eng.Close()
	return f.PowerLossReport(), peak
}

// TestHoldupTable is the FastDrain question on the small rig (docs/reliability.md, "How
// much hold-up"): the hold-up each variant needs to drain what it holds at a cut after a
// 40 ms write burst, and what a 5 ms budget loses. The drain's length has a floor worked
// by hand: the Occupancy pages at the cut spread over 4 dies × 2 planes, each multi-plane
// program at least an LSB tPROG of 558 µs, so at least ⌈occupancy / 8⌉ × 558 µs; and a
// 5 ms budget programs at most ⌊5,000 / 558⌋ = 8 rounds of 8 pages = 64 pages.
func TestHoldupTable(t *testing.T) {
	var b strings.Builder
	fmt.Fprintf(&b, "\n| policy | allocator | peak occupancy (pages) | occupancy at cut | hold-up needed | floor ⌈n/8⌉·tPROG(LSB) | lost at 5 ms |\n|---|---|---|---|---|---|---|\n")
	for _, c := range []struct {
		policy Policy
		alloc  string
	}{{Vanilla, "sequential"}, {FastDrain, "sequential"}, {FastDrain, "latency-aware"}, {OracleBG, "sequential"}} {
		full, peak := holdupRun(t, c.policy, c.alloc, 0)
		occ := full.Dirty + full.Evicting
		require.True(t, full.Drained || full.Stuck)
		floor := sim.Time((occ+7)/8) * 558 * sim.Microsecond
		if full.Drained {
			require.GreaterOrEqual(t, full.DrainTime(), floor, "%s/%s", c.policy, c.alloc)
		}
		budget, _ := holdupRun(t, c.policy, c.alloc, 5*sim.Millisecond)
		require.Equal(t, occ, budget.Dirty+budget.Evicting, "the runs are the same up to the cut")
		require.LessOrEqual(t, budget.Flushed, int64(64+budget.Evicting), "at most 8 rounds of 8 pages, plus the programs in flight at the cut")
		ms := func(x sim.Time) string { return fmt.Sprintf("%.1f ms", float64(x)/float64(sim.Millisecond)) }
		need := ms(full.DrainTime())
		if full.Stuck {
			need = fmt.Sprintf("stuck after %s (%d pages left: no room outside the GC reserve)", ms(full.DrainTime()), full.Lost)
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %s | %d |\n", c.policy, c.alloc, peak, occ, need, ms(floor), budget.Lost)
	}
	t.Log(b.String())
}

// TestHoldupTableBursty is TestHoldupTable with bursts: each host process writes for 1 ms
// of every 40, and the power is cut at 8 seeded instants in [42, 80) ms, in the idle time
// after the second burst. Vanilla evicts only on demand, so what a burst left stays dirty
// through the idle time; FastDrain drains it in the background, so its mean occupancy at
// a cut must be lower. The floor of each drain is as in
// TestHoldupTable.
func TestHoldupTableBursty(t *testing.T) {
	var b strings.Builder
	fmt.Fprintf(&b, "\n| policy | allocator | mean occupancy at cut (pages) | max | mean hold-up needed | max |\n|---|---|---|---|---|---|\n")
	means := map[Policy]float64{}
	for _, c := range []struct {
		policy Policy
		alloc  string
	}{{Vanilla, "sequential"}, {FastDrain, "sequential"}, {FastDrain, "latency-aware"}} {
		rng := sim.NewRNG(11, "bursty")
		var sumOcc, maxOcc int
		var sumT, maxT sim.Time
		const cuts = 8
		for i := 0; i < cuts; i++ {
			at := 42*sim.Millisecond + sim.Time(rng.Int64N(int64(38*sim.Millisecond)))
			rep, _ := holdupRunAt(t, c.policy, c.alloc, 0, true, at)
			require.True(t, rep.Drained)
			occ := rep.Dirty + rep.Evicting
			require.GreaterOrEqual(t, rep.DrainTime(), sim.Time((occ+7)/8)*558*sim.Microsecond)
			sumOcc, maxOcc = sumOcc+occ, max(maxOcc, occ)
			sumT, maxT = sumT+rep.DrainTime(), max(maxT, rep.DrainTime())
		}
		ms := func(x sim.Time) string { return fmt.Sprintf("%.1f ms", float64(x)/float64(sim.Millisecond)) }
		if c.alloc == "sequential" {
			means[c.policy] = float64(sumOcc) / cuts
		}
		fmt.Fprintf(&b, "| %s | %s | %.1f | %d | %s | %s |\n", c.policy, c.alloc, float64(sumOcc)/cuts, maxOcc, ms(sumT/cuts), ms(maxT))
	}
	t.Log(b.String())
	require.Less(t, means[FastDrain], means[Vanilla])
}
