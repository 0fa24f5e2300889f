package ftl

import (
	"errors"
	"fmt"
	"slices"
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
//
// Reclaim groups (FDP configuration NRG > 1): the dies are split into NRG equal groups of
// consecutive channel-first interleaved positions (InterleavedDie), so each group spans
// the channels as evenly as the count allows, and a handle has a current RU in every
// group: one block on every plane of the group's dies. A write names its group (the
// placement identifier's reclaim group bits) or leaves the choice to the controller
// (AnyGroup: a write without a placement directive); a page for group g goes only to g's
// dies (allocation fails elsewhere and the evictor tries another die), and GC copies a
// page on its own die, so it never leaves its group. Check verifies that too: every valid
// page written for a group lies on that group's dies.
//
// The logical space is not divided among the groups, so a host can write more valid data
// for one group than its dies hold, and a group's GC can run out of room to work in (its
// planes at the GC reserve with victims nearly all valid). When a page's group cannot
// take it on any of its dies — no plane there has a free block above the GC reserve or an
// open block of the page's handle's current RU in the group — the controller writes it in the group of
// the die it is evicted to, as a write naming no group, counts it (GroupFallbacks) and
// tells the firmware (OnGroupFallback; it logs Media Reallocated, 80h):
// waiting could last for good (a group full of valid data), and host writes never wait
// on one group while others have room. The specification leaves a full reclaim group to
// the controller; this one keeps the drive writable, and the count shows how often.

// MaxHandles bounds the reclaim unit handles of an FTL with placement (tags are bytes).
const MaxHandles = 255

// AnyGroup is the reclaim group of a write that names none: the controller picks it (the
// group of the die the page is evicted to).
const AnyGroup = 0xFF

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

// reclaimUnit is a handle's current RU in one reclaim group: its block on each plane
// (die·Planes + plane; planes outside the group stay NoBlock), NoBlock until opened, and
// how many pages it has taken.
type reclaimUnit struct {
	blocks  []BlockID
	full    int   // blocks of the RU that are full
	written int64 // pages taken
	rr      []int // per die: the plane the next write tries first
	// seq counts the RUs the handle has started in the group; it names this one (the
	// firmware's reclaim unit time limit checks that an RU is still current).
	seq int64
}

// placement is the FTL's Flexible Data Placement state (nil without FDP).
type placement struct {
	f          *FTL
	persistent []bool  // per handle: persistently isolated
	next       []uint8 // per logical page: the handle its next host write goes through
	nextRG     []uint8 // per logical page: the reclaim group its next host write names, or AnyGroup
	tag        []uint8 // per logical page: the handle its flash copy was written through
	rgTag      []uint8 // per logical page: the group its flash copy was written for, or AnyGroup
	owner      []uint8 // per block: ownerNone, ownerShared or handle+1
	groupOf    []uint8 // per die: its reclaim group
	members    []int   // per reclaim group: its planes, the blocks of one of its RUs
	// ru is every handle's current RU in every group, group g's of handle h at
	// g·handles + h.
	ru    []reclaimUnit
	gcWP  [][]BlockID // per persistent handle: its GC write point per plane
	stats []HandleStats
	// implicit, if set, is told when the FTL moves a handle to a fresh RU on its own
	// (blocked below): the handle, the group and the pages its previous RU had taken.
	implicit func(h, g int, written int64)
	// started, if set, is told when a handle's RU in a group takes its first page.
	started func(h, g int, seq int64)
	// fellBack, if set, is told when a page of lpn written for handle h in group g is
	// written outside g (allocate): the controller placed it other than the host asked.
	fellBack func(lpn int64, h, g int)
	// fallbacks counts pages written outside their exhausted group; exhaustedAt and
	// exhaustedWas cache exhausted's answer per RU slot until the FTL's writes or erases
	// move.
	fallbacks    int64
	exhaustedAt  []int64
	exhaustedWas []bool
}

// OnImplicitUpdate sets the function told when the FTL moves a handle to a fresh reclaim
// unit without the host asking (the FDP controller event Implicitly Modified Reclaim Unit
// Handle, 81h).
func (f *FTL) OnImplicitUpdate(fn func(h, g int, written int64)) { f.place.implicit = fn }

// OnReclaimUnitStart sets the function told when handle h's reclaim unit in group g takes
// its first page: seq names that RU (ReclaimUnitSeq), so a timer can tell it is still
// current (the firmware's reclaim unit time limit).
func (f *FTL) OnReclaimUnitStart(fn func(h, g int, seq int64)) { f.place.started = fn }

// OnGroupFallback sets the function told when a host page of lpn, written for handle h
// in reclaim group g, is written outside g because g can take it on none of its dies
// (GroupFallbacks counts these).
func (f *FTL) OnGroupFallback(fn func(lpn int64, h, g int)) { f.place.fellBack = fn }

// EnablePlacement turns Flexible Data Placement on with one reclaim unit handle per entry
// of persistent (true: persistently isolated; false: initially isolated), in one reclaim
// group. Call it on a fresh FTL, before preconditioning. It needs one mapping unit a page
// and page-level mapping.
func (f *FTL) EnablePlacement(persistent []bool) error { return f.EnablePlacementGroups(persistent, 1) }

// EnablePlacementGroups is EnablePlacement with the dies split into groups reclaim groups
// (a divisor of the dies: each group has the same dies, so RUs have one size).
func (f *FTL) EnablePlacementGroups(persistent []bool, groups int) error {
	dies := f.g.Dies()
	if groups < 1 || groups >= AnyGroup || dies%groups != 0 {
		return fmt.Errorf("ftl: %d reclaim groups on %d dies: the groups must divide the dies (each group the same number of dies)", groups, dies)
	}
	sizes := make([]int, groups)
	for g := range sizes {
		sizes[g] = dies / groups
	}
	return f.EnablePlacementSized(persistent, sizes)
}

// EnablePlacementSized is EnablePlacement with reclaim groups of the given numbers of
// dies (in order; their sum the drive's dies): group g takes the next groupDies[g]
// channel-first interleaved positions, and its reclaim units are a block on every plane
// of its dies, so groups of different sizes have reclaim units of different sizes.
func (f *FTL) EnablePlacementSized(persistent []bool, groupDies []int) error {
	dies := f.g.Dies()
	sum := 0
	for g, n := range groupDies {
		if n < 1 {
			return fmt.Errorf("ftl: reclaim group %d has %d dies; each needs at least 1", g, n)
		}
		sum += n
	}
	groups := len(groupDies)
	switch {
	case len(persistent) < 1 || len(persistent) > MaxHandles:
		return fmt.Errorf("ftl: %d reclaim unit handles; 1 … %d", len(persistent), MaxHandles)
	case groups < 1 || groups >= AnyGroup || sum != dies:
		return fmt.Errorf("ftl: reclaim groups of %v dies on %d dies: the groups must share out the dies (%d given)", groupDies, dies, sum)
	case f.k > 1:
		return errors.New("ftl: Flexible Data Placement needs one mapping unit a flash page (firmware.page_size = flash.die.page_size)")
	case f.hyb != nil:
		return fmt.Errorf("ftl: Flexible Data Placement needs page-level mapping (firmware.ftl.mapping is %s)", f.cfg.mapping())
	}
	nh := len(persistent)
	p := &placement{f: f, persistent: append([]bool(nil), persistent...),
		next: make([]uint8, len(f.l2p)), nextRG: make([]uint8, len(f.l2p)), tag: make([]uint8, len(f.l2p)),
		rgTag: make([]uint8, len(f.l2p)), owner: make([]uint8, len(f.blocks)), groupOf: make([]uint8, dies),
		members: make([]int, groups),
		ru:      make([]reclaimUnit, groups*nh), gcWP: make([][]BlockID, nh), stats: make([]HandleStats, nh)}
	for i := range p.nextRG {
		p.nextRG[i], p.rgTag[i] = AnyGroup, AnyGroup
	}
	p.exhaustedAt, p.exhaustedWas = make([]int64, len(p.ru)), make([]bool, len(p.ru))
	for g := range p.exhaustedAt {
		p.exhaustedAt[g] = -1
	}
	i := 0
	for g, n := range groupDies {
		p.members[g] = n * f.g.Planes
		for range n {
			p.groupOf[f.g.InterleavedDie(i)] = uint8(g)
			i++
		}
	}
	for i := range p.ru {
		p.ru[i] = reclaimUnit{blocks: make([]BlockID, len(f.planes)), rr: make([]int, dies)}
		p.freshRU(i)
	}
	for h := range nh {
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

// Place records that the next host write of lpn goes through reclaim unit handle h, in
// reclaim group 0 or, with several groups, in the group the controller picks (the
// firmware calls it when the page enters the write buffer; the FTL places the page when
// it is evicted).
func (f *FTL) Place(lpn int64, h int) { f.PlaceGroup(lpn, h, AnyGroup) }

// PlaceGroup is Place for a write naming reclaim group g (AnyGroup: none).
func (f *FTL) PlaceGroup(lpn int64, h, g int) {
	f.place.next[lpn], f.place.nextRG[lpn] = uint8(h), uint8(g)
}

// NextPlacement returns the reclaim unit handle and group (AnyGroup: none named) lpn's
// next host write goes through: the placement of its page waiting in the write buffer.
func (f *FTL) NextPlacement(lpn int64) (h, g int) {
	return int(f.place.next[lpn]), int(f.place.nextRG[lpn])
}

// ReclaimGroups returns the reclaim groups (0 without placement).
func (f *FTL) ReclaimGroups() int {
	if f.place == nil {
		return 0
	}
	return len(f.place.ru) / len(f.place.stats)
}

// GroupOf returns the reclaim group of die d.
func (f *FTL) GroupOf(d int) int { return int(f.place.groupOf[d]) }

// ReclaimUnitSeq returns which of handle h's RUs in group g is current (counting from 1).
func (f *FTL) ReclaimUnitSeq(h, g int) int64 { return f.place.unit(h, g).seq }

// ReclaimUnitWritten returns the pages handle h's current RU in group g has taken.
func (f *FTL) ReclaimUnitWritten(h, g int) int64 { return f.place.unit(h, g).written }

// GroupFallbacks returns the pages written outside the reclaim group they named because
// that group was exhausted.
func (f *FTL) GroupFallbacks() int64 {
	if f.place == nil {
		return 0
	}
	return f.place.fallbacks
}

// exhausted reports whether group g can take no host page of handle h now: no plane of
// its dies has a free block above the GC reserve or an open block of h's current RU in
// g. The answer is kept until the FTL's page writes or erases change.
func (p *placement) exhausted(h, g int) bool {
	f := p.f
	ri := g*len(p.stats) + h
	at := f.Stats.HostWrites + f.Stats.GCWrites + f.Stats.Erases
	if p.exhaustedAt[ri] == at {
		return p.exhaustedWas[ri]
	}
	p.exhaustedAt[ri] = at
	p.exhaustedWas[ri] = false
	for d, dg := range p.groupOf {
		if int(dg) != g {
			continue
		}
		if p.canOpen(d) {
			return false
		}
		for pl := range f.g.Planes {
			if b := p.ru[ri].blocks[d*f.g.Planes+pl]; b != NoBlock && b != retiredMember && f.blocks[b].state == stOpen {
				return false
			}
		}
	}
	p.exhaustedWas[ri] = true
	return true
}

// unit returns handle h's current RU in group g.
func (p *placement) unit(h, g int) *reclaimUnit { return &p.ru[g*len(p.stats)+h] }

// HandleOf returns the reclaim unit handle lpn's flash copy was written through.
func (f *FTL) HandleOf(lpn int64) int { return int(f.place.tag[lpn]) }

// Handles returns the number of reclaim unit handles (0 without placement).
func (f *FTL) Handles() int {
	if f.place == nil {
		return 0
	}
	return len(f.place.stats)
}

// HandleStats returns handle h's writes.
func (f *FTL) HandleStats(h int) HandleStats { return f.place.stats[h] }

// ReclaimUnitPages returns the pages of one reclaim unit: a block on every plane of its
// reclaim group (every plane with one group). With groups of different sizes it is the
// largest group's, the nominal size the FDP configuration reports (RUNS).
func (f *FTL) ReclaimUnitPages() int64 {
	return int64(slices.Max(f.place.members)) * int64(f.g.PagesPerBlock)
}

// ReclaimUnitPagesIn returns the pages of one reclaim unit of group g: a block on every
// plane of g's dies.
func (f *FTL) ReclaimUnitPagesIn(g int) int64 {
	return int64(f.place.members[g]) * int64(f.g.PagesPerBlock)
}

// ReclaimUnitLeft returns the pages handle h's current reclaim unit in group g can still
// take.
func (f *FTL) ReclaimUnitLeft(h, g int) int64 {
	return f.ReclaimUnitPagesIn(g) - f.place.unit(h, g).written
}

// UpdateHandle moves handle h to a fresh reclaim unit in group g (I/O Management Send,
// Reclaim Unit Handle Update; the reclaim unit time limit) and returns the pages its
// previous one had taken: if that is neither 0 nor the whole RU, the previous RU was not
// fully written. Its open blocks are sealed (their unwritten pages skipped) and stay
// owned by h (they fill no further; GC reclaims them when their data is invalid).
func (f *FTL) UpdateHandle(h, g int) (written int64) {
	p := f.place
	ri := g*len(p.stats) + h
	written = p.ru[ri].written
	if written > 0 {
		for _, b := range p.ru[ri].blocks {
			if b != NoBlock && b != retiredMember && f.blocks[b].state == stOpen {
				f.seal(b)
			}
		}
		p.freshRU(ri)
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

// freshRU gives the handle of RU slot ri (group·handles + handle) a new, empty reclaim unit.
func (p *placement) freshRU(ri int) {
	ru := &p.ru[ri]
	for i := range ru.blocks {
		ru.blocks[i] = NoBlock
	}
	ru.full, ru.written = 0, 0
	ru.seq++
	p.stats[ri%len(p.stats)].ReclaimUnits++
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
	h, g := int(p.next[lpn]), int(p.groupOf[die])
	if r := p.nextRG[lpn]; r != AnyGroup && int(r) != g {
		if !p.exhausted(h, int(r)) {
			return NoPage, err // a die of another group
		}
		p.nextRG[lpn] = AnyGroup // its group is full for good: the controller's choice
		p.fallbacks++
		if p.fellBack != nil {
			p.fellBack(lpn, h, int(r))
		}
		return p.allocate(lpn, die)
	}
	ri := g*len(p.stats) + h
	if p.ru[ri].written == 0 || !p.blocked(ri, g) || !p.canOpen(die) {
		return NoPage, err
	}
	written := p.ru[ri].written
	p.freshRU(ri)
	if p.implicit != nil {
		p.implicit(h, g, written)
	}
	return p.place(lpn, die)
}

// blocked reports whether RU slot ri, of group g, can take no page on any plane.
func (p *placement) blocked(ri, g int) bool {
	f := p.f
	for pi, b := range p.ru[ri].blocks {
		switch {
		case int(p.groupOf[pi/f.g.Planes]) != g:
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

// place is allocate within the handle's current RU of the die's group (a fresh one once
// it is full); a die of another group than the write names takes nothing.
func (p *placement) place(lpn int64, die int) (PPN, error) {
	f := p.f
	h, g := int(p.next[lpn]), int(p.groupOf[die])
	if r := p.nextRG[lpn]; r != AnyGroup && int(r) != g {
		return NoPage, ErrNoSpace
	}
	ri := g*len(p.stats) + h
	ru := &p.ru[ri]
	if ru.full == p.members[g] {
		p.freshRU(ri)
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
		p.tag[lpn], p.rgTag[lpn] = uint8(h), p.nextRG[lpn]
		p.stats[h].HostWrites++
		if ru.written == 1 && p.started != nil {
			p.started(h, g, ru.seq)
		}
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
	for ri := range p.ru {
		if p.ru[ri].blocks[pi] == b {
			// A block of the current RU reclaimed (its data all invalid): the RU keeps its
			// count of full blocks, and takes no more pages on that plane.
			p.ru[ri].blocks[pi] = retiredMember
		}
	}
	for h := range p.gcWP {
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
		if p, ok := f.allocateSLC(die, purpose); ok {
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
		die, _, _ := f.g.BlockAddr(b)
		for i := Unit(0); i < Unit(m.next); i++ {
			v := f.p2l.at(int64(first + i))
			if v > maxLPN {
				continue
			}
			h := p.tag[v]
			switch {
			case p.rgTag[v] != AnyGroup && p.rgTag[v] != p.groupOf[die]:
				bad("block %d of reclaim group %d holds lpn %d written for reclaim group %d", b, p.groupOf[die], v, p.rgTag[v])
			case int(h) >= len(p.stats):
				bad("lpn %d is tagged with handle %d of %d", v, h, len(p.ru))
			case o == ownerShared && p.persistent[h]:
				bad("block %d of the shared GC stream holds lpn %d of persistently isolated handle %d", b, v, h)
			case o != ownerShared && h != o-1:
				bad("block %d of reclaim unit handle %d holds lpn %d written through handle %d: two handles' data in one reclaim unit", b, o-1, v, h)
			}
		}
	}
	for ri := range p.ru {
		h, g := ri%len(p.stats), ri/len(p.stats)
		full := 0
		for pi, b := range p.ru[ri].blocks {
			switch {
			case b == NoBlock:
			case int(p.groupOf[pi/f.g.Planes]) != g:
				bad("handle %d's reclaim unit in group %d names block %d of plane %d, outside the group", h, g, b, pi)
			case b == retiredMember:
				full++
			case p.owner[b] != uint8(h)+1:
				bad("handle %d's reclaim unit names block %d (plane %d) owned by %d", h, b, pi, p.owner[b])
			case f.blocks[b].state == stFull:
				full++
			}
		}
		if full != p.ru[ri].full {
			bad("handle %d's reclaim unit in group %d counts %d full blocks, %d are", h, g, p.ru[ri].full, full)
		}
	}
}
