package ftl

import (
	"errors"
	"fmt"
)

// Flexible Data Placement in the FTL (NVMe Base Specification 2.1, "Flexible Data
// Placement"): each host write names a reclaim unit handle (RUH; the firmware turns the
// write's placement identifier into one), and the FTL writes the data of each handle into
// reclaim units (RUs) of that handle alone.
//
// A reclaim unit here is a superblock: one erase block on every plane of every die, the
// unit real FDP drives report (Samsung's PM9D3 family reports RUs of a few GiB: superblocks
// of their array). A handle's current RU is filled as the write buffer evicts the handle's
// pages to the dies the evictor visits: the RU's block on a plane is opened when the first
// page for that plane comes, and the handle moves on to a fresh RU only when every block of
// the current one is full. A die whose blocks of the RU are full takes no more of the
// handle's pages until then (the allocation fails there and the evictor tries another die),
// as a superblock FTL writes a superblock's blocks in step. The nominal RU size is
// dies × planes × pages a block × page size.
//
// Garbage collection keeps isolation as the handle's type says: an initially isolated
// handle's valid data moves into the FTL's shared GC stream (where handles may mix), a
// persistently isolated handle's into GC blocks of its own (per plane), so its data never
// shares a block with another handle's. Blocks are reclaimed one at a time by the existing
// GC (its victim policy picks blocks, not RUs): an RU is the unit of placement and
// isolation, not of erasure, which the specification leaves to the controller.
//
// Check verifies the isolation: every block belongs to one handle (or to the shared GC
// stream), and every valid page in it was last written by the host through that handle
// (the per-page tag, set when the host write was placed, independently of the block's
// owner); pages in the shared GC stream belong to initially isolated handles only.

// MaxHandles bounds the reclaim unit handles of an FTL with placement (tags are bytes).
const MaxHandles = 255

// ownerNone, ownerShared: block owners other than a handle (handle h is owner h+1).
const (
	ownerNone   uint8 = 0
	ownerShared uint8 = 0xFF // the FTL's shared GC stream
)

// HandleStats are one reclaim unit handle's writes: logical pages the host wrote through it
// (after the write buffer) and pages of its data GC moved.
type HandleStats struct {
	HostWrites, GCWrites int64
	// ReclaimUnits counts the RUs the handle has started (its first included).
	ReclaimUnits int64
}

// WAF returns the handle's write amplification, (host + GC) / host, 0 before any write.
func (s HandleStats) WAF() float64 {
	if s.HostWrites == 0 {
		return 0
	}
	return float64(s.HostWrites+s.GCWrites) / float64(s.HostWrites)
}

// reclaimUnit is a handle's current RU: its block on each plane (die·Planes + plane),
// NoBlock until opened, and how many pages it has taken.
type reclaimUnit struct {
	blocks  []BlockID
	full    int   // blocks of the RU that are full
	written int64 // pages taken
	rr      []int // per die: the plane the next write tries first
}

// placement is the FTL's Flexible Data Placement state (nil without FDP).
type placement struct {
	f          *FTL
	persistent []bool        // per handle: persistently isolated
	next       []uint8       // per logical page: the handle its next host write goes through
	tag        []uint8       // per logical page: the handle its flash copy was written through
	owner      []uint8       // per block: ownerNone, ownerShared or handle+1
	ru         []reclaimUnit // per handle: its current RU
	gcWP       [][]BlockID   // per persistent handle: its GC write point per plane
	stats      []HandleStats
	// implicit, if set, is told when the FTL moves a handle to a fresh RU on its own
	// (blocked below): the handle and the pages its previous RU had taken.
	implicit func(h int, written int64)
}

// OnImplicitUpdate sets the function told when the FTL moves a handle to a fresh reclaim
// unit without the host asking (the FDP controller event Implicitly Modified Reclaim Unit
// Handle, 81h).
func (f *FTL) OnImplicitUpdate(fn func(h int, written int64)) { f.place.implicit = fn }

