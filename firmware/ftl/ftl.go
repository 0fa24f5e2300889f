package ftl

import (
	"errors"
	"fmt"
	"math"

	"github.com/fastdrain-sim/fastdrain/internal/bitset"
)

// Purpose says why a page is being written; it steers the allocators.
type Purpose uint8

// Write purposes.
const (
	// Foreground: an urgent buffer eviction (the buffer is, or is about to be, full).
	Foreground Purpose = iota
	// Background: an eviction with time to spare.
	Background
	// GC: a valid page moved by garbage collection. GC has its own write points, so its
	// programs never interleave with host programs inside one block.
	GC
)

// ErrNoSpace is returned when a host write finds no block to program without dipping into
// the GC reserve; the caller waits for GC and retries.
var ErrNoSpace = errors.New("ftl: no free page outside the GC reserve")

// Reverse-map markers for physical units that hold no logical page.
const (
	pFree    uint32 = 0xFFFFFFFF // erased, not yet programmed
	pInvalid uint32 = 0xFFFFFFFE // programmed, data superseded or trimmed, or a padded slot
	pWasted  uint32 = 0xFFFFFFFD // skipped by an allocator; unusable until erased
	maxLPN   uint32 = 0xFFFFFFFC
)

type blockState uint8

const (
	stFree blockState = iota
	stOpen
	stFull
	stBad // in the bad-block table (badblock.go): never allocated, collected or erased
)

// blockMeta is the per-block state: 16 bytes.
type blockMeta struct {
	next   uint16 // next free page index
	valid  uint16 // units holding current data (pages, with one unit a page)
	wasted uint16 // pages skipped
	state  blockState
	gc     bool   // opened by the GC stream
	erases uint32 // P/E cycles
	age    uint32 // allocation clock (in blocks' worth of pages) at the last program
}

// planeState holds a plane's free blocks (FIFO, which spreads wear) and GC write point
// (host write points belong to the allocator).
type planeState struct {
	free     []BlockID // ring buffer of capacity BlocksPerPlane
	freeHead int
	freeN    int
	gcWP     BlockID
}

// dieState holds the per-die GC cursor, skip count and bad-block counts.
type dieState struct {
	gcPlaneRR int
	lsbOnly   int // blocks holding skipped pages, not yet erased (the skip region)
	// skipFull counts the skip region's full blocks: GC may reclaim them (skipReclaimAt).
	skipFull int
	reclaim  bool // the skip region is due for reclaim (reclaimsSkip), kept by skipChanged
	merges   int  // a hybrid mapping scheme's merges queued on the die, not yet started
	// The die's bad blocks, which its spare pool replaces (badblock.go): factory and grown.
	factory, grown int
}

// FTL is the page-level flash translation layer.
type FTL struct {
	g      Geometry
	cfg    Config
	kinds  []PageKind    // page index → kind, cached from g.Kind
	l2p    table[Unit]   // logical page → physical unit
	p2l    table[uint32] // physical unit → logical page or a marker
	k      int           // mapping units per page (g.Units())
	shift  uint          // log2 k: unit u is in page u >> shift
	one    [1]int64      // WriteHost's one logical page, as a slice without allocating
	blocks []blockMeta
	planes []planeState // indexed die·Planes + plane
	dies   []dieState
	clock  uint64    // pages allocated so far
	pre    *preState // closed form of the fast precondition, if one ran
	alloc  Allocator // places host writes (cfg.Allocator)
	victim VictimPolicy
	// bounded is set (Space.Bounded) when the allocator's current foreground pick could not
	// reach an LSB page within its bounds (Stats.FGBounded).
	bounded bool
	skipped bool // the current allocation skipped a page (Stats.LSBAfterSkip)
	bad     int  // blocks in the bad-block table
	spare   int  // each die's spare pool, in blocks (Config.SparePool)
	// hyb is the hybrid mapping scheme (mapping.go), nil for page-level mapping.
	hyb hybrid
	// gcAt is Config.gcAt: a plane with this many free blocks or fewer needs GC.
	gcAt int
	// skipReclaimAt is the skip region's size at which a die's GC reclaims its full blocks
	// (the latency-aware allocator with lsb_only_reclaim: its lsb_only_blocks; reclaim.go),
	// math.MaxInt for none.
	skipReclaimAt int
	// place is Flexible Data Placement (placement.go), nil without it.
	place *placement
	// slc is the SLC cache (slccache.go), nil without it.
	slc *slcCache
	// zones are the zoned namespaces' areas (zones.go), nil without one.
	zones *zoned
	// mounted marks the blocks Mount closed whose abandoned pages are not yet erased
	// (mount.go): wasted, but outside the skip region. Nil unless a mount closed one.
	mounted bitset.Set
	Stats   Stats
}

