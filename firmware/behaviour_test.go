package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware/buffer"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestVanillaStallsExactlyWhenFull: with a 64-page vanilla buffer, 64 single-page writes
// complete without stalling or evicting (vanilla evicts on demand only); the 65th finds the
// buffer full, stalls, and completes only after an eviction program finished — at least
// one LSB tPROG (558 µs) later.
func TestVanillaStallsExactlyWhenFull(t *testing.T) {
	s := smallSpec(Vanilla, "sequential")
	s.Buffer.Pages = 64
	r := newFake(t, s, 4096)
	var lat65 sim.Time
	r.eng.Spawn("host", func(p *sim.Proc) {
		for i := int64(0); i < 64; i++ {
			r.cmd(p, nvme.OpWrite, i, 1, nvme.Hint{}, []uint64{Stamp(i, 1)})
			require.Zero(t, r.fw.Stats.Stalls, "write %d", i)
		}
		require.Zero(t, r.fw.Stats.ForegroundEvictions+r.fw.Stats.BackgroundEvictions)
		require.Equal(t, 64, r.fw.Buffer().Occupancy())
		rq := r.cmd(p, nvme.OpWrite, 64, 1, nvme.Hint{}, []uint64{Stamp(64, 1)})
		lat65 = rq.latency
		require.Equal(t, int64(1), r.fw.Stats.Stalls)
	})
	r.eng.Run()
	require.GreaterOrEqual(t, lat65, 558*sim.Microsecond)
	require.Positive(t, r.fw.Stats.ForegroundEvictions)
}

// TestStatusLevelFollowsOccupancy: each completion carries the level of the occupancy at
// completion. With 100 pages and watermarks 0.5 / 0.8, after the i-th single-page write
// the vanilla buffer holds i pages: below-low for i < 50, between for 50 ≤ i < 80, above-high
// from 80 on.
func TestStatusLevelFollowsOccupancy(t *testing.T) {
	s := smallSpec(Vanilla, "sequential")
	s.Buffer.Pages = 100
	s.Buffer.Watermarks = buffer.Watermarks{Low: 0.5, High: 0.8}
	r := newFake(t, s, 4096)
	r.eng.Spawn("host", func(p *sim.Proc) {
		for i := int64(1); i <= 90; i++ {
			rq := r.cmd(p, nvme.OpWrite, i, 1, nvme.Hint{}, []uint64{Stamp(i, 1)})
			require.True(t, rq.levelOK)
			want := bufferlevel.Low
			switch {
			case i >= 80:
				want = bufferlevel.High
			case i >= 50:
				want = bufferlevel.Mid
			}
			require.Equal(t, want, rq.level, "after write %d", i)
		}
	})
	r.eng.Run()
}

// watermarkRig is a fastdrain firmware (on the fake ports) with a 100-page buffer, watermarks 0.5 / 0.8 and one
// background eviction in flight at most, so foreground eviction is easy to see.
func watermarkRig(t *testing.T, allocator string) *fake {
	s := smallSpec(FastDrain, allocator)
	s.Buffer.Pages = 100
	s.Buffer.Watermarks = buffer.Watermarks{Low: 0.5, High: 0.8}
	s.Buffer.BackgroundMax = 1
	return newFake(t, s, 4096)
}

// TestFastDrainWatermarks: a write announcing a victimization pushes the predicted
// occupancy (occupancy + announced pages) over the high watermark, which starts foreground
// eviction; it stops once occupancy is below the low watermark.
func TestFastDrainWatermarks(t *testing.T) {
	r := watermarkRig(t, "latency-aware")
	r.eng.Spawn("host", func(p *sim.Proc) {
		// 30 plain writes: no prediction past 80 pages, no foreground mode.
		for i := int64(0); i < 30; i++ {
			r.cmd(p, nvme.OpWrite, i, 1, nvme.Hint{}, []uint64{Stamp(i, 1)})
		}
		require.Empty(t, r.fw.ModeLog())
		require.Zero(t, r.fw.Stats.ForegroundEvictions)
		// A victimization announces 70 pages, then sends them 4 at a time.
		for i := int64(100); i < 170; i += 4 {
			left := uint32(170 - i)
			stamps := []uint64{Stamp(i, 1), Stamp(i+1, 1), Stamp(i+2, 1), Stamp(i+3, 1)}
			r.cmd(p, nvme.OpWrite, i, 4, nvme.Hint{Victim: true, Pages: left}, stamps)
		}
	})
	r.eng.Run()
	log := r.fw.ModeLog()
	require.GreaterOrEqual(t, len(log), 2)
	require.True(t, log[0].Foreground)
	require.GreaterOrEqual(t, log[0].Predicted, int64(80), "entered at the high watermark")
	require.False(t, log[1].Foreground)
	require.Less(t, log[1].Occupancy, 50, "left below the low watermark")
	require.Positive(t, r.fw.Stats.ForegroundEvictions)
	// FD-FTL: every foreground eviction went to an LSB page.
	st := r.fw.FTL().Stats
	require.Equal(t, st.ForegroundWr, st.LSBForFG)
	require.Equal(t, r.fw.Stats.ForegroundEvictions, st.ForegroundWr)
}

