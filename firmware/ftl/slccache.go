package ftl

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/internal/bitset"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// SLCCacheConfig is the SLC cache (the `ftl.slc_cache` section): host writes go to blocks
// programmed in the die's pSLC mode (die.SLCSpec, one bit a cell, Geometry.SLCPages pages a
// block) while the cache has room, and to native (TLC/QLC) blocks directly once it is full
// (the write "cliff"); folding moves an SLC block's valid data to native blocks through the
// GC stream, in idle and under pressure.
//
// Its size follows the two regions of a current client drive. A static region is always
// there; a dynamic region borrows free native blocks in SLC mode while the drive is empty
// and shrinks as it fills, to nothing at FullAt. Intel's 660p 1 TB (64-layer IMFT QLC; the
// 2400's NAND lineage): a 12 GB static part (6–24 GB over the three capacities) and up to
// 140 GB in all on an empty drive, down to the static 12 GB once the drive is 75 % full
// (Intel's launch material as reproduced by AnandTech's review, anandtech.com/show/13078,
// and evantechbook.com's report of Intel's graphic); Crucial's P1 1 TB, the same design,
// runs at 1.6 GB/s for about 140 GB of an empty drive and at 150 MB/s after
// (techpowerup.com/review/crucial-p1-nvme-m-2-ssd-1-tb/6.html), and its dynamic part may
// take "up to 14 % of the drive's total capacity" (techreport.com/review/34266). Samsung's
// 980 PRO 1 TB: 6 GB static and 36 GB dynamic (Intelligent TurboWrite, Samsung's data
// sheet). How the dynamic part falls between empty and FullAt is not published: the model
// takes it linear in the fill (our choice between the two published points).
//
// The sizes are fractions of the logical capacity counted in the bytes the cache holds (an
// SLC block holds 1/bits of its native bytes): the 660p 1 TB's 12 GB static is 0.012 and
// its 140 GB total 0.14, so Dynamic 0.128.
type SLCCacheConfig struct {
	// Static is the static region, a fraction of the logical capacity (0 … 1).
	Static float64 `yaml:"static"`
	// Dynamic is the dynamic region on an empty drive, a fraction of the logical capacity.
	Dynamic float64 `yaml:"dynamic"`
	// FullAt is the fill (mapped native data over the logical capacity) at which the dynamic
	// region is gone; 0 means 0.75 (the 660p's).
	FullAt float64 `yaml:"full_at,omitempty"`
	// Idle is how long the host must have written nothing to flash before the firmware folds
	// the cache in idle; 0 means 10 ms (our choice: no vendor publishes its idle delay).
	Idle sim.Time `yaml:"idle,omitempty"`
	// Fold is when the cache folds: "pressure" (the default) in idle, when the region
	// shrinks, and under pressure — a plane whose cache is exhausted (its SLC blocks fill
	// the region, none open) folds its full SLC blocks while the host's writes go directly
	// to native blocks, as real drives do; "idle" only in idle and when the region shrinks
	// (the control: the model before folding under pressure).
	//
	// Real drives fold under pressure: Crucial's P1, once its cache is exhausted, "will have
	// to write data directly to flash, and it will probably juggle some out of its write
	// cache at the same time" (TechPowerUp's review, techpowerup.com/review/
	// crucial-p1-nvme-m-2-ssd-1-tb/6.html); Intel's 660p "keeps most of the data as SLC until
	// the capacity of QLC becomes necessary", so that when the cache fills "there's a large
	// backlog of work to be done migrating data in to QLC blocks" (AnandTech's review,
	// anandtech.com/show/13078, conclusion). A folded block is erased and free again, so
	// the region has room and host writes go to SLC again until it is exhausted anew: past
	// the cliff the host's writes alternate between the cache and direct writes while the
	// folds compete with them for the dies (docs/validation.md measures the rate).
	Fold string `yaml:"fold,omitempty"`
}

// Fold modes (SLCCacheConfig.Fold).
const (
	FoldPressure = "pressure" // in idle, on a shrinking region and when the cache is exhausted
	FoldIdle     = "idle"     // in idle and on a shrinking region only (the control)
)

// foldUnderPressure reports whether Fold asks for folding when the cache is exhausted.
func (c SLCCacheConfig) foldUnderPressure() bool { return c.Fold != FoldIdle }

// Enabled reports whether the configuration asks for an SLC cache.
func (c SLCCacheConfig) Enabled() bool { return c.Static > 0 || c.Dynamic > 0 }

// fullAt returns FullAt with its default.
func (c SLCCacheConfig) fullAt() float64 {
	if c.FullAt == 0 {
		return 0.75
	}
	return c.FullAt
}

