package ftl

// SLCForeground is the allocator of FastDrain's latency-aware FTL on a drive with one-shot
// 3D NAND (issue 34 item 7; docs/fidelity.md "FastDrain on a modern drive"). The paper's
// FD-FTL sends foreground evictions to the fast LSB pages of 2D TLC and background ones to
// the slow CSB/MSB pages (Zhang et al., IEEE CAL 2020, §3). A one-shot word line programs
// its LSB, CSB and MSB pages together in one tPROG (docs/sources.md §3.4), so there is no
// fast page inside a native block; a modern drive's fast pages are its SLC cache (a pSLC
// program of 100–250 µs against 450 µs and more for the native word line). So foreground
// evictions go to the cache while it has room, and background evictions go directly to
// native (TLC/QLC) blocks, leaving the cache to the writes a full buffer waits for. The
// native pages are placed as the sequential allocator places them (one write point a
// plane, round robin over a die's planes). It needs ftl.slc_cache.
const SLCForeground = "slc-foreground"

func init() {
	RegisterAllocator(SLCForeground, func(s Space) Allocator { return &slcForeground{newSequential(s, false)} })
}

// SLCRouter is an optional capability of an Allocator on an FTL with an SLC cache: which
// host writes try the cache first. Without it every host write does (the conventional
// drive); a write it keeps out goes to the allocator's native block even while the cache
// has room (SLCStats.BypassWrites counts it).
type SLCRouter interface {
	// SLCFor reports whether a host write for purpose (Foreground or Background) goes to
	// the SLC cache while the cache has room.
	SLCFor(purpose Purpose) bool
}

// slcForeground is SLCForeground: the sequential allocator's native placement, with
// foreground writes routed to the SLC cache (SLCRouter) and the cache's room as its fast
// pages (FastPager).
type slcForeground struct{ *sequential }

// SLCFor implements SLCRouter: foreground writes only.
func (a *slcForeground) SLCFor(purpose Purpose) bool { return purpose == Foreground }

// HasFastPage implements FastPager: a foreground write on die would go to the SLC cache now
// (a plane of the die has an open SLC write point or room for one more SLC block).
func (a *slcForeground) HasFastPage(die int) bool { return a.f.slcRoomOnDie(die) }