// TestFastDrainPredictionStartsForegroundEarly: the hint is there so the SSD makes room
// before the data arrives. With 10 of 100 pages occupied (under the low watermark, 50) a
// victimization announcing 90 pages predicts 100 ≥ 80 (high): foreground eviction starts
// at once and stays on while the prediction is at or over 80, although the occupancy is
// under 50 all along; it ends only once the prediction is under 80 and the occupancy under
// 50. (A rule that ended foreground as soon as the occupancy was under the low watermark
// would leave it the moment it entered, and log an entry and an exit at the same instant
// for every eviction round.)
func TestFastDrainPredictionStartsForegroundEarly(t *testing.T) {
	r := watermarkRig(t, "sequential")
	r.eng.Spawn("host", func(p *sim.Proc) {
		for i := int64(0); i < 10; i++ {
			r.cmd(p, nvme.OpWrite, i, 1, nvme.Hint{}, []uint64{Stamp(i, 1)})
		}
		for i := int64(100); i < 190; i += 2 {
			left := uint32(190 - i)
			stamps := []uint64{Stamp(i, 1), Stamp(i+1, 1)}
			r.cmd(p, nvme.OpWrite, i, 2, nvme.Hint{Victim: true, Pages: left}, stamps)
		}
	})
	r.eng.Run()
	log := r.fw.ModeLog()
	require.GreaterOrEqual(t, len(log), 2)
	require.True(t, log[0].Foreground)
	require.Less(t, log[0].Occupancy, 50, "entered on the prediction, not the occupancy")
	require.GreaterOrEqual(t, log[0].Predicted, int64(80))
	require.False(t, log[1].Foreground)
	require.Greater(t, log[1].At, log[0].At, "no exit in the instant of the entry")
	require.Less(t, log[1].Predicted, int64(80), "left once the prediction fell under high")
	require.Less(t, log[1].Occupancy, 50)
	for k := 1; k < len(log); k++ {
		require.NotEqual(t, log[k-1].Foreground, log[k].Foreground, "entries alternate")
	}
	require.Positive(t, r.fw.Stats.ForegroundEvictions)
}

// TestForegroundSpreadsOverDies: vanilla on-demand eviction fills every die's queue in
// turn, so the programs of a long write burst are spread evenly over the four dies.
func TestForegroundSpreadsOverDies(t *testing.T) {
	s := smallSpec(Vanilla, "latency-aware")
	s.Buffer.Pages = 32
	r := newRig(t, s, nil)
	r.eng.Spawn("host", func(p *sim.Proc) {
		st := make([]uint64, 8)
		for i := int64(0); i < 400; i += 8 {
			for k := range st {
				st[k] = Stamp(i+int64(k), 1)
			}
			r.cmd(p, nvme.OpWrite, i, 8, nvme.Hint{}, st)
		}
	})
	r.eng.Run()
	var per []int64
	var lsbOnly = true
	for _, ch := range r.chans {
		for d := 0; d < ch.NumDies(); d++ {
			ps := ch.Die(d).Stats().Programs
			per = append(per, ps[0]+ps[1]+ps[2])
			lsbOnly = lsbOnly && ps[1] == 0 && ps[2] == 0
		}
	}
	require.True(t, lsbOnly, "latency-aware foreground eviction programs LSB pages only")
	lo, hi := per[0], per[0]
	for _, v := range per {
		lo, hi = min(lo, v), max(hi, v)
	}
	require.LessOrEqual(t, hi-lo, int64(2*s.Buffer.ForegroundPerDie), "programs per die %v", per)
}