// Stats are the FTL's cumulative counters.
type Stats struct {
	HostWrites int64 // logical pages written by the host (after buffering)
	GCWrites   int64 // logical pages (units) moved by GC
	// Padded counts the slots of programmed pages that held no data (sub-page mapping: a
	// page programmed with fewer than UnitsPerPage units, at a flush, a power-cut drain or
	// the end of a GC batch); 0 with one unit a page.
	Padded       int64
	Programmed   [numKinds]int64 // pages programmed, by kind
	Wasted       int64           // pages skipped by allocators (cumulative)
	WastedNow    int64           // skipped pages not yet reclaimed by erase
	Erases       int64
	GCVictims    int64 // blocks picked by GC
	Trims        int64
	SkippedByFG  int64 // pages skipped on behalf of foreground writes
	LSBForFG     int64 // foreground writes that landed on LSB pages
	LSBAfterSkip int64 // of those, the writes that skipped pages to reach their LSB page
	ForegroundWr int64 // foreground writes
	// FGBounded counts foreground writes that took a CSB or MSB page because no LSB page was
	// left within the bounds: no open block at an LSB page, the LSB-only region
	// (LSBOnlyPages) with no room for another block, and the skip region (LSBOnlyBlocks)
	// full. The latency-aware allocator puts every other foreground write on an LSB page.
	FGBounded int64
	// SkipReclaims counts the skip region's blocks GC picked to reclaim on a plane with free
	// blocks to spare (reclaim.go); GCVictims counts them too.
	SkipReclaims int64
	// Where the waste comes from (issue 31 item 7). LostAtClose counts the skipped pages
	// (of Wasted) that ran to a block's last page: a skip that found no LSB page left in the
	// block closed it with them. LeftBehind counts the CSB/MSB pages a foreground write left
	// at the head of its block by taking the LSB page before them (the latency-aware
	// allocator: the block moves to the CSB/MSB group for background writes to fill);
	// BehindFilled counts those later programmed, BehindSkipped those later skipped by a
	// foreground write (in Wasted too). NAND programs a block's pages in order (die/ops.go),
	// so a skipped page is never filled: only pages left behind, not skipped, can be.
	LostAtClose, LeftBehind, BehindFilled, BehindSkipped int64
	// The bad-block table (badblock.go).
	FactoryBad int64 // blocks marked bad at build
	Retired    int64 // blocks retired after a failed program or erase
	Rewrites   int64 // pages re-programmed elsewhere (a failed program, or a retired block's valid page)
	// Merges of a hybrid mapping scheme (mapping.go); their copies count in GCWrites too.
	SwitchMerges, PartialMerges, FullMerges int64
	MergeCopies                             int64 // pages copied by merges
	// Dumped counts the pages the hold-up drain after a power cut placed with Dump (in the
	// hold-up reserve, outside the map).
	Dumped int64
	// FinalityPads counts the pages programmed with no data to make an open block's
	// provisional pages final (PadNext: a Flush, an FUA write, the hold-up drain's end, or
	// an erase waiting for a copy's word line).
	FinalityPads int64
}

// WAF returns the write amplification factor: logical pages (units) written to flash per
// host page written. Padded slots are not counted (Padded gives them).
func (s Stats) WAF() float64 {
	if s.HostWrites == 0 {
		return 0
	}
	return float64(s.HostWrites+s.GCWrites) / float64(s.HostWrites)
}