// IdleDelay returns Idle with its default.
func (c SLCCacheConfig) IdleDelay() sim.Time {
	if c.Idle == 0 {
		return 10 * sim.Millisecond
	}
	return c.Idle
}

// validate reports the SLC cache's problems for geometry g under configuration c.
func (s SLCCacheConfig) validate(c Config, g Geometry) []error {
	if c.Allocator == SLCForeground && !s.Enabled() {
		return []error{fmt.Errorf("ftl.allocator %q routes foreground writes to the SLC cache: it needs ftl.slc_cache (static or dynamic above 0)", SLCForeground)}
	}
	if !s.Enabled() && s.FullAt == 0 && s.Idle == 0 && s.Fold == "" {
		return nil
	}
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if s.Static < 0 || s.Static > 1 {
		bad("ftl.slc_cache.static: %v is not a fraction in 0 … 1", s.Static)
	}
	if s.Dynamic < 0 || s.Dynamic > 1 {
		bad("ftl.slc_cache.dynamic: %v is not a fraction in 0 … 1", s.Dynamic)
	}
	if s.FullAt < 0 || s.FullAt > 1 {
		bad("ftl.slc_cache.full_at: %v is not a fill in 0 … 1 (0: 0.75)", s.FullAt)
	}
	if s.Idle < 0 {
		bad("ftl.slc_cache.idle: %v must not be negative", s.Idle)
	}
	if s.Fold != "" && s.Fold != FoldPressure && s.Fold != FoldIdle {
		bad("ftl.slc_cache.fold: %q is not a fold mode (have %q, %q)", s.Fold, FoldPressure, FoldIdle)
	}
	if !s.Enabled() {
		bad("ftl.slc_cache: full_at, idle or fold set, but static and dynamic are 0 (no cache)")
		return errs
	}
	if c.mapping() != PageMapping {
		bad("ftl.slc_cache: an SLC cache needs page-level mapping, not ftl.mapping %q (a hybrid scheme's merges do not know block modes)", c.Mapping)
	}
	if g.PagesPerBlock == 0 || len(errs) > 0 {
		return errs
	}
	if g.SLCPages == 0 {
		bad("ftl.slc_cache: the die has no pSLC mode (flash.die.slc: t_read and t_prog)")
		return errs
	}
	st, dyn := slcBlocks(c, g)
	if room := g.BlocksPerPlane - c.gcAt() - 1; st+dyn > room {
		bad("ftl.slc_cache: static %v and dynamic %v make %d + %d SLC blocks a plane, more than the %d a plane of %d blocks has outside GC's threshold and write point",
			s.Static, s.Dynamic, st, dyn, room, g.BlocksPerPlane)
	}
	return errs
}

// slcBlocks returns the static region and the most of the dynamic region, in SLC blocks a
// plane: Static · logical units / (units an SLC block holds) / planes, rounded up (a static
// region of a block and a bit holds two), and Dynamic the same, rounded down.
func slcBlocks(c Config, g Geometry) (static, dynamic int) {
	perBlock := float64(g.SLCPages * g.Units())
	planes := float64(g.Dies() * g.Planes)
	l := float64(c.logicalPages(g))
	s := c.SLCCache.Static * l / perBlock / planes
	static = int(s)
	if float64(static) < s {
		static++
	}
	return static, int(c.SLCCache.Dynamic * l / perBlock / planes)
}

// slcCache is the SLC cache's state, allocated only when the configuration has one.
type slcCache struct {
	pages   int        // pages of a block in SLC mode (Geometry.SLCPages)
	blocks  bitset.Set // blocks in SLC mode: opened by the cache, not yet erased
	erases  []uint32   // each block's erases in SLC mode (its wear in pSLC endurance)
	wp      []BlockID  // per plane: the host's SLC write point
	inUse   []int      // per plane: SLC blocks (open or full)
	full    []int      // per plane: full SLC blocks (fold candidates)
	planeRR []int      // per die: the next plane to take an SLC page from
	static  int        // static region, blocks a plane
	dynMax  int        // dynamic region on an empty drive, blocks a plane
	cap     int        // the region now (Refresh): static plus the dynamic part left
	fullAt  float64    // SLCCacheConfig.FullAt with its default
	idle    bool       // the firmware folds in idle (SetSLCIdle)
	press   bool       // fold a plane whose cache is exhausted (SLCCacheConfig.Fold "pressure")
	route   SLCRouter  // the allocator's routing of host writes (nil: all try the cache)
	bypass  bool       // the last host write was routed past the cache (SLCRouter)
	direct  bool       // the last host write went to a native block because the cache was full
	all     int64      // SLC blocks in use over the array
	stats   SLCStats
}