// TestSkipToLSBWastedMatchesFlash: the pages the skip-to-lsb allocator counts as wasted
// (in blocks not yet erased) are exactly the pages the dies passed over — erased pages below
// a block's next page on flash — plus the trailing pages of blocks the FTL skipped to the
// end (the flash never sees those).
func TestSkipToLSBWastedMatchesFlash(t *testing.T) {
	r := integrityRun(t, Vanilla, "skip-to-lsb", 3000, 2)
	f := r.fw.FTL()
	g := f.Geometry()
	next := func(b ftl.BlockID) int {
		dieIdx, plane, blk := g.BlockAddr(b)
		return r.die(dieIdx).NextPage(plane, blk)
	}
	require.NoError(t, f.CheckProgrammed(next))
	var onFlash, trailing int64
	for b := 0; b < g.Blocks(); b++ {
		dieIdx, plane, blk := g.BlockAddr(ftl.BlockID(b))
		d := r.die(dieIdx)
		n := next(ftl.BlockID(b))
		for pg := 0; pg < n; pg++ {
			if !d.Programmed(die.Addr{Plane: plane, Block: blk, Page: pg}) {
				onFlash++
			}
		}
		trailing += int64(f.NextPage(ftl.BlockID(b)) - n)
	}
	require.Positive(t, f.Stats.WastedNow)
	require.Equal(t, f.Stats.WastedNow, onFlash+trailing)
}

// TestOccupancySeries: the sampler sees the vanilla buffer fill one page per write.
func TestOccupancySeries(t *testing.T) {
	s := smallSpec(Vanilla, "sequential")
	r := newFake(t, s, 4096)
	smp := sim.NewSampler(r.eng, 100*sim.Microsecond)
	r.fw.Track(smp)
	r.eng.Spawn("host", func(p *sim.Proc) {
		for i := int64(0); i < 10; i++ {
			r.cmd(p, nvme.OpWrite, i, 1, nvme.Hint{}, []uint64{Stamp(i, 1)})
			p.Sleep(100 * sim.Microsecond)
		}
	})
	r.eng.Run()
	occ := smp.Series()[0]
	require.Equal(t, "ssd.fw.buffer.occupancy", occ.Name)
	last := occ.Samples[len(occ.Samples)-1]
	require.Equal(t, int64(10), last.Value)
	for i := 1; i < len(occ.Samples); i++ {
		require.GreaterOrEqual(t, occ.Samples[i].Value, occ.Samples[i-1].Value, "vanilla never evicts here")
	}
}

// TestFlushWithAndWithoutPLP: without power-loss protection a Flush waits until the
// buffered pages are on flash (at least one tPROG, 558 µs); with it, the buffer is durable
// and the Flush completes in microseconds with nothing evicted.
func TestFlushWithAndWithoutPLP(t *testing.T) {
	for _, plp := range []bool{false, true} {
		s := smallSpec(Vanilla, "sequential")
		s.PowerLossProtection = plp
		r := newFake(t, s, 4096)
		var lat sim.Time
		r.eng.Spawn("host", func(p *sim.Proc) {
			r.cmd(p, nvme.OpWrite, 0, 4, nvme.Hint{}, []uint64{1, 2, 3, 4})
			lat = r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil).latency
		})
		r.eng.Run()
		if plp {
			require.Less(t, lat, 50*sim.Microsecond)
			require.Zero(t, r.fw.Stats.ForegroundEvictions)
		} else {
			require.GreaterOrEqual(t, lat, 558*sim.Microsecond)
			require.Equal(t, int64(4), r.fw.Stats.ForegroundEvictions)
		}
	}
}

// TestVanillaIsOnDemandOnly: Vanilla evicts only to make room for a waiting write (or for a
// flush), never in the background. The random integrity workload stalls on its 256-page
// buffer again and again, and between two stalls a round whose decision was computed while
// a write waited finds no writer waiting any more; such a round must issue nothing. So the
// background eviction count is 0 (worked out: there is no background path for Vanilla at
// all), and since background_max bounds background eviction only, changing it from 1 to 64
// to 4,096 must not move a single counter or the simulated end time.
func TestVanillaIsOnDemandOnly(t *testing.T) {
	type result struct {
		st  Stats
		end sim.Time
		ftl ftl.Stats
	}
	var base result
	for i, bgMax := range []int{1, 64, 4096} {
		s := smallSpec(Vanilla, "sequential")
		s.Buffer.BackgroundMax = bgMax
		r := integrityRunSpec(t, s, 3000, 1)
		require.Zero(t, r.fw.Stats.BackgroundEvictions, "background_max %d", bgMax)
		require.Positive(t, r.fw.Stats.Stalls, "the workload must stall for the test to mean anything")
		got := result{r.fw.Stats, r.eng.Now(), r.fw.FTL().Stats}
		if i == 0 {
			base = got
			continue
		}
		require.Equal(t, base, got, "background_max %d moved vanilla's results", bgMax)
	}
}