// New builds an FTL over geometry g with every block free and no page mapped, with the
// allocator and GC victim policy the configuration names.
func New(g Geometry, cfg Config) (*FTL, error) {
	if err := errors.Join(g.Validate(), cfg.Validate(g)); err != nil {
		return nil, err
	}
	newAlloc, _ := allocators.Lookup(cfg.Allocator)
	newVictim, _ := victims.Lookup(cfg.GCVictim)
	logical := cfg.logicalPages(g)
	f := &FTL{g: g, cfg: cfg, k: g.Units(), gcAt: cfg.gcAt(), skipReclaimAt: math.MaxInt}
	for 1<<f.shift < f.k {
		f.shift++
	}
	f.kinds = make([]PageKind, g.PagesPerBlock)
	for i := range f.kinds {
		f.kinds[i] = g.Kind(i)
	}
	f.l2p = make(table[Unit], logical)        // all NoUnit
	f.p2l = make(table[uint32], g.AllUnits()) // all pFree
	f.blocks = make([]blockMeta, g.Blocks())
	f.planes = make([]planeState, g.Dies()*g.Planes)
	for pi := range f.planes {
		ps := &f.planes[pi]
		ps.free = make([]BlockID, g.BlocksPerPlane)
		for b := 0; b < g.BlocksPerPlane; b++ {
			ps.free[b] = BlockID(pi*g.BlocksPerPlane + b)
		}
		ps.freeN = g.BlocksPerPlane
		ps.gcWP = NoBlock
	}
	f.dies = make([]dieState, g.Dies())
	f.spare = cfg.SparePool(g)
	f.alloc = newAlloc(Space{View{f}})
	f.victim = newVictim(View{f})
	newMapping, _ := mappings.Lookup(cfg.mapping())
	f.hyb = newMapping(f)
	newSLCCache(f)
	return f, nil
}

// Geometry returns the array geometry.
func (f *FTL) Geometry() Geometry { return f.g }

// Config returns the policy configuration.
func (f *FTL) Config() Config { return f.cfg }

// LogicalPages returns the number of logical pages exported to the host.
func (f *FTL) LogicalPages() int64 { return int64(len(f.l2p)) }

// Kind returns the kind of page index i within a block.
func (f *FTL) Kind(i int) PageKind { return f.kinds[i] }

// UnitsPerPage returns the mapping units a physical page holds (Geometry.Units).
func (f *FTL) UnitsPerPage() int { return f.k }

// Lookup returns the physical unit holding lpn (its page with one unit a page), or NoUnit.
func (f *FTL) Lookup(lpn int64) Unit { return f.l2p.at(lpn) }

// PageOf returns the page holding unit u (Geometry.PageOf, by a shift).
func (f *FTL) PageOf(u Unit) PPN { return PPN(u >> f.shift) }

// SlotOf returns unit u's slot in its page (Geometry.SlotOf, by a mask).
func (f *FTL) SlotOf(u Unit) int { return int(u) & (f.k - 1) }

// Owner returns the logical page stored in physical unit u and whether u holds current data.
func (f *FTL) Owner(u Unit) (lpn int64, valid bool) {
	v := f.p2l.at(int64(u))
	if v > maxLPN {
		return 0, false
	}
	return int64(v), true
}

// FreeBlocks returns the number of free blocks of a plane.
func (f *FTL) FreeBlocks(die, plane int) int { return f.planes[die*f.g.Planes+plane].freeN }

// NeedsGC reports whether a plane is at or below the GC threshold (under a hybrid mapping
// scheme: whether the plane's die has a merge queued and not yet started).
func (f *FTL) NeedsGC(die, plane int) bool {
	d := &f.dies[die]
	if f.hyb != nil {
		return d.merges > 0 // a field, not a call: NeedsGC stays inlinable
	}
	pi := die*f.g.Planes + plane
	return f.planes[pi].freeN <= f.gcAt || d.reclaim || f.slc != nil && f.slc.wantsFold(pi)
}

// EraseCount returns the P/E cycles of block b.
func (f *FTL) EraseCount(b BlockID) int { return int(f.blocks[b].erases) }

// ValidCount returns the number of valid units (pages, with one unit a page) in block b.
func (f *FTL) ValidCount(b BlockID) int { return int(f.blocks[b].valid) }

// NextPage returns the next free page index of block b (PagesPerBlock when full).
func (f *FTL) NextPage(b BlockID) int { return int(f.blocks[b].next) }