// EnablePlacement turns Flexible Data Placement on with one reclaim unit handle per entry
// of persistent (true: persistently isolated; false: initially isolated). Call it on a
// fresh FTL, before preconditioning. It needs one mapping unit a page and page-level
// mapping.
func (f *FTL) EnablePlacement(persistent []bool) error {
	switch {
	case len(persistent) < 1 || len(persistent) > MaxHandles:
		return fmt.Errorf("ftl: %d reclaim unit handles; 1 … %d", len(persistent), MaxHandles)
	case f.k > 1:
		return errors.New("ftl: Flexible Data Placement needs one mapping unit a flash page (firmware.page_size = flash.die.page_size)")
	case f.hyb != nil:
		return fmt.Errorf("ftl: Flexible Data Placement needs page-level mapping (firmware.ftl.mapping is %s)", f.cfg.mapping())
	}
	p := &placement{f: f, persistent: append([]bool(nil), persistent...),
		next: make([]uint8, len(f.l2p)), tag: make([]uint8, len(f.l2p)), owner: make([]uint8, len(f.blocks)),
		ru: make([]reclaimUnit, len(persistent)), gcWP: make([][]BlockID, len(persistent)),
		stats: make([]HandleStats, len(persistent))}
	for h := range p.ru {
		p.ru[h] = reclaimUnit{blocks: make([]BlockID, len(f.planes)), rr: make([]int, f.g.Dies())}
		p.freshRU(h)
		if persistent[h] {
			p.gcWP[h] = make([]BlockID, len(f.planes))
			for i := range p.gcWP[h] {
				p.gcWP[h][i] = NoBlock
			}
		}
	}
	f.place = p
	return nil
}

// Placement reports whether Flexible Data Placement is on.
func (f *FTL) Placement() bool { return f.place != nil }

// Place records that the next host write of lpn goes through reclaim unit handle h (the
// firmware calls it when the page enters the write buffer; the FTL places the page when
// it is evicted).
func (f *FTL) Place(lpn int64, h int) { f.place.next[lpn] = uint8(h) }

// HandleOf returns the reclaim unit handle lpn's flash copy was written through.
func (f *FTL) HandleOf(lpn int64) int { return int(f.place.tag[lpn]) }

// Handles returns the number of reclaim unit handles (0 without placement).
func (f *FTL) Handles() int {
	if f.place == nil {
		return 0
	}
	return len(f.place.ru)
}

// HandleStats returns handle h's writes.
func (f *FTL) HandleStats(h int) HandleStats { return f.place.stats[h] }

// ReclaimUnitPages returns the pages of one reclaim unit: a block on every plane.
func (f *FTL) ReclaimUnitPages() int64 { return int64(len(f.planes)) * int64(f.g.PagesPerBlock) }

// ReclaimUnitLeft returns the pages handle h's current reclaim unit can still take.
func (f *FTL) ReclaimUnitLeft(h int) int64 { return f.ReclaimUnitPages() - f.place.ru[h].written }

// UpdateHandle moves handle h to a fresh reclaim unit (I/O Management Send, Reclaim Unit
// Handle Update) and returns the pages its previous one had taken: if that is neither 0
// nor the whole RU, the previous RU was not fully written. Its open blocks stay open and
// owned by h (they fill no further; GC reclaims them when their data is invalid).
func (f *FTL) UpdateHandle(h int) (written int64) {
	p := f.place
	written = p.ru[h].written
	if written > 0 {
		for _, b := range p.ru[h].blocks {
			if b != NoBlock && f.blocks[b].state == stOpen {
				f.seal(b)
			}
		}
		p.freshRU(h)
	}
	return written
}

// seal closes open block b early: its unwritten pages are skipped (wasted until erase),
// as a firmware closes a reclaim unit the host moved away from.
func (f *FTL) seal(b BlockID) {
	for f.blocks[b].state == stOpen {
		f.skip(b)
		f.Stats.SkippedByFG-- // not a foreground skip: skip counted it as one
	}
}

// freshRU gives handle h a new, empty reclaim unit.
func (p *placement) freshRU(h int) {
	ru := &p.ru[h]
	for i := range ru.blocks {
		ru.blocks[i] = NoBlock
	}
	ru.full, ru.written = 0, 0
	p.stats[h].ReclaimUnits++
}

