package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestEraseWaitsForNewerCopy: logical page 7 is written (version 1) and flushed, so its
// copy in block B is durable. Version 2 is written and a Flush sends it to flash: its
// eviction maps page 7 to a new page on another die and supersedes the copy in B at once,
// while the program is in flight (the fake die takes fakeTPROG = 558 µs). 100 µs into that
// program, GC is asked to erase B, which now holds no valid page. Without the guard the
// erase would be queued there and then: B's record gone, version 2 not yet on flash, a cut
// would recover nothing of page 7 (a durable loss). With it the erase waits, a recovery at
// that instant still finds version 1 in B, and the erase is queued exactly when version 2's
// program completes (its submission + 558 µs, the fake die's free time); recovery then finds
// version 2.
//
// That is the old rule, kept by the control durable_at_done. With word-line finality
// (final.go) the erase waits until version 2's page is final: it is page 0 of a fresh
// block of the rig's 2D TLC die, final at page 12 (its word line's MSB page,
// die.Spec.FinalizingPages), so GC's wait pads pages 1 … 12 of that block (12 programs of
// fakeTPROG each on the same die, after version 2's) and the erase is queued at version 2's
// completion + 12 × 558 µs = + 6,696 µs. The first Flush pads version 1's block B the same
// way (12 pads): 24 in all.
func TestEraseWaitsForNewerCopy(t *testing.T) {
	for _, atDone := range []bool{true, false} {
		eraseWaitsForNewerCopy(t, atDone)
	}
}

func eraseWaitsForNewerCopy(t *testing.T, atDone bool) {
	s := smallSpec(Vanilla, "sequential")
	s.PowerLoss.Enabled = true
	s.PowerLoss.Controls.DurableAtDone = atDone
	r := newFake(t, s, 4096)
	f := r.fw
	var eraseAt, v2Done sim.Time
	f.OnErase = func() { eraseAt = r.eng.Now() }
	var b ftl.BlockID
	var u1 ftl.Unit
	r.eng.Spawn("host", func(p *sim.Proc) {
		r.cmd(p, nvme.OpWrite, 7, 1, nvme.Hint{}, []uint64{Stamp(7, 1)})
		r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
		u1 = f.ftl.Lookup(7)
		b = f.geo.BlockOf(f.ftl.PageOf(u1))
		r.cmd(p, nvme.OpWrite, 7, 1, nvme.Hint{}, []uint64{Stamp(7, 2)})
		p.Engine().After(100*sim.Microsecond, func() {
			u2 := f.ftl.Lookup(7)
			g2 := f.geo.Addr(f.ftl.PageOf(u2)).Die
			require.NotEqual(t, b, f.geo.BlockOf(f.ftl.PageOf(u2)), "version 2 goes to another block")
			require.Equal(t, 1, f.FlashWork().Foreground, "version 2's program is on its die")
			require.Equal(t, uint16(1), f.newer[b])
			require.Zero(t, f.ftl.ValidCount(b), "B holds no valid page")
			v2Done = r.flash.free[g2]
			// GC's task for B's die goes to erase B.
			tk := f.gc.tasks[f.geo.Addr(f.ftl.PageOf(u1)).Die]
			tk.idle, tk.v, tk.erase = false, b, true
			tk.waitPrograms()
			require.Zero(t, eraseAt, "the erase waits for version 2's program")
			rec, err := f.RecoverNow()
			require.NoError(t, err)
			require.Equal(t, u1, rec.Map[7], "a cut now recovers the durable version 1")
		})
		r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
	})
	r.eng.Run()
	require.Positive(t, v2Done)
	if !atDone {
		require.Equal(t, v2Done+12*fakeTPROG, eraseAt, "the erase is queued when version 2's word line is final")
		require.Equal(t, int64(24), f.ftl.Stats.FinalityPads, "12 each: the first Flush makes version 1 final in B the same way")
	} else {
		require.Equal(t, v2Done, eraseAt, "the erase is queued when version 2's program completes")
		require.Zero(t, f.ftl.Stats.FinalityPads)
	}
	require.Zero(t, f.newer[b])
	rec, err := f.RecoverNow()
	require.NoError(t, err)
	require.Equal(t, f.ftl.Lookup(7), rec.Map[7])
	a := f.geo.Addr(f.geo.PageOf(rec.Map[7]))
	require.Equal(t, Stamp(7, 2), r.flash.pages[ftlPage{a.Die, a.Plane, a.Block, a.Page}])
	require.Equal(t, int64(1), f.Stats.GCRuns)
}