// WriteHost maps lpn to a newly allocated page on die (invalidating its previous unit) and
// returns the page to program: WriteUnits of lpn alone (with several units a page, the
// others are padded). It returns ErrNoSpace when only the GC reserve is left. Under a
// hybrid mapping scheme (one unit a page) the page goes to die HomeDie(lpn) whatever die
// says, and ErrNoSpace means the page's logical block waits for a merge (NextMerge).
func (f *FTL) WriteHost(lpn int64, die int, purpose Purpose) (PPN, error) {
	if f.k > 1 {
		f.one[0] = lpn
		return f.WriteUnits(f.one[:], die, purpose)
	}
	if purpose == GC {
		panic("ftl: WriteHost with the GC purpose; use Relocate")
	}
	if f.hyb != nil {
		return f.hyb.write(lpn, purpose)
	}
	f.bounded, f.skipped = false, false
	p, err := f.allocate(lpn, die, purpose)
	if err != nil {
		return NoPage, err
	}
	f.Stats.HostWrites++
	if purpose == Foreground {
		f.countForeground(p, 1)
	}
	if f.slc != nil {
		f.slc.countHost(f, p, 1)
	}
	f.bind(lpn, Unit(p))
	return p, nil
}

// WriteUnits maps lpns (1 … UnitsPerPage distinct logical pages) to the slots of a newly
// allocated page on die, lpns[i] to slot i, invalidating their previous units, and returns
// the page to program. Slots past len(lpns) are padded: programmed with no data, invalid
// from the start (Stats.Padded). The allocator is asked for a page for lpns[0]. It returns
// ErrNoSpace, having changed nothing, when only the GC reserve is left.
func (f *FTL) WriteUnits(lpns []int64, die int, purpose Purpose) (PPN, error) {
	if purpose == GC {
		panic("ftl: WriteUnits with the GC purpose; use Relocate")
	}
	if len(lpns) == 0 || len(lpns) > f.k {
		panic(fmt.Sprintf("ftl: writing %d logical pages to a page of %d units", len(lpns), f.k))
	}
	f.bounded, f.skipped = false, false
	p, err := f.allocate(lpns[0], die, purpose)
	if err != nil {
		return NoPage, err
	}
	n := int64(len(lpns))
	f.Stats.HostWrites += n
	if purpose == Foreground {
		f.countForeground(p, n)
	}
	if f.slc != nil {
		f.slc.countHost(f, p, n)
	}
	u := Unit(p) << f.shift
	for i, lpn := range lpns {
		f.bind(lpn, u+Unit(i))
	}
	f.pad(u, len(lpns))
	return p, nil
}

// countForeground counts n units of a foreground write placed on page p: on an LSB page
// (after skipping pages to reach it, or not), or on a CSB/MSB page because the allocator's
// bounds left no LSB page.
func (f *FTL) countForeground(p PPN, n int64) {
	f.Stats.ForegroundWr += n
	switch {
	case f.kinds[f.pageIndex(p)] == LSB:
		f.Stats.LSBForFG += n
		if f.skipped {
			f.Stats.LSBAfterSkip += n
		}
	case f.bounded:
		f.Stats.FGBounded += n
	}
}

// HasFastPage reports whether a foreground write on die could be placed on a fast page now
// without skipping any: what the allocator says if it is a FastPager (the latency-aware
// one), true otherwise and under a hybrid mapping scheme.
func (f *FTL) HasFastPage(die int) bool {
	if fp, ok := f.alloc.(FastPager); ok && f.hyb == nil {
		return fp.HasFastPage(die)
	}
	return true
}

// FastPaging reports whether the allocator is a FastPager (and the mapping page-level), so
// the firmware may steer foreground writes to the dies that have fast pages.
func (f *FTL) FastPaging() bool {
	_, ok := f.alloc.(FastPager)
	return ok && f.hyb == nil
}

// pad marks slots from n on of the page whose first unit is u programmed with no data.
func (f *FTL) pad(u Unit, n int) {
	for i := n; i < f.k; i++ {
		f.p2l.put(int64(u)+int64(i), pInvalid)
		f.Stats.Padded++
	}
}

