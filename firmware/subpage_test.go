package firmware

import (
	"fmt"
	"testing"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/hwadapter"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// subPageDies makes newRig's dies hold k 4 KiB mapping units a page: 4096·k-byte pages
// with k out-of-band stamps each (die.Spec.Slots), the same 2 × 32 × 64 pages.
func subPageDies(k int) func(*channel.Spec) {
	return func(s *channel.Spec) { s.Die.PageSize, s.Die.Slots = 4096*k, k }
}

// TestIntegritySubPage is TestIntegritySteadyState with 2 and 4 mapping units a flash page
// (8 and 16 KiB pages): the whole span preconditioned 90 % full (k writes a page), random
// writes, reads (each page checked against the reference: the die returns every slot's
// stamp and the firmware takes the unit's), deallocates (trim per unit) and flushes
// (which pad pages), under the sequential, skip-to-lsb and latency-aware allocators, with
// GC packing victims' valid units k to a page and the FTL's
// invariants checked after every GC (Verify), per slot; 10 forced collisions of host
// rewrites with the evictor's and GC's programs. Then every page reads back.
func TestIntegritySubPage(t *testing.T) {
	ios := 4000
	if testing.Short() {
		ios = 1500
	}
	for _, k := range []int{2, 4} {
		for _, tc := range []struct {
			pol   Policy
			alloc string
		}{{Vanilla, "sequential"}, {FastDrain, "sequential"}, {Vanilla, "skip-to-lsb"}, {FastDrain, "latency-aware"}} {
			t.Run(fmt.Sprintf("k=%d/%v/%s", k, tc.pol, tc.alloc), func(t *testing.T) {
				r, ev, gc := spanRunOn(t, steadySpec(tc.pol, tc.alloc), subPageDies(k), ios, 5, 10)
				fl := r.fw.FTL()
				require.Equal(t, k, fl.UnitsPerPage())
				require.Positive(t, r.fw.Stats.GCRuns)
				require.Greater(t, fl.Stats.WAF(), 1.5)
				require.Positive(t, fl.Stats.Padded, "flushes pad pages")
				require.Positive(t, fl.Stats.Trims)
				require.Equal(t, 10, ev)
				require.Equal(t, 10, gc)
			})
		}
	}
}

// TestSubPageReadMovesOneUnit: with 4 units a 16 KiB page, four logical pages written
// together and flushed land in one page; pushed out of the buffer, each read of one of them
// is a flash read of its page that moves only its 4,096 bytes on the channel (the unit's
// columns), and returns its own version (its slot's stamp). A lone write then flushed is
// programmed as a page with 3 padded slots.
func TestSubPageReadMovesOneUnit(t *testing.T) {
	r := newRig(t, smallSpec(Vanilla, "sequential"), subPageDies(4))
	fl := r.fw.FTL()
	got := make([]uint64, 1)
	var out int64
	r.eng.Spawn("host", func(p *sim.Proc) {
		st := []uint64{Stamp(0, 1), Stamp(1, 1), Stamp(2, 1), Stamp(3, 1)}
		require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, 0, 4, nvme.Hint{}, st).status)
		r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
		require.Equal(t, int64(0), fl.Stats.Padded)
		page := fl.PageOf(fl.Lookup(0))
		for lpn := int64(0); lpn < 4; lpn++ {
			require.Equal(t, r.fw.geo.UnitOf(page, int(lpn)), fl.Lookup(lpn))
			r.fw.buf.Invalidate(lpn) // the clean copy leaves DRAM: the read goes to flash
		}
		before := r.busBytesOut()
		for lpn := int64(3); lpn >= 0; lpn-- {
			require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpRead, lpn, 1, nvme.Hint{}, got).status)
			require.Equal(t, Stamp(lpn, 1), got[0], "lpn %d", lpn)
		}
		out = r.busBytesOut() - before
		require.Equal(t, int64(4), r.fw.Stats.FlashReads)
		require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, 9, 1, nvme.Hint{}, []uint64{Stamp(9, 1)}).status)
		r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
		require.Equal(t, int64(3), fl.Stats.Padded)
	})
	r.eng.Run()
	require.Equal(t, int64(4*4096), out)
	require.NoError(t, fl.Check())
}

// busBytesOut returns the data bytes the rig's channels have moved out of the dies.
func (r *rig) busBytesOut() int64 {
	var n int64
	for _, c := range r.chans {
		n += c.Stats().BytesOut
	}
	return n
}

// TestSubPageConfigErrors: the unit must divide the flash page in 1, 2 or 4, and the dies
// must keep a stamp per unit; power-loss records are refused with several units a page.
func TestSubPageConfigErrors(t *testing.T) {
	s := smallSpec(Vanilla, "sequential")
	_, err := s.UnitsPerPage(12288)
	require.EqualError(t, err, "firmware.page_size: 4096-byte mapping units in 12288-byte flash pages are 3 a page; sub-page mapping packs 1, 2 or 4")
	_, err = s.UnitsPerPage(6144)
	require.EqualError(t, err, "firmware.page_size: 4096 does not divide the flash page size 6144 (flash.die.page_size)")
	_, err = s.UnitsPerPage(32768)
	require.ErrorContains(t, err, "are 8 a page")
	k, err := s.UnitsPerPage(16384)
	require.NoError(t, err)
	require.Equal(t, 4, k)
	d := smallDie()
	d.PageSize = 8192
	_, err = unitsPerPage(s, hwadapter.DieSpec(d))
	require.EqualError(t, err, "firmware: the flash dies keep 1 out-of-band stamps a page, the firmware packs 2 mapping units into one (die.Spec.Slots must be 2)")
	d.Slots = 2
	k, err = unitsPerPage(s, hwadapter.DieSpec(d))
	require.NoError(t, err)
	require.Equal(t, 2, k)
}