// TestVanillaRoundWhoseWaiterLeftIssuesNothing: a Vanilla eviction round is decided while a
// write waits for room, but the writer has gone (found room elsewhere) by the time the
// decision's compute time has passed: the round must issue nothing, not fall into
// background eviction. Worked out: the decision costs cycles.evict = 400 cycles at 400 MHz
// = 1 µs; the waiter leaves 0.5 µs into it, so at 1 µs nobody waits, and with 10 dirty
// pages, 4 idle dies and background_max 64 the old code sent one background page to each
// of the 4 dies. Now: 0 evictions of either kind, 10 pages still dirty.
func TestVanillaRoundWhoseWaiterLeftIssuesNothing(t *testing.T) {
	r := newFake(t, smallSpec(Vanilla, "sequential"), 4096)
	f := r.fw
	r.eng.Spawn("host", func(p *sim.Proc) {
		for i := int64(0); i < 10; i++ {
			r.cmd(p, nvme.OpWrite, i, 1, nvme.Hint{}, []uint64{Stamp(i, 1)})
		}
		p.Sleep(10 * sim.Microsecond)
		require.True(t, f.evict.waiting)
		f.wb.roomWaiters++ // a write starts waiting for room
		f.evict.notify()
		p.Sleep(500 * sim.Nanosecond)
		f.wb.roomWaiters-- // and leaves before the decision is computed
	})
	r.eng.Run()
	require.Zero(t, f.Stats.BackgroundEvictions)
	require.Zero(t, f.Stats.ForegroundEvictions)
	require.Equal(t, 10, f.Buffer().Dirty())
}

// TestOracleNeverEvicts: the Oracle is the paper's infinite buffer, which "completely
// buffers dirty data": 500 single-page writes (twice the 256 pages the other policies'
// buffer would hold) and reads of them leave all 500 dirty in DRAM, with no eviction and
// not one program on any die; the reads are all buffer hits. Oracle-BG, the unbounded
// buffer drained in the background, writes all 500 to flash in background evictions. A
// Flush without power-loss protection must still wait for flash: the Oracle then evicts
// the 500 pages in the foreground.
func TestOracleNeverEvicts(t *testing.T) {
	run := func(pol Policy, flush bool) *fake {
		s := smallSpec(pol, "sequential")
		s.PowerLossProtection = false
		r := newFake(t, s, 4096)
		r.eng.Spawn("host", func(p *sim.Proc) {
			for i := int64(0); i < 500; i++ {
				r.cmd(p, nvme.OpWrite, i, 1, nvme.Hint{}, []uint64{Stamp(i, 1)})
			}
			got := []uint64{0}
			for i := int64(0); i < 500; i++ {
				r.cmd(p, nvme.OpRead, i, 1, nvme.Hint{}, got)
				require.Equal(t, Stamp(i, 1), got[0])
			}
			if flush {
				r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
			}
		})
		r.eng.Run()
		return r
	}
	programs := func(r *fake) int64 { return r.flash.programs }
	r := run(Oracle, false)
	require.Zero(t, r.fw.Stats.ForegroundEvictions+r.fw.Stats.BackgroundEvictions)
	require.Zero(t, programs(r))
	require.Equal(t, 500, r.fw.Buffer().Dirty())
	require.Equal(t, int64(500), r.fw.Stats.ReadHits)

	r = run(OracleBG, false)
	require.Equal(t, int64(500), r.fw.Stats.BackgroundEvictions)
	require.Zero(t, r.fw.Stats.ForegroundEvictions)
	require.Equal(t, int64(500), programs(r))

	r = run(Oracle, true)
	require.Equal(t, int64(500), r.fw.Stats.ForegroundEvictions)
	require.Zero(t, r.fw.Stats.BackgroundEvictions)
	require.Zero(t, r.fw.Buffer().Occupancy())
}