// SLCStats are the SLC cache's counters.
type SLCStats struct {
	SLCWrites    int64 // host units written to SLC blocks
	DirectWrites int64 // host units written to native blocks while the cache was full
	BypassWrites int64 // host units the allocator routed to native blocks past the cache (SLCRouter)
	FoldUnits    int64 // units folded: moved out of SLC blocks by the GC stream
	FoldBlocks   int64 // SLC blocks folded and erased
	SLCPrograms  int64 // pages programmed in SLC mode
	SLCErases    int64 // erases of blocks in SLC mode
	PeakBlocks   int64 // most SLC blocks in use at once, over the array
}

// newSLCCache returns the cache of f's configuration, or nil without one.
func newSLCCache(f *FTL) *slcCache {
	if !f.cfg.SLCCache.Enabled() {
		return nil
	}
	np := len(f.planes)
	s := &slcCache{pages: f.g.SLCPages, blocks: bitset.New(f.g.Blocks()), erases: make([]uint32, f.g.Blocks()),
		wp: make([]BlockID, np), inUse: make([]int, np), full: make([]int, np), planeRR: make([]int, f.g.Dies())}
	for i := range s.wp {
		s.wp[i] = NoBlock
	}
	s.static, s.dynMax = slcBlocks(f.cfg, f.g)
	s.fullAt = f.cfg.SLCCache.fullAt()
	s.press = f.cfg.SLCCache.foldUnderPressure()
	s.route, _ = f.alloc.(SLCRouter)
	f.slc = s
	f.RefreshSLC()
	return s
}

// SLCCache reports whether the FTL has an SLC cache.
func (f *FTL) SLCCache() bool { return f.slc != nil }

// IsSLC reports whether block b is in SLC mode (its reads and programs use the die's pSLC
// mode): false without an SLC cache.
func (f *FTL) IsSLC(b BlockID) bool { return f.slc != nil && f.slc.blocks.Has(int(b)) }

// SLCStats returns the SLC cache's counters (zero without one).
func (f *FTL) SLCStats() SLCStats {
	if f.slc == nil {
		return SLCStats{}
	}
	return f.slc.stats
}

// SLCDirect reports whether the last host write found the cache full and went to a native
// block.
func (f *FTL) SLCDirect() bool { return f.slc != nil && f.slc.direct }

// SLCCapacity returns the cache's region now, in SLC blocks a plane: the static region
// plus what is left of the dynamic one at the fill of the last RefreshSLC.
func (f *FTL) SLCCapacity() int {
	if f.slc == nil {
		return 0
	}
	return f.slc.cap
}

// SLCRegions returns the static region and the dynamic region's most, in SLC blocks a plane.
func (f *FTL) SLCRegions() (static, dynamic int) {
	if f.slc == nil {
		return 0, 0
	}
	return f.slc.static, f.slc.dynMax
}

// SLCOccupancy returns the SLC blocks in use (open or full) over the array and the valid
// units they hold.
func (f *FTL) SLCOccupancy() (blocks int, units int64) {
	if f.slc == nil {
		return 0, 0
	}
	for _, n := range f.slc.inUse {
		blocks += n
	}
	for b := f.slc.blocks.Next(0, len(f.blocks)); b < len(f.blocks); b = f.slc.blocks.Next(b+1, len(f.blocks)) {
		units += int64(f.blocks[b].valid)
	}
	return blocks, units
}

// SLCFoldable reports whether the cache has a full SLC block on some plane: what an idle
// fold or a shrinking region would fold, so the firmware keeps watching for them. Data in
// an open SLC write point stays until the block is full.
func (f *FTL) SLCFoldable() bool {
	if f.slc == nil {
		return false
	}
	for _, n := range f.slc.full {
		if n > 0 {
			return true
		}
	}
	return false
}

// SLCHasRoom reports whether a host write would find room in the cache on some plane: an
// open SLC write point, or fewer SLC blocks in use than the region with a block to spare
// (allocateSLC's rule).
func (f *FTL) SLCHasRoom() bool {
	if f.slc == nil {
		return false
	}
	for pi := range f.planes {
		if f.slcRoom(pi) {
			return true
		}
	}
	return false
}

// slcRoom reports whether plane pi's cache takes a host write: an open SLC write point, or
// fewer SLC blocks in use than the region and a block to spare above the GC threshold.
func (f *FTL) slcRoom(pi int) bool {
	s := f.slc
	return s.wp[pi] != NoBlock || s.inUse[pi] < s.cap && f.planes[pi].freeN > f.gcAt
}