// Relocate moves the valid unit old to a new page allocated by the GC stream on the same
// die, updates the mapping and returns the new unit and its logical page: RelocateUnits of
// old alone (with several units a page, the new page's other slots are padded). The caller
// reads old and programs the new page.
func (f *FTL) Relocate(old Unit) (Unit, int64) {
	lpn, ok := f.Owner(old)
	if !ok {
		panic(fmt.Sprintf("ftl: relocating unit %d which holds no valid data", old))
	}
	if f.hyb != nil { // one unit a page: a unit is its page
		p, lpn := f.hyb.move(PPN(old))
		return Unit(p), lpn
	}
	if f.k > 1 {
		f.one[0] = int64(old) // stands for the unit while the slice is lent
		p := f.relocate(f.one[:])
		return Unit(p) << f.shift, lpn
	}
	if f.slc != nil {
		f.slc.foldMoved(f.g.BlockOf(PPN(old)), 1)
	}
	p := f.gcFor(lpn, f.g.Addr(PPN(old)).Die)
	f.Stats.GCWrites++
	f.bind(lpn, Unit(p))
	return Unit(p), lpn
}

// RelocateUnits moves the valid units olds (1 … UnitsPerPage of them, on one die) to the
// slots of one new page of the die's GC stream, olds[i] to slot i, padding the rest, and
// returns the page; the caller reads olds and programs it. Packing a victim's valid units
// into full pages is what makes GC with sub-page mapping cost a page program per
// UnitsPerPage units moved.
func (f *FTL) RelocateUnits(olds []Unit) PPN {
	if len(olds) == 0 || len(olds) > f.k {
		panic(fmt.Sprintf("ftl: relocating %d units to a page of %d units", len(olds), f.k))
	}
	var tmp [MaxUnitsPerPage]int64
	for i, u := range olds {
		if _, ok := f.Owner(u); !ok {
			panic(fmt.Sprintf("ftl: relocating unit %d which holds no valid data", u))
		}
		tmp[i] = int64(u)
	}
	return f.relocate(tmp[:len(olds)])
}

// relocate is RelocateUnits of the units in olds (as int64).
func (f *FTL) relocate(olds []int64) PPN {
	die := f.g.Addr(f.PageOf(Unit(olds[0]))).Die
	if f.slc != nil {
		f.slc.foldMoved(f.g.BlockOf(f.PageOf(Unit(olds[0]))), int64(len(olds)))
	}
	p := f.allocateGC(die)
	u := Unit(p) << f.shift
	for i, o := range olds {
		lpn, _ := f.Owner(Unit(o))
		f.Stats.GCWrites++
		f.bind(lpn, u+Unit(i))
	}
	f.pad(u, len(olds))
	return p
}

// Trim unmaps lpn; its unit becomes invalid.
func (f *FTL) Trim(lpn int64) {
	if old := f.l2p.at(lpn); old != NoUnit {
		f.invalidate(old)
		f.l2p.put(lpn, NoUnit)
		f.Stats.Trims++
	}
}

func (f *FTL) pageIndex(p PPN) int { return int(p) % f.g.PagesPerBlock }

// bind points lpn at unit u and invalidates lpn's previous unit.
func (f *FTL) bind(lpn int64, u Unit) {
	if old := f.l2p.at(lpn); old != NoUnit {
		f.invalidate(old)
	}
	f.l2p.put(lpn, u)
	f.p2l.put(int64(u), uint32(lpn))
	f.blocks[f.g.BlockOf(f.PageOf(u))].valid++
}

func (f *FTL) invalidate(u Unit) {
	f.p2l.put(int64(u), pInvalid)
	f.blocks[f.g.BlockOf(f.PageOf(u))].valid--
}

// take consumes the next free page of open block b and returns it.
func (f *FTL) take(b BlockID) PPN {
	m := &f.blocks[b]
	p := f.g.FirstPage(b) + PPN(m.next)
	m.next++
	f.clock++
	m.age = uint32(f.clock / uint64(f.g.PagesPerBlock))
	if f.slc != nil && f.slc.blocks.Has(int(b)) {
		f.takeSLC(b, m) // a block in SLC mode holds SLCPages pages
		return p
	}
	f.Stats.Programmed[f.kinds[int(m.next)-1]]++
	if int(m.next) == f.g.PagesPerBlock {
		f.closed(b, m)
	}
	return p
}

