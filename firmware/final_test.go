package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// finalRig is the small rig with one die of one plane a channel (2 dies), power-loss
// records on, Vanilla (pages stay dirty until a flush or a cut sends them) and the
// sequential allocator, which stripes consecutive evictions over the 2 dies; dieSpec, if
// not nil, replaces the die (keeping the rig's geometry: 32 blocks of pages pages of 4 KiB).
func finalRig(t *testing.T, plp, atDone bool, dieSpec func() die.Spec, pages int) *rig {
	s := smallSpec(Vanilla, "sequential")
	s.PowerLoss.Enabled, s.PowerLossProtection, s.PowerLoss.Controls.DurableAtDone = true, plp, atDone
	return newRig(t, s, func(c *channel.Spec) {
		c.Dies = 1
		if dieSpec != nil {
			c.Die = dieSpec()
		}
		c.Die.Planes, c.Die.BlocksPerPlane, c.Die.PagesPerBlock, c.Die.PageSize = 1, 32, pages, 4096
	})
}

// pageXfer is the time a 4 KiB program's command, address and data take on the rig's
// channel (ONFI NV-DDR2 at 333 MT/s, 8 bits wide: 4,096 B / 333 MB/s = 12.3 µs, plus the
// command and address cycles), bounded from both sides.
const pageXferMin, pageXferMax = 12300 * sim.Nanosecond, 13500 * sim.Nanosecond

// TestFlushPadsLSBPageToItsMSB: 18 one-page writes and a Flush on the 2-die rig of 2D TLC
// (SimpleSSD's shadow order: pages 0–5 LSB, 6–7 CSB, then pairs LSB, CSB, MSB from page
// 8; tPROG 558 / 2,201 / 5,001 µs). The Flush sends the 18 dirty pages, 9 to each die's
// first block, pages 0 … 8. Page 8 is the LSB page of word line 6 (the seventh LSB page),
// final at that word line's MSB page, page 30 (die.Spec.FinalizingPages); pages 0 … 7
// are final at pages 12 … 29 at most. So the Flush pads pages 9 … 30 of each block, 22
// programs a die: 7 LSB (9, 14, 15, 20, 21, 26, 27), 8 CSB (10, 11, 16, 17, 22, 23, 28,
// 29) and 7 MSB (12, 13, 18, 19, 24, 25, 30): 7 × 558 + 8 × 2,201 + 7 × 5,001 = 56,521
// µs. The data's own programs are 6 LSB + 2 CSB + 1 LSB: 6 × 558 + 2 × 2,201 + 558 =
// 8,308 µs. The dies work in parallel, each program after the last, so the Flush takes
// 8,308 + 56,521 = 64,829 µs of array time plus 31 page transfers on each channel. With
// the control durable_at_done it takes 8,308 µs plus 9 transfers and pads nothing.
func TestFlushPadsLSBPageToItsMSB(t *testing.T) {
	for _, atDone := range []bool{false, true} {
		r := finalRig(t, false, atDone, nil, 64)
		var lat sim.Time
		r.eng.Spawn("host", func(p *sim.Proc) {
			for lpn := int64(0); lpn < 18; lpn++ {
				require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, lpn, 1, nvme.Hint{}, []uint64{Stamp(lpn, 1)}).status)
			}
			q := r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
			require.Equal(t, nvme.StatusSuccess, q.status)
			lat = q.latency
		})
		r.eng.Run()
		f := r.fw
		us := sim.Microsecond
		progs, pads, array := int64(9), int64(44), 8308*us+56521*us
		if atDone {
			progs, pads, array = 9, 0, 8308*us
		}
		require.Equal(t, pads, f.ftl.Stats.FinalityPads, "durable_at_done %v", atDone)
		n := sim.Time(progs + pads/2)
		require.GreaterOrEqual(t, lat, array+n*pageXferMin, "durable_at_done %v", atDone)
		require.LessOrEqual(t, lat, array+n*pageXferMax, "durable_at_done %v", atDone)
		for d := range 2 {
			b := ftl.BlockID(d * 32)
			require.Equal(t, int(progs+pads/2), f.ftl.NextPage(b), "die %d's block", d)
			require.Equal(t, int(progs+pads/2), r.die(d).NextPage(0, 0))
		}
		if !atDone {
			require.Empty(t, f.fin.blocks, "no page provisional after the flush")
		}
		// The statistics registry's finality counters (StatFinality*): the 44 pads; the
		// one Flush waited from its data programmed to the pads' end, the 22 pads of a die
		// one after another: 56,521 µs of array time plus 22 transfers (0 and no wait under
		// durable_at_done).
		gotPads, flushes, wait := finalityStats(f)
		require.Equal(t, float64(pads), gotPads, "durable_at_done %v", atDone)
		waits, lo, hi := 1.0, 56521*us+22*pageXferMin, 56521*us+22*pageXferMax
		if atDone {
			waits, lo, hi = 0, 0, 0
		}
		require.Equal(t, waits, flushes, "durable_at_done %v", atDone)
		require.GreaterOrEqual(t, sim.Time(wait), lo, "durable_at_done %v", atDone)
		require.LessOrEqual(t, sim.Time(wait), hi, "durable_at_done %v", atDone)
	}
}