// slcRoomOnDie reports whether some plane of die has room in the cache (false without a
// cache).
func (f *FTL) slcRoomOnDie(die int) bool {
	if f.slc == nil {
		return false
	}
	for p := 0; p < f.g.Planes; p++ {
		if f.slcRoom(die*f.g.Planes + p) {
			return true
		}
	}
	return false
}

// SLCIdleWrites returns the count of host writes the firmware's idle detection watches for
// the cache's idle folds: every host write (Stats.HostWrites), or, when the allocator routes
// writes past the cache (SLCRouter), only those that went to it or tried it (SLCWrites +
// DirectWrites): the writes routed past it (slc-foreground's background evictions, direct
// to native blocks) do not use the cache, so they do not keep it from folding.
func (f *FTL) SLCIdleWrites() int64 {
	if f.slc != nil && f.slc.route != nil {
		return f.slc.stats.SLCWrites + f.slc.stats.DirectWrites
	}
	return f.Stats.HostWrites
}

// SetSLCIdle tells the cache whether the host is idle (the firmware's idle detection): in
// idle every full SLC block of a plane is folded (NeedsGC, PickVictim).
func (f *FTL) SetSLCIdle(idle bool) {
	if f.slc != nil {
		f.slc.idle = idle
	}
}

// RefreshSLC recomputes the cache's region from the fill: the static region plus the
// dynamic one scaled by how far the fill is below FullAt, ⌊dynMax · (FullAt − v/L) /
// FullAt⌋ blocks a plane, v the valid units in native blocks and L the logical pages
// (data in SLC blocks is not counted: it is the cache's own, and counting it would shrink
// the cache as it fills).
func (f *FTL) RefreshSLC() {
	s := f.slc
	if s == nil {
		return
	}
	var v int64
	for b := range f.blocks {
		if !s.blocks.Has(b) {
			v += int64(f.blocks[b].valid)
		}
	}
	// In fractions of the capacity, so a fill at a round fraction (a preconditioned 50 %)
	// gives the exact region: 15 · (0.75 − 0.5) / 0.75 = 5, where whole units rounded down
	// on both sides gave 4.99999.
	fill := float64(v) / float64(len(f.l2p))
	dyn := 0
	if fill < s.fullAt {
		dyn = int(float64(s.dynMax) * (s.fullAt - fill) / s.fullAt)
	}
	s.cap = s.static + dyn
}

// allocateSLC takes the next page of an SLC write point of die for a host write for
// purpose, unless the allocator routes it past the cache (SLCRouter; it reports false and
// the write goes to the allocator, not counted as direct), round robin over the die's planes, opening a free block in SLC mode on a plane whose cache has
// room (fewer than cap SLC blocks in use) and that can spare a block without needing GC
// (more free blocks than the GC threshold). It reports false, the cache full on every plane
// of the die, and the write then goes to the allocator (a native block): direct mode.
func (f *FTL) allocateSLC(die int, purpose Purpose) (PPN, bool) {
	s := f.slc
	if s.bypass = s.route != nil && !s.route.SLCFor(purpose); s.bypass {
		return NoPage, false
	}
	for try := 0; try < f.g.Planes; try++ {
		plane := (s.planeRR[die] + try) % f.g.Planes
		pi := die*f.g.Planes + plane
		if s.wp[pi] == NoBlock {
			if s.inUse[pi] >= s.cap || f.planes[pi].freeN <= f.gcAt {
				continue
			}
			b, ok := f.openBlock(pi, false)
			if !ok {
				continue
			}
			s.blocks.Put(int(b), true)
			s.wp[pi] = b
			s.inUse[pi]++
			if s.all++; s.all > s.stats.PeakBlocks {
				s.stats.PeakBlocks = s.all
			}
		}
		s.planeRR[die] = (plane + 1) % f.g.Planes
		s.direct = false
		return f.take(s.wp[pi]), true
	}
	s.direct = true
	return NoPage, false
}

// takeSLC finishes take of a page of SLC block b (m its meta): counts the program and, when
// b is full at its SLC pages, closes it.
func (f *FTL) takeSLC(b BlockID, m *blockMeta) {
	s := f.slc
	s.stats.SLCPrograms++
	if int(m.next) == s.pages {
		m.state = stFull
		die, plane, _ := f.g.BlockAddr(b)
		pi := die*f.g.Planes + plane
		s.full[pi]++
		if s.wp[pi] == b {
			s.wp[pi] = NoBlock
		}
	}
}

// countHost counts n host units written to page p: in SLC mode, routed past the cache or
// direct.
func (s *slcCache) countHost(f *FTL, p PPN, n int64) {
	switch {
	case s.blocks.Has(int(f.g.BlockOf(p))):
		s.stats.SLCWrites += n
	case s.bypass:
		s.stats.BypassWrites += n
	default:
		s.stats.DirectWrites += n
	}
}

