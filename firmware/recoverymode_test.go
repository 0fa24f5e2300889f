package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// foldCutPages is how many pages foldCut writes: one full SLC block (22 pages of slcDie) on
// each of the rig's 8 planes.
const foldCutPages = 8 * 22

// foldCut writes pages 0 … 175 (version 1, one command each) to an empty rig with an SLC
// cache and power-loss records (no protection), flushes them — the flush evicts them to
// the cache's SLC blocks — and cuts the power where at says: after the flush ("flushed"),
// at the first instant a fold's program is on a die ("fold-program"), or when the first
// folded SLC block's erase is queued ("fold-erase"). The host is idle after the flush, so
// the watch folds every full SLC block (ftl.SLCCacheConfig.Idle 1 ms). unguarded sets the
// control firmware.power_loss.controls.unguarded_fold. It returns the rig, stopped, and
// the recovered map.
func foldCut(t *testing.T, at string, unguarded bool) (*rig, *Recovery) {
	spec := plSpec(Vanilla, false, 0)
	spec.FTL.SLCCache = ftl.SLCCacheConfig{Static: 0.05, Idle: sim.Millisecond}
	spec.PowerLoss.Controls.UnguardedFold = unguarded
	r := newRig(t, spec, slcDie)
	cut := func() { r.eng.At(r.eng.Now(), func() { require.NoError(t, r.fw.PowerCut()) }) }
	r.eng.Spawn("host", func(p *sim.Proc) {
		for i := int64(0); i < foldCutPages; i++ {
			require.Equal(t, nvmectrl.StatusSuccess, r.cmd(p, nvmectrl.OpWrite, i, 1, nvmectrl.Hint{}, []uint64{Stamp(i, 1)}).status)
		}
		require.Equal(t, nvmectrl.StatusSuccess, r.cmd(p, nvmectrl.OpFlush, 0, 0, nvmectrl.Hint{}, nil).status)
		// Every plane's SLC block is full with the 22 pages of 22 logical pages, nothing
		// folded yet: the starting point the cases below work from.
		blocks, valid := r.fw.FTL().SLCOccupancy()
		require.Equal(t, 8, blocks)
		require.Equal(t, int64(foldCutPages), valid)
		require.Zero(t, r.fw.FTL().SLCStats().FoldUnits)
		switch at {
		case "flushed":
			require.NoError(t, r.fw.PowerCut())
		case "fold-program":
			for r.fw.FlashWork().Folds == 0 {
				p.Sleep(sim.Microsecond)
			}
			require.NoError(t, r.fw.PowerCut())
		case "fold-erase":
			r.fw.OnErase = cut
		}
	})
	r.eng.Run()
	require.True(t, r.fw.PoweredOff(), "the cut came")
	rec, err := r.fw.Recover()
	require.NoError(t, err)
	return r, rec
}

// recovered counts the logical pages of foldCut that recovery maps to their version 1 and,
// of those, the ones mapped to a block in SLC mode.
func recovered(r *rig, rec *Recovery) (ok, inSLC int) {
	for lpn := int64(0); lpn < foldCutPages; lpn++ {
		u := rec.Map[lpn]
		if u == ftl.NoUnit || r.readFlash(u) != Stamp(lpn, 1) {
			continue
		}
		ok++
		if r.fw.pl.blockIsSLC(r.fw.geo.BlockOf(r.fw.ftl.PageOf(u))) {
			inSLC++
		}
	}
	return ok, inSLC
}

// TestRecoveryReadsSLCBlocksInSLCMode: cut after the flush, before any fold. Every logical
// page's only copy is in an SLC block, and each of the 8 SLC blocks has its header (its
// first page's program completed), so recovery reads them in SLC mode and finds all 176.
// The scan's time, by hand: a die holds 2 SLC blocks (one a plane) of 22 pages, read one
// after the other at the SLC tR of 25 µs (slcDie): 44 × 25 = 1,100 µs, the dies in
// parallel. Read in the native mode the same pages would cost, per block, the TLC tR of
// pages 0 … 21 (2D shadow order: 12 LSB, 6 CSB, 4 MSB at 58, 78, 107 µs): 696 + 468 + 428 =
// 1,592 µs, 3,184 µs a die — and an SLC-programmed page read with the native read levels
// does not decode at all.
func TestRecoveryReadsSLCBlocksInSLCMode(t *testing.T) {
	r, rec := foldCut(t, "flushed", false)
	require.Equal(t, int64(8), rec.SLCBlocks)
	require.Equal(t, int64(foldCutPages), rec.Scanned)
	require.Equal(t, int64(foldCutPages), rec.Records)
	require.Equal(t, int64(foldCutPages), rec.Mapped)
	require.Equal(t, 1100*sim.Microsecond, rec.Time)
	ok, inSLC := recovered(r, rec)
	require.Equal(t, foldCutPages, ok)
	require.Equal(t, foldCutPages, inSLC)
}

// TestRecoveryCutMidFold: cut at the first instant a fold's program is on a die. No fold
// program has completed (the first one was handed to its die within the last microsecond of
// polling, and a program takes at least the 558 µs of an LSB page), so the folded copies
// have no record (an interrupted program leaves none) and every SLC copy still has its
// record and header: all 176 pages come back from SLC blocks, the copies in flight are lost
// and nothing else is.
func TestRecoveryCutMidFold(t *testing.T) {
	r, rec := foldCut(t, "fold-program", false)
	require.Equal(t, int64(8), rec.SLCBlocks)
	require.Equal(t, int64(foldCutPages), rec.Records, "the SLC copies' records, none of the folded copies'")
	ok, inSLC := recovered(r, rec)
	require.Equal(t, foldCutPages, ok)
	require.Equal(t, foldCutPages, inSLC)
}

// TestRecoveryCutAtFoldErase: cut when the first folded SLC block's erase is queued. GC
// queues it only once the programs of all its folded copies have completed (moveBatch waits
// for a batch's programs, the erase for the last batch), so the block's 22 logical pages have
// a complete native copy with a record, carrying the SLC copy's sequence number, and the
// SLC block's records and header go with its erase (eraseIssued): recovery maps those 22 to
// the native copies and the other 154 to SLC (some of them may also have a completed folded
// copy on another die by then; either copy is version 1). All 176 come back.
//
// The control (unguarded_fold) queues the same erase at the instant the fold's 22 programs
// are queued, waiting for none: a program takes at least 558 µs, so none has completed at
// the cut, and the 22 pages have neither copy — 154 come back. This is the loss the order
// prevents, and what the campaign's fold-erase cuts look for (powercut).
func TestRecoveryCutAtFoldErase(t *testing.T) {
	r, rec := foldCut(t, "fold-erase", false)
	require.Equal(t, int64(7), rec.SLCBlocks, "the erased block's header is gone")
	ok, inSLC := recovered(r, rec)
	require.Equal(t, foldCutPages, ok)
	require.LessOrEqual(t, inSLC, foldCutPages-22)

	r, rec = foldCut(t, "fold-erase", true)
	require.Equal(t, int64(7), rec.SLCBlocks)
	ok, _ = recovered(r, rec)
	require.Equal(t, foldCutPages-22, ok, "the control loses the folded block's 22 pages")
}