// finalityStats returns f's word-line finality statistics as PutFinalityStats reports
// them: pad pages, flushes that waited, their wait (ps).
func finalityStats(f *Firmware) (pads, flushes, wait float64) {
	sn := sim.NewCatalogue(StatFinalityPads, StatFinalityFlushes, StatFinalityWait).NewSnapshot()
	f.PutFinalityStats(sn)
	pads, _ = sn.Value(StatFinalityPads)
	flushes, _ = sn.Value(StatFinalityFlushes)
	wait, _ = sn.Value(StatFinalityWait)
	return pads, flushes, wait
}

// oneShotTLC is the rig's die programmed one-shot: a word line's three pages are latched
// in the page registers and programmed together by the last one's command, in the MSB
// tPROG (5,001 µs; die/scheme.go).
func oneShotTLC() die.Spec {
	d := smallDie()
	d.Scheme = die.OneShot
	return d
}

// TestFUAOneShotPads: one FUA write (1 page) on the one-shot TLC rig. Its page goes to
// page 0 of die 0's first block, where it is only latched: the die reports the program
// done after the transfer, with no array time, and a cut would erase it (die.Die.Cut). It
// is final at page 2, its word line's last (die.Spec.FinalizingPages), so the FUA's
// flush pads pages 1 and 2: 2 programs, the second starting the word line's 5,001 µs. The
// write completes after 5,001 µs and 3 transfers (plus the write's own DMA, the command's
// handling). With durable_at_done it completes after one transfer (its page latched), and
// a cut at that instant loses it.
func TestFUAOneShotPads(t *testing.T) {
	for _, atDone := range []bool{false, true} {
		r := finalRig(t, false, atDone, oneShotTLC, 66) // 22 word lines
		var lat sim.Time
		r.eng.Spawn("host", func(p *sim.Proc) {
			q := r.cmdFUA(p, nvme.OpWrite, 0, 1, nvme.Hint{}, []uint64{Stamp(0, 1)}, true)
			require.Equal(t, nvme.StatusSuccess, q.status)
			lat = q.latency
		})
		r.eng.Run()
		f := r.fw
		if atDone {
			require.Zero(t, f.ftl.Stats.FinalityPads)
			require.Less(t, lat, 100*sim.Microsecond, "latched: done after the transfer")
			cut := r.die(0).Cut(r.eng.Now())
			require.Equal(t, []die.Addr{{Plane: 0, Block: 0, Page: 0}}, cut, "a cut erases the latched page")
			continue
		}
		require.Equal(t, int64(2), f.ftl.Stats.FinalityPads)
		require.Equal(t, 3, r.die(0).NextPage(0, 0))
		require.GreaterOrEqual(t, lat, 5001*sim.Microsecond+3*pageXferMin)
		require.Less(t, lat, 5001*sim.Microsecond+3*pageXferMax+100*sim.Microsecond)
		require.Empty(t, r.die(0).Cut(r.eng.Now()), "the word line is final: a cut loses nothing")
	}
}

// twoPassQLC is the rig's die as a two-pass QLC part (die.SpecFor(QLC): tPROG 2,000 µs
// each page type, the fine pass 2,800 µs): word line k's last page runs k's coarse pass
// and k−1's fine pass.
func twoPassQLC() die.Spec { return die.SpecFor(die.QLC) }