// erasedSLC updates the cache for the erase of block b, if it was in SLC mode: it counts
// the erase against the block's pSLC endurance (not its native P/E cycles) and returns true.
func (f *FTL) erasedSLC(b BlockID) bool {
	s := f.slc
	if !s.blocks.Has(int(b)) {
		return false
	}
	s.blocks.Put(int(b), false)
	s.erases[b]++
	s.stats.SLCErases++
	s.stats.FoldBlocks++
	s.all--
	die, plane, _ := f.g.BlockAddr(b)
	pi := die*f.g.Planes + plane
	s.inUse[pi]--
	s.full[pi]-- // only full blocks are GC victims
	return true
}

// blockPages returns the pages block b holds in its mode: SLCPages in SLC mode,
// PagesPerBlock otherwise.
func (f *FTL) blockPages(b BlockID) int {
	if f.IsSLC(b) {
		return f.slc.pages
	}
	return f.g.PagesPerBlock
}

// SLCEraseCount returns block b's erases in SLC mode (EraseCount counts its native ones).
func (f *FTL) SLCEraseCount(b BlockID) int {
	if f.slc == nil {
		return 0
	}
	return int(f.slc.erases[b])
}

// wantsFold reports whether plane pi should fold an SLC block now: it has a full one, and
// the host is idle, or the plane's SLC blocks exceed the region (the dynamic part shrank
// as the drive filled), or — folding under pressure — the plane's cache is exhausted: its
// SLC blocks fill the region and none is open for the host (exhausted).
func (s *slcCache) wantsFold(pi int) bool {
	return s.full[pi] > 0 && (s.idle || s.inUse[pi] > s.cap || s.press && s.exhausted(pi))
}

// exhausted reports whether plane pi's cache is exhausted: no SLC write point open and as
// many SLC blocks in use as the region allows, so a host write on the plane goes direct.
func (s *slcCache) exhausted(pi int) bool { return s.wp[pi] == NoBlock && s.inUse[pi] >= s.cap }

// foldVictim returns the full SLC block of plane (die, plane) written longest ago (the
// oldest data folds first), or false if it has none.
func (f *FTL) foldVictim(die, plane int) (BlockID, bool) {
	first := BlockID((die*f.g.Planes + plane) * f.g.BlocksPerPlane)
	best := NoBlock
	for b := first; b < first+BlockID(f.g.BlocksPerPlane); b++ {
		if f.slc.blocks.Has(int(b)) && f.blocks[b].state == stFull && (best == NoBlock || f.blocks[b].age < f.blocks[best].age) {
			best = b
		}
	}
	return best, best != NoBlock
}

// foldMoved counts n units GC moved out of block b if b is in SLC mode (a fold).
func (s *slcCache) foldMoved(b BlockID, n int64) {
	if s.blocks.Has(int(b)) {
		s.stats.FoldUnits += n
	}
}

// checkSLC verifies the cache's invariants: SLC blocks are open or full, below their SLC
// pages; per plane the counts of SLC blocks in use and full match the blocks; a write point
// is an open SLC block of its plane.
func (f *FTL) checkSLC(bad func(format string, a ...any)) {
	s := f.slc
	inUse := make([]int, len(f.planes))
	full := make([]int, len(f.planes))
	for bi := range f.blocks {
		if !s.blocks.Has(bi) {
			continue
		}
		m := &f.blocks[bi]
		die, plane, _ := f.g.BlockAddr(BlockID(bi))
		pi := die*f.g.Planes + plane
		inUse[pi]++
		switch {
		case m.state == stFull && int(m.next) == s.pages:
			full[pi]++
		case m.state == stOpen && int(m.next) < s.pages:
		default:
			bad("SLC block %d is in state %d at page %d of its %d SLC pages", bi, m.state, m.next, s.pages)
		}
		if m.wasted != 0 {
			bad("SLC block %d has %d skipped pages", bi, m.wasted)
		}
	}
	for pi := range f.planes {
		if inUse[pi] != s.inUse[pi] || full[pi] != s.full[pi] {
			bad("plane %d: %d SLC blocks in use and %d full counted, %d and %d found", pi, s.inUse[pi], s.full[pi], inUse[pi], full[pi])
		}
		if b := s.wp[pi]; b != NoBlock && (!s.blocks.Has(int(b)) || f.blocks[b].state != stOpen) {
			bad("plane %d: SLC write point %d is not an open SLC block", pi, b)
		}
	}
}