// allocate places a host write of lpn on die for its handle (Place): the next page of the
// handle's RU block on the die's next plane, opening it if this RU has none there yet. It
// fails with ErrNoSpace if the die's blocks of the RU are full (or cannot be opened outside
// the GC reserve) while the RU is not, unless the RU is blocked: no plane of it can take a
// page (each full, or with no free block outside the GC reserve to open) while this die
// could open a block. A blocked RU would refuse the handle's data on every die until GC
// frees blocks on the missing planes (and never, once GC has stopped at a power cut), so
// the controller moves the handle to a fresh RU on its own, as the specification lets it
// (the Implicitly Modified Reclaim Unit Handle event).
func (p *placement) allocate(lpn int64, die int) (PPN, error) {
	pg, err := p.place(lpn, die)
	if err == nil {
		return pg, nil
	}
	h := int(p.next[lpn])
	if p.ru[h].written == 0 || !p.blocked(h) || !p.canOpen(die) {
		return NoPage, err
	}
	written := p.ru[h].written
	p.freshRU(h)
	if p.implicit != nil {
		p.implicit(h, written)
	}
	return p.place(lpn, die)
}

// blocked reports whether handle h's RU can take no page on any plane.
func (p *placement) blocked(h int) bool {
	f := p.f
	for pi, b := range p.ru[h].blocks {
		switch {
		case b == retiredMember:
		case b == NoBlock:
			if f.planes[pi].freeN > f.cfg.GCReserve {
				return false
			}
		case f.blocks[b].state == stOpen:
			return false
		}
	}
	return true
}

// canOpen reports whether some plane of die has a free block outside the GC reserve.
func (p *placement) canOpen(die int) bool {
	f := p.f
	for pl := range f.g.Planes {
		if f.planes[die*f.g.Planes+pl].freeN > f.cfg.GCReserve {
			return true
		}
	}
	return false
}

// place is allocate within the handle's current RU (a fresh one once it is full).
func (p *placement) place(lpn int64, die int) (PPN, error) {
	f := p.f
	h := int(p.next[lpn])
	ru := &p.ru[h]
	if ru.full == len(ru.blocks) {
		p.freshRU(h)
	}
	planes := f.g.Planes
	for try := 0; try < planes; try++ {
		plane := (ru.rr[die] + try) % planes
		pi := die*planes + plane
		b := ru.blocks[pi]
		if b == retiredMember {
			continue // GC reclaimed this RU's block of the plane after it filled
		}
		if b == NoBlock {
			nb, ok := f.openBlock(pi, false)
			if !ok {
				continue
			}
			b, ru.blocks[pi] = nb, nb
			p.owner[nb] = uint8(h) + 1
		}
		if f.blocks[b].state != stOpen {
			continue // this RU's block of the plane is full
		}
		ru.rr[die] = (plane + 1) % planes
		pg := f.take(b)
		if f.blocks[b].state == stFull {
			ru.full++
		}
		ru.written++
		p.tag[lpn] = uint8(h)
		p.stats[h].HostWrites++
		return pg, nil
	}
	return NoPage, ErrNoSpace
}

// allocateGC places GC's copy of lpn on die: in the handle's own GC blocks if it is
// persistently isolated, else in the shared GC stream.
func (p *placement) allocateGC(lpn int64, die int) PPN {
	f := p.f
	h := int(p.tag[lpn])
	p.stats[h].GCWrites++
	if !p.persistent[h] {
		pg := f.allocateGC(die)
		p.owner[f.g.BlockOf(pg)] = ownerShared
		return pg
	}
	wp := p.gcWP[h]
	ds := &f.dies[die]
	for try := 0; try < f.g.Planes; try++ {
		plane := (ds.gcPlaneRR + try) % f.g.Planes
		pi := die*f.g.Planes + plane
		if wp[pi] == NoBlock || f.blocks[wp[pi]].state == stFull {
			b, ok := f.openBlock(pi, true)
			if !ok {
				wp[pi] = NoBlock
				continue
			}
			wp[pi] = b
			p.owner[b] = uint8(h) + 1
		}
		ds.gcPlaneRR = (plane + 1) % f.g.Planes
		return f.take(wp[pi])
	}
	panic(fmt.Sprintf("ftl: die %d has no free block left for handle %d's GC: over-provisioning too small or GC reserve exhausted", die, h))
}