// TestDrainPadsTwoPass: with power-loss protection, 8 one-page writes stay dirty (Vanilla)
// and the power is cut: the hold-up drain programs them, 4 to each die's first block,
// pages 0 … 3 (word line 0): 3 latched, the fourth running word line 0's coarse pass,
// 2,000 µs. Word line 0 is final only after its fine pass, which word line 1's program
// runs (pages 0 … 3 are final at page 7: die.Spec.FinalizingPages), so the drain's end
// pads pages 4 … 7 of each block: the last runs word line 1's coarse pass and word line
// 0's fine pass, 2,000 + 2,800 = 4,800 µs. The drain takes 6,800 µs plus 8 transfers a
// channel (and the drain's eviction decisions); the cut at its end (die.Die.Cut) loses word line 1 only, the pads, and every
// page reads back after recovery. With durable_at_done the drain ends after 2,000 µs and
// 4 transfers, and the cut loses word line 0 on both dies: the 8 pages' data.
func TestDrainPadsTwoPass(t *testing.T) {
	for _, atDone := range []bool{false, true} {
		r := finalRig(t, true, atDone, twoPassQLC, 64)
		f := r.fw
		spawnWritesThenCut(t, r, 8)
		r.eng.Run()
		rep := f.PowerLossReport()
		require.True(t, rep.Drained, "durable_at_done %v", atDone)
		array, xfers := 6800*sim.Microsecond, sim.Time(8)
		if atDone {
			array, xfers = 2000*sim.Microsecond, 4
		}
		require.GreaterOrEqual(t, rep.DrainTime(), array+xfers*pageXferMin, "durable_at_done %v", atDone)
		// The drain's eviction decisions and DRAM reads come before its first transfer.
		require.LessOrEqual(t, rep.DrainTime(), array+xfers*pageXferMax+100*sim.Microsecond, "durable_at_done %v", atDone)
		var lost []ftl.PPN
		g := f.FTL().Geometry()
		for d := range 2 {
			cut := r.die(d).Cut(rep.Off)
			for _, a := range cut {
				lost = append(lost, g.PPN(ftl.Addr{Die: d, Plane: a.Plane, Block: a.Block, Page: a.Page}))
			}
			want := []die.Addr{{Page: 4}, {Page: 5}, {Page: 6}, {Page: 7}} // word line 1: the pads
			if atDone {
				want = []die.Addr{{Page: 0}, {Page: 1}, {Page: 2}, {Page: 3}} // word line 0: the data
			}
			require.Equal(t, want, cut, "die %d, durable_at_done %v", d, atDone)
		}
		require.NoError(t, f.FlashLost(lost))
		rec, err := f.Recover()
		require.NoError(t, err)
		if atDone {
			require.Zero(t, rec.Mapped, "the data was in the coarse word lines the cut destroyed")
			continue
		}
		require.Equal(t, int64(8), rec.Mapped, "every page drained is recovered")
	}
}

