package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/hwadapter"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestHoldupReserveSize: HoldupReserve by hand, ⌈(⌈buffer / k⌉ + dies × B) / (dies × planes
// × B)⌉ blocks a plane (B pages a block, k units a page):
//   - the small rig (tiny): 256 pages, 4 dies × 2 planes × 64: ⌈(256 + 256) / 512⌉ = 1;
//   - fastdrain-tlc: 131,072 pages, 480 one-plane dies × 512: ⌈(131,072 + 245,760) /
//     245,760⌉ = ⌈1.53⌉ = 2;
//   - a 4,000-page buffer on the small rig: ⌈(4,000 + 256) / 512⌉ = ⌈8.3⌉ = 9;
//   - 16 KiB pages of 4 KiB units (k = 4), 4,001 pages: ⌈(1,001 + 256) / 512⌉ = 3;
//   - none without power-loss protection, or with an unbounded (oracle) buffer.
func TestHoldupReserveSize(t *testing.T) {
	small := ftl.GeometryOf(2, 2, hwadapter.DieSpec(smallDie()))
	s := smallSpec(Vanilla, "sequential")
	require.Zero(t, HoldupReserve(s, small))
	s.PowerLossProtection = true
	require.Equal(t, 1, HoldupReserve(s, small))
	s.Buffer.Pages = 4000
	require.Equal(t, 9, HoldupReserve(s, small))
	k4 := small
	k4.UnitsPerPage = 4
	s.Buffer.Pages = 4001
	require.Equal(t, 3, HoldupReserve(s, k4))
	s.Buffer.Policy = OracleBG
	require.Zero(t, HoldupReserve(s, small))
	tlc := die.SpecFor(die.TLC)
	tlc.Planes, tlc.BlocksPerPlane, tlc.PagesPerBlock = 1, 128, 512
	p := DefaultSpec()
	p.PowerLossProtection, p.Buffer.Pages = true, 131072
	require.Equal(t, 2, HoldupReserve(p, ftl.GeometryOf(12, 40, hwadapter.DieSpec(tlc))))
}

// TestDrainUsesHoldupReserve: with power-loss protection the small rig keeps a hold-up
// reserve of 1 block a plane (TestHoldupReserveSize). The host streams' room is used up
// first (pages allocated straight from the FTL until every die refuses: each plane is down
// to the GC reserve plus the hold-up reserve, 1 + 1 = 2 free blocks), then the host writes
// 100 pages, which the vanilla buffer keeps (it evicts only when full), and the power is
// cut. The allocator has no room for any of them, so before the reserve the drain would
// have stopped at once, "stuck", losing all 100 acknowledged pages; now it dumps them into
// the reserve (ftl.FTL.Dump) and drains: 100 flushed, none lost, 100 dumped, every plane
// still holding its GC reserve block. The 100 pages spread over the 4 dies, 25 each, one
// program at a time on the fake die (558 µs, two pages when a program pairs both planes):
// the drain takes at least ⌈25 / 2⌉ × 558 = 7,254 µs and at most 25 × 558 = 13,950 µs,
// plus a few µs of DRAM reads. Recovery then maps each page to its dumped copy, which
// holds its version.
func TestDrainUsesHoldupReserve(t *testing.T) {
	s := smallSpec(Vanilla, "sequential")
	s.PowerLossProtection = true
	s.PowerLoss.Enabled = true
	r := newFake(t, s, 4096)
	f := r.fw
	require.Equal(t, 2, f.ftl.HostFloor())
	logical := f.LogicalPages()
	lpn := int64(0)
	for g := 0; g < f.geo.Dies(); g++ {
		for {
			if _, err := f.ftl.WriteHost(1000+lpn%(logical-1000), g, ftl.Background); err != nil {
				break
			}
			lpn++
		}
	}
	require.Equal(t, int64(4*2*30*64), lpn, "30 of 32 blocks a plane")
	require.Equal(t, int64(4*2*64), f.DrainRoom(), "one block a plane above the GC reserve")
	r.eng.Spawn("host", func(p *sim.Proc) {
		for i := int64(0); i < 100; i++ {
			r.cmd(p, nvme.OpWrite, i, 1, nvme.Hint{}, []uint64{Stamp(i, 2)})
		}
		require.Equal(t, 100, f.Buffer().Dirty())
		require.NoError(t, f.PowerCut())
	})
	r.eng.Run()
	rep := f.PowerLossReport()
	require.True(t, rep.Drained, rep.Outcome())
	require.Equal(t, int64(100), rep.Flushed)
	require.Zero(t, rep.Lost)
	require.Equal(t, int64(100), f.ftl.Stats.Dumped)
	require.GreaterOrEqual(t, rep.DrainTime(), 7254*sim.Microsecond)
	require.LessOrEqual(t, rep.DrainTime(), 13950*sim.Microsecond+20*sim.Microsecond)
	for g := 0; g < f.geo.Dies(); g++ {
		for pl := 0; pl < f.geo.Planes; pl++ {
			require.GreaterOrEqual(t, f.ftl.FreeBlocks(g, pl), 1, "die %d plane %d keeps its GC reserve", g, pl)
		}
	}
	rec, err := f.Recover()
	require.NoError(t, err)
	for i := int64(0); i < 100; i++ {
		a := f.geo.Addr(f.geo.PageOf(rec.Map[i]))
		require.Equal(t, Stamp(i, 2), r.flash.pages[ftlPage{a.Die, a.Plane, a.Block, a.Page}], "lpn %d", i)
	}
}
