package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
)

// The hold-up reserve (power-loss protection). A drive with power-loss protection reports
// no volatile write cache, so every write it acknowledges must reach flash after a cut: the
// hold-up drain programs the dirty buffer on the capacitors' energy, and GC, which would
// take far longer than the energy lasts, no longer runs. The drain must therefore find
// room in the flash as it is at the cut, whatever GC was doing. Real PLP firmware keeps
// pre-erased blocks for it (a power-loss dump area); this firmware budgets the GC reserve
// and the buffer together the same way: with power_loss_protection, host streams may not
// open a block while a plane is down to ftl.gc_reserve plus HoldupReserve free blocks (GC
// starts above that floor: at ftl.gc_threshold, raised to the floor plus one if it was not
// above it), and the drain puts what the allocator cannot place into those blocks
// (ftl.FTL.Dump), leaving the GC reserve itself whole for the next power-on. While GC keeps
// up, the planes never come down to the floor, and nothing changes. An admission throttle (admitting host writes only
// while the dirty pages fit the free room) was the other way: it costs no capacity, but the
// room it counts depends on the allocator (skip-to-lsb and latency-aware foreground writes
// skip pages) and, under BAST, on which logical blocks have log blocks, so a reserve the
// drain fills densely is the one that holds for every allocator and mapping scheme.

// HoldupReserve returns the hold-up reserve in blocks a plane for spec on geometry g: 0
// without power_loss_protection, with an unbounded buffer (the oracle policies: no reserve
// holds it) or under the control firmware.power_loss.controls.no_holdup_reserve, else enough blocks, over all planes, for the buffer's pages (its
// firmware pages packed UnitsPerPage to a flash page) plus one block a die: the pages GC
// may have moved out of the victim it is collecting into blocks it took from the reserve,
// which the victim's erase would have given back had the power stayed on,
//
//	⌈(⌈buffer / k⌉ + dies × pages a block) / (dies × planes × pages a block)⌉.
//
// The tiny preset's 256-page buffer on 4 dies × 2 planes of 64-page blocks takes
// ⌈(256 + 256) / 512⌉ = 1 block a plane; fastdrain-tlc's 131,072 pages on 480 one-plane
// dies of 512-page blocks ⌈(131,072 + 245,760) / 245,760⌉ = 2.
func HoldupReserve(spec Spec, g ftl.Geometry) int {
	if !spec.PowerLossProtection || spec.Buffer.Policy.Unbounded() || spec.PowerLoss.Controls.NoHoldupReserve ||
		g.Dies() == 0 || g.Planes <= 0 || g.PagesPerBlock <= 0 {
		return 0
	}
	k := int64(g.Units())
	block := int64(g.PagesPerBlock)
	need := (int64(spec.Buffer.Pages)+k-1)/k + int64(g.Dies())*block
	per := int64(g.Dies()) * int64(g.Planes) * block
	return int((need + per - 1) / per)
}

// ftlConfig returns the FTL section with the hold-up reserve for geometry g.
func (s Spec) ftlConfig(g ftl.Geometry) ftl.Config {
	c := s.FTL
	c.HoldupReserve = HoldupReserve(s, g)
	return c
}

// placeHost maps lpn to a new page on die g for an eviction (ftl.WriteHost); after a power
// cut, a page the allocator has no room for goes to the hold-up reserve (ftl.FTL.Dump), if
// the firmware keeps one.
func (f *Firmware) placeHost(lpn int64, g int, purpose ftl.Purpose) (ftl.PPN, error) {
	p, err := f.ftl.WriteHost(lpn, g, purpose)
	if err != nil && f.pl.cut && f.ftl.Config().HoldupReserve > 0 {
		return f.ftl.Dump(g)
	}
	return p, err
}

// placeUnits is placeHost for the units packed into one page (ftl.WriteUnits).
func (f *Firmware) placeUnits(lpns []int64, g int, purpose ftl.Purpose) (ftl.PPN, error) {
	p, err := f.ftl.WriteUnits(lpns, g, purpose)
	if err != nil && f.pl.cut && f.ftl.Config().HoldupReserve > 0 {
		return f.ftl.Dump(g)
	}
	return p, err
}

// holdupNote names a hold-up reserve of r blocks a plane, with which GC starts at gcAt free
// blocks, in an error about GC's room; "" for none.
func holdupNote(r, gcAt int) string {
	if r == 0 {
		return ""
	}
	return fmt.Sprintf(" (with the hold-up reserve of %d blocks a plane kept for the power-loss drain of the write buffer, firmware.power_loss_protection, GC starts at %d free blocks)", r, gcAt)
}