// TestLatchedPageReadFromDRAM: on the one-shot TLC rig with FastDrain (background
// eviction: an idle die takes dirty pages at once) and a 2-page buffer, logical pages 0, 1
// and 2 are written one after the other and evicted to pages 0 and 1 of die 0's first
// block and page 0 of die 1's (the sequential allocator stripes them), where they are only
// latched: the die reports each program done after its transfer, and the buffer releases
// the page; page 2's write takes the slot of page 0's clean copy. A latched page is not in the array
// (the word line programs at its last page), and a two-pass word line after its first pass
// holds data that cannot be read back (US 12,056,368 B2: a storage location whose
// first-step program has completed "stores unreadable data" until its second step), so the
// firmware keeps the page's in-flight record until the word line is final and serves a
// read of it from DRAM (Stats.PendingHits), not from the die. With durable_at_done the
// read goes to the die (a tR of the LSB page) and returns the erased cells.
func TestLatchedPageReadFromDRAM(t *testing.T) {
	for _, atDone := range []bool{false, true} {
		s := smallSpec(FastDrain, "sequential")
		s.PowerLoss.Enabled, s.PowerLoss.Controls.DurableAtDone = true, atDone
		s.Buffer.Pages = 2
		r := newRig(t, s, func(c *channel.Spec) {
			c.Dies = 1
			c.Die = oneShotTLC()
			c.Die.Planes, c.Die.BlocksPerPlane, c.Die.PagesPerBlock = 1, 32, 66
		})
		got := make([]uint64, 1)
		r.eng.Spawn("host", func(p *sim.Proc) {
			for lpn := int64(0); lpn < 3; lpn++ {
				require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, lpn, 1, nvme.Hint{}, []uint64{Stamp(lpn, 1)}).status)
				p.Sleep(sim.Millisecond) // the background eviction's transfer is long over
			}
			require.Equal(t, 0, r.fw.buf.Occupancy(), "the buffer released the pages")
			_, held := r.fw.buf.Contains(0)
			require.False(t, held, "page 0's clean copy gave its slot to page 2")
			require.Equal(t, 2, r.die(0).NextPage(0, 0), "pages 0 and 1 are latched")
			require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpRead, 0, 1, nvme.Hint{}, got).status)
		})
		r.eng.Run()
		reads := r.die(0).Stats().Reads[die.LSB]
		if atDone {
			// The control trusts the die: its read senses the word line's cells, which
			// the one-shot program has not reached yet (die/unfinished.go), so the host
			// gets erased data (all ones) instead of version 1.
			require.Equal(t, die.ErasedStamp, got[0], "the control reads the erased cells")
			require.Zero(t, r.fw.Stats.PendingHits)
			require.Equal(t, int64(1), reads, "the read goes to the die")
			continue
		}
		require.Equal(t, Stamp(0, 1), got[0])
		require.Equal(t, int64(1), r.fw.Stats.PendingHits, "served from the firmware's copy")
		require.Zero(t, reads, "no read of the latched page reaches the die")
	}
}

// TestRecoveryCountsProvisionalPages: with power-loss protection on the 2D TLC rig, 18
// one-page writes stay dirty (Vanilla) and the power is cut: the drain programs pages 0 …
// 8 of each die's first block and ends with no program running, so the cut destroys
// nothing and recovery maps all 18. But no page of those blocks is final: pages 0 … 5 (LSB
// of word lines 0 … 5) are final at their MSB pages 12, 13, 18, 19, 24, 25, pages 6 and 7
// (CSB of word lines 0 and 1) at 12 and 13, page 8 at 30, all past the write pointer 9
// (die.Spec.FinalizingPages). So Recovery reports 18 provisional pages in 2 blocks that a
// resuming firmware must close: programming their page 9 onwards would put those pages at
// risk again at the next cut.
func TestRecoveryCountsProvisionalPages(t *testing.T) {
	r := finalRig(t, true, false, nil, 64)
	f := r.fw
	spawnWritesThenCut(t, r, 18)
	r.eng.Run()
	require.True(t, f.PowerLossReport().Drained)
	for d := range 2 {
		require.Empty(t, r.die(d).Cut(f.PowerLossReport().Off), "no program runs at the drain's end")
	}
	rec, err := f.Recover()
	require.NoError(t, err)
	require.Equal(t, int64(18), rec.Mapped)
	require.Equal(t, int64(18), rec.Provisional)
	require.Equal(t, int64(2), rec.Closed)
	require.Zero(t, f.ftl.Stats.FinalityPads, "2D: the drain's end pads nothing (no program runs at the cut)")
}

// TestDurableAtDoneNeedsRecords: the control durable_at_done is refused, naming its field,
// without firmware.power_loss.enabled (it is a control for power-cut experiments), and
// accepted with it.
func TestDurableAtDoneNeedsRecords(t *testing.T) {
	p := PowerLoss{Controls: DurabilityControls{DurableAtDone: true}}
	errs := p.validate(false)
	require.Len(t, errs, 1)
	require.EqualError(t, errs[0], "firmware.power_loss.controls.durable_at_done is set but firmware.power_loss.enabled is false (a control for power-cut experiments)")
	p.Enabled = true
	require.Empty(t, p.validate(false))
}

// spawnWritesThenCut spawns a host that writes logical pages 0 … n−1 (version 1, one page a command), each
// acknowledged, and then cuts the power; the caller runs the engine.
func spawnWritesThenCut(t *testing.T, r *rig, n int64) {
	r.eng.Spawn("host", func(p *sim.Proc) {
		for lpn := range n {
			require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, lpn, 1, nvme.Hint{}, []uint64{Stamp(lpn, 1)}).status)
		}
		require.NoError(t, r.fw.PowerCut())
	})
}