// erased forgets block b: its owner, and any RU or GC write point naming it.
func (p *placement) erased(b BlockID) {
	p.owner[b] = ownerNone
	die, plane, _ := p.f.g.BlockAddr(b)
	pi := die*p.f.g.Planes + plane
	for h := range p.ru {
		if p.ru[h].blocks[pi] == b {
			// A block of the current RU reclaimed (its data all invalid): the RU keeps its
			// count of full blocks, and takes no more pages on that plane.
			p.ru[h].blocks[pi] = retiredMember
		}
		if p.gcWP[h] != nil && p.gcWP[h][pi] == b {
			p.gcWP[h][pi] = NoBlock
		}
	}
}

// retiredMember marks an RU's block that GC reclaimed while the RU was current.
const retiredMember = BlockID(0xFFFFFFFE)

// gcFor allocates GC's copy of lpn on die: through placement when it is on.
func (f *FTL) gcFor(lpn int64, die int) PPN {
	if f.place != nil {
		return f.place.allocateGC(lpn, die)
	}
	return f.allocateGC(die)
}

// allocate asks for the page of a host write of lpn on die: the placement's when FDP is
// on, otherwise the allocator's.
func (f *FTL) allocate(lpn int64, die int, purpose Purpose) (PPN, error) {
	if f.slc != nil { // the SLC cache first while it has room (slccache.go)
		if p, ok := f.allocateSLC(die); ok {
			return p, nil
		}
	}
	if f.place != nil {
		return f.place.allocate(lpn, die)
	}
	if f.zones != nil {
		if a := f.zones.zoneOf(lpn); a != nil {
			return f.zoneAllocate(a, lpn, die)
		}
	}
	return f.alloc.Allocate(lpn, die, purpose)
}

// check verifies placement's invariants: block owners and page tags agree (isolation).
func (p *placement) check(bad func(format string, a ...any)) {
	f := p.f
	for bi := range f.blocks {
		b := BlockID(bi)
		m := &f.blocks[b]
		o := p.owner[b]
		if m.state == stFree {
			if o != ownerNone {
				bad("free block %d still has owner %d", b, o)
			}
			continue
		}
		if m.valid == 0 {
			continue
		}
		if o == ownerNone {
			bad("block %d holds %d valid pages but belongs to no reclaim unit handle", b, m.valid)
			continue
		}
		first := Unit(f.g.FirstPage(b))
		for i := Unit(0); i < Unit(m.next); i++ {
			v := f.p2l.at(int64(first + i))
			if v > maxLPN {
				continue
			}
			h := p.tag[v]
			switch {
			case int(h) >= len(p.ru):
				bad("lpn %d is tagged with handle %d of %d", v, h, len(p.ru))
			case o == ownerShared && p.persistent[h]:
				bad("block %d of the shared GC stream holds lpn %d of persistently isolated handle %d", b, v, h)
			case o != ownerShared && h != o-1:
				bad("block %d of reclaim unit handle %d holds lpn %d written through handle %d: two handles' data in one reclaim unit", b, o-1, v, h)
			}
		}
	}
	for h := range p.ru {
		full := 0
		for pi, b := range p.ru[h].blocks {
			switch {
			case b == NoBlock:
			case b == retiredMember:
				full++
			case p.owner[b] != uint8(h)+1:
				bad("handle %d's reclaim unit names block %d (plane %d) owned by %d", h, b, pi, p.owner[b])
			case f.blocks[b].state == stFull:
				full++
			}
		}
		if full != p.ru[h].full {
			bad("handle %d's reclaim unit counts %d full blocks, %d are", h, p.ru[h].full, full)
		}
	}
}