// skip marks the next free page of b wasted.
func (f *FTL) skip(b BlockID) {
	m := &f.blocks[b]
	if m.wasted == 0 {
		die, _, _ := f.g.BlockAddr(b)
		f.dies[die].lsbOnly++
		f.skipChanged(die)
	}
	u := int64(f.g.FirstPage(b)+PPN(m.next)) << f.shift
	for i := int64(0); i < int64(f.k); i++ {
		f.p2l.put(u+i, pWasted)
	}
	m.next++
	m.wasted++
	f.skipped = true
	f.Stats.Wasted++
	f.Stats.WastedNow++
	f.Stats.SkippedByFG++
	if int(m.next) == f.g.PagesPerBlock {
		f.closed(b, m)
		f.Stats.LostAtClose += int64(f.trailingWasted(b))
	}
}

// trailingWasted returns how many of block b's last pages, counting back from its end,
// were skipped: the pages a skip that reached the block's end closed it with.
func (f *FTL) trailingWasted(b BlockID) int {
	first := int64(f.g.FirstPage(b))
	n := 0
	for i := int64(f.g.PagesPerBlock) - 1; i >= 0 && f.p2l.at((first+i)<<f.shift) == pWasted; i-- {
		n++
	}
	return n
}

// openBlock takes a free block of plane pi; host streams may not use the GC reserve or
// the hold-up reserve.
func (f *FTL) openBlock(pi int, gc bool) (BlockID, bool) {
	limit := f.cfg.hostFloor()
	if gc {
		limit = 0
	}
	return f.openAbove(pi, limit, gc)
}

// openAbove takes a free block of plane pi if it has more than limit; gc marks it opened
// by the GC stream (whose write point the hold-up drain also takes, Dump).
func (f *FTL) openAbove(pi, limit int, gc bool) (BlockID, bool) {
	ps := &f.planes[pi]
	if ps.freeN <= limit {
		return NoBlock, false
	}
	b := ps.free[ps.freeHead]
	ps.freeHead++
	if ps.freeHead == len(ps.free) {
		ps.freeHead = 0
	}
	ps.freeN--
	m := &f.blocks[b]
	m.state, m.gc, m.next, m.valid, m.wasted = stOpen, gc, 0, 0, 0
	return b, true
}

// Erase returns block b to its plane's free list. The block must hold no valid page.
func (f *FTL) Erase(b BlockID) {
	m := &f.blocks[b]
	if m.valid != 0 {
		panic(fmt.Sprintf("ftl: erasing block %d with %d valid pages", b, m.valid))
	}
	if m.state == stFree {
		panic(fmt.Sprintf("ftl: erasing free block %d", b))
	}
	if m.state == stBad {
		panic(fmt.Sprintf("ftl: erasing bad block %d", b))
	}
	first := int64(f.g.FirstPage(b)) << f.shift
	for i := int64(0); i < int64(f.g.PagesPerBlock*f.k); i++ {
		f.p2l.put(first+i, pFree)
	}
	f.Stats.WastedNow -= int64(m.wasted)
	f.leftSkipRegion(b, m)
	m.state, m.next, m.wasted, m.gc = stFree, 0, 0, false
	if f.slc == nil || !f.erasedSLC(b) {
		m.erases++ // native P/E cycles; a block in SLC mode counts against pSLC endurance
	}
	f.Stats.Erases++
	die, plane, _ := f.g.BlockAddr(b)
	ps := &f.planes[die*f.g.Planes+plane]
	if ps.gcWP == b {
		ps.gcWP = NoBlock
	}
	i := ps.freeHead + ps.freeN
	if i >= len(ps.free) {
		i -= len(ps.free)
	}
	ps.free[i] = b
	ps.freeN++
	f.alloc.Erased(b)
	if f.place != nil {
		f.place.erased(b)
	}
}

// MappingBytes returns the memory held by the map and reverse map: 4 bytes per logical
// page plus 4 per physical unit, at most 8 bytes per physical 4 KiB unit (issue 3's budget,
// kept with sub-page mapping: the tables are per unit, not per page).
func (f *FTL) MappingBytes() int64 { return 4*int64(len(f.l2p)) + 4*int64(len(f.p2l)) }
