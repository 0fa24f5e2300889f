package ftl

import (
	"errors"
	"fmt"
)

// bast is the BAST hybrid log-block mapping scheme (Kim, Kim, Noh, Min, Cho, "A
// space-efficient flash translation layer for CompactFlash systems", IEEE Trans. Consumer
// Electronics 48(2), 2002):
//
//   - Logical pages are grouped into logical blocks of one flash block's pages. Each die is
//     a BAST device of its own: logical page lpn lives on die InterleavedDie(lpn mod D), D
//     the dies, as that die's local page lpn div D, so consecutive logical pages go to
//     consecutive channels as the page-level allocators place them; the die's logical block
//     is local div B and the page's offset in it local mod B, B the pages per block.
//   - A logical block has at most one data block, mapped at block level: its page at offset
//     i is page i of the data block.
//   - Each die has a pool of ftl.log_blocks log blocks. A log block is bound to one logical
//     block and page-mapped inside (the log page map: offset → page, the latest copy): every
//     host write of the logical block appends to it. A logical block with no log block takes
//     a free one; with the pool in use, the least recently written log block not already
//     merging is merged first (the write waits).
//   - A full log block is merged at once: a switch merge when it holds every offset in
//     order (it becomes the data block; the old data block is erased), else a full merge (the
//     current pages of data and log block copied in offset order into a new block; both
//     erased). A log block merged to free its pool slot before it is full, holding the first
//     k offsets in order, takes a partial merge: the data block's pages at offsets k and on
//     are copied into it, it becomes the data block, the old one is erased.
//
// The original writes a page into the data block itself while the data block's page at its
// offset is free; on NAND that must program a block's pages in order that is a write at or
// past the data block's next page only, and this scheme always writes the log block.
// Offsets with no current page that a merge passes over are left unprogrammed (wasted,
// Stats.Wasted) until the block is erased.
//
// Reads: the scheme's lookup (lookup) looks in the running merge's new block, then the
// log block, then the data block. The FTL's page map is kept equal to it at every write,
// copy and trim, and serves the firmware's reads; Check verifies the two agree for every
// logical page.
type bast struct {
	f         *FTL
	dies, ppb int
	per       int       // log blocks per die
	data      []BlockID // logical block → data block, NoBlock if none
	logOf     []int32   // logical block → log slot, -1 if none
	logs      []logBlock
	queue     [][]int32  // per die: log slots waiting for a merge, oldest first
	run       []mergeRun // per die: the merge in progress
	clock     uint64     // host writes, for the least-recently-written victim
}

// logBlock is one slot of a die's log-block pool (slots die·per … die·per+per−1).
type logBlock struct {
	lbn     int64 // the logical block it is bound to, -1 when the slot is free
	blk     BlockID
	inOrder bool     // page i holds offset i for every page written so far
	queued  bool     // a merge is queued or running
	used    uint64   // clock at its last write
	at      []uint16 // the log page map: offset → page index + 1, 0 for none
}

// mergeRun is a die's running merge.
type mergeRun struct {
	active bool
	slot   int32
	lbn    int64
	kind   MergeKind
	target BlockID // the block the merge copies into (the log block, or a new one)
}

func newBAST(f *FTL) *bast {
	g := f.g
	b := &bast{f: f, dies: g.Dies(), ppb: g.PagesPerBlock, per: f.cfg.LogBlocks}
	n := bastLogicalBlocks(g, int64(len(f.l2p)))
	b.data = make([]BlockID, n)
	b.logOf = make([]int32, n)
	for i := range b.data {
		b.data[i], b.logOf[i] = NoBlock, -1
	}
	b.logs = make([]logBlock, b.dies*b.per)
	at := make([]uint16, len(b.logs)*b.ppb)
	for s := range b.logs {
		b.logs[s] = logBlock{lbn: -1, blk: NoBlock, at: at[s*b.ppb : (s+1)*b.ppb]}
	}
	b.queue = make([][]int32, b.dies)
	b.run = make([]mergeRun, b.dies)
	return b
}

// bastLogicalBlocks returns the logical blocks of a device of logical pages over g: whole
// rounds of D blocks, one per die.
func bastLogicalBlocks(g Geometry, logical int64) int64 {
	per := int64(g.Dies()) * int64(g.PagesPerBlock)
	return (logical + per - 1) / per * int64(g.Dies())
}

// bastBytes returns the heap BAST's tables take beside the FTL's: the data-block map and
// log-block map (4 + 4 bytes per logical block) and the log page maps (2 bytes per page
// of every log block), plus the slots.
func bastBytes(g Geometry, cfg Config) int64 {
	logical := cfg.logicalPages(g)
	slots := int64(g.Dies()) * int64(cfg.LogBlocks)
	return 8*bastLogicalBlocks(g, logical) + slots*(2*int64(g.PagesPerBlock)+48) + int64(g.Dies())*(24+32)
}

// validateBAST checks that a die has room for every data block, its log blocks, a full
// merge's new block and the GC reserve.
func (c Config) validateBAST(g Geometry) []error {
	var errs []error
	if c.LogBlocks < 1 {
		errs = append(errs, fmt.Errorf("ftl.log_blocks: %d must be at least 1 (mapping bast writes every page to a log block)", c.LogBlocks))
		return errs
	}
	if g.Units() > 1 {
		errs = append(errs, fmt.Errorf("ftl.mapping: bast maps whole flash pages; with %d mapping units a page (firmware.page_size below flash.die.page_size: sub-page mapping) use mapping page", g.Units()))
		return errs
	}
	if g.Pages() == 0 || g.Validate() != nil || c.OverProvisioning <= 0 || c.OverProvisioning >= 1 {
		return errs
	}
	perDie := bastLogicalBlocks(g, c.logicalPages(g)) / int64(g.Dies())
	have := int64(g.Planes) * int64(g.BlocksPerPlane)
	need := perDie + int64(c.LogBlocks) + 1 + int64(g.Planes)*int64(c.hostFloor())
	if need > have {
		errs = append(errs, fmt.Errorf("ftl.log_blocks: %d log blocks per die, with %d data blocks (over_provisioning %v), a merge's new block and the GC reserve (%d a plane)%s, need %d blocks; a die has %d: lower log_blocks or raise over_provisioning",
			c.LogBlocks, perDie, c.OverProvisioning, c.GCReserve, c.reserveNote(), need, have))
	}
	return errs
}

// split returns lpn's logical block and offset in it.
func (b *bast) split(lpn int64) (lbn int64, off int) {
	d := int64(b.dies)
	local := lpn / d
	return local/int64(b.ppb)*d + lpn%d, int(local % int64(b.ppb))
}

// lpnOf returns the logical page at offset off of logical block lbn.
func (b *bast) lpnOf(lbn int64, off int) int64 {
	d := int64(b.dies)
	return ((lbn/d)*int64(b.ppb)+int64(off))*d + lbn%d
}

// dieOf returns the die of logical block lbn.
func (b *bast) dieOf(lbn int64) int { return b.f.g.InterleavedDie(int(lbn % int64(b.dies))) }

// homeDie implements hybrid.
func (b *bast) homeDie(lpn int64) int { return b.f.g.InterleavedDie(int(lpn % int64(b.dies))) }

// write implements hybrid: append lpn to its logical block's log block.
func (b *bast) write(lpn int64, purpose Purpose) (PPN, error) {
	f := b.f
	lbn, off := b.split(lpn)
	s := b.logOf[lbn]
	if s < 0 {
		if s = b.claim(lbn); s < 0 {
			return NoPage, ErrNoSpace
		}
	}
	l := &b.logs[s]
	if l.queued {
		return NoPage, ErrNoSpace // merging: the write waits for it
	}
	idx := int(f.blocks[l.blk].next)
	p := f.take(l.blk)
	if idx != off {
		l.inOrder = false
	}
	l.at[off] = uint16(idx + 1)
	b.clock++
	l.used = b.clock
	f.Stats.HostWrites++
	if purpose == Foreground {
		f.Stats.ForegroundWr++
		if f.kinds[idx] == LSB {
			f.Stats.LSBForFG++
		}
	}
	f.bind(lpn, Unit(p)) // one unit a page under BAST
	if idx+1 == b.ppb {
		b.enqueue(s)
	}
	return p, nil
}

// claim binds a free log block of lbn's die to lbn and returns its slot, or, with the pool
// in use (or no free block outside the GC reserve), queues the merge of the die's least
// recently written log block, unless one of the die's log blocks is merging already, and
// returns −1.
func (b *bast) claim(lbn int64) int32 {
	die := b.dieOf(lbn)
	lo := int32(die * b.per)
	victim, merging := int32(-1), false
	for s := lo; s < lo+int32(b.per); s++ {
		l := &b.logs[s]
		if l.lbn < 0 {
			if blk, ok := b.open(die, false); ok {
				*l = logBlock{lbn: lbn, blk: blk, inOrder: true, at: l.at}
				clear(l.at)
				b.logOf[lbn] = s
				return s
			}
			continue
		}
		merging = merging || l.queued
		if !l.queued && (victim < 0 || l.used < b.logs[victim].used) {
			victim = s
		}
	}
	// A merge already queued or running frees a slot (and a block) when it is done: the
	// write waits for it rather than queue another (a write retried before the merge ends
	// would otherwise merge a log block per retry).
	if victim >= 0 && !merging {
		b.enqueue(victim)
	}
	return -1
}

// open takes a free block of die from the plane with the most free blocks (the first such
// plane on a tie); gc lets it use the GC reserve (a merge's new block).
func (b *bast) open(die int, gc bool) (BlockID, bool) {
	f := b.f
	best := -1
	for pl := 0; pl < f.g.Planes; pl++ {
		if pi := die*f.g.Planes + pl; best < 0 || f.planes[pi].freeN > f.planes[best].freeN {
			best = pi
		}
	}
	return f.openBlock(best, gc)
}

// enqueue queues slot s's merge on its die.
func (b *bast) enqueue(s int32) {
	b.logs[s].queued = true
	die := int(s) / b.per
	b.queue[die] = append(b.queue[die], s)
	b.f.dies[die].merges++
}

// waste leaves block blk's next page unprogrammed (a merge passes over an offset with no
// current page).
func (b *bast) waste(blk BlockID) {
	f := b.f
	m := &f.blocks[blk]
	if m.wasted == 0 {
		die, _, _ := f.g.BlockAddr(blk)
		f.dies[die].lsbOnly++
		f.skipChanged(die)
	}
	f.p2l.put(int64(f.g.FirstPage(blk)+PPN(m.next)), pWasted)
	m.next++
	m.wasted++
	f.Stats.Wasted++
	f.Stats.WastedNow++
	if int(m.next) == f.g.PagesPerBlock {
		f.closed(blk, m)
	}
}

// lookup returns the page BAST reads lpn from and whether it holds lpn's current data: the
// running merge's new block at lpn's offset, else the log block's latest copy (log page
// map), else the data block's page at the offset.
func (b *bast) lookup(lpn int64) (PPN, bool) {
	f := b.f
	lbn, off := b.split(lpn)
	holds := func(p PPN) bool { v := f.p2l.at(int64(p)); return v <= maxLPN && int64(v) == lpn }
	if r := &b.run[b.dieOf(lbn)]; r.active && r.lbn == lbn && r.kind == FullMerge && int(f.blocks[r.target].next) > off {
		if p := f.g.FirstPage(r.target) + PPN(off); holds(p) {
			return p, true
		}
	}
	if s := b.logOf[lbn]; s >= 0 {
		if i := b.logs[s].at[off]; i > 0 {
			p := f.g.FirstPage(b.logs[s].blk) + PPN(i-1)
			if holds(p) {
				return p, true
			}
			if r := &b.run[b.dieOf(lbn)]; !(r.active && r.lbn == lbn) {
				return p, false // the latest copy, trimmed
			}
		}
	}
	if d := b.data[lbn]; d != NoBlock && int(f.blocks[d].next) > off {
		p := f.g.FirstPage(d) + PPN(off)
		return p, holds(p)
	}
	return NoPage, false
}

// errNoBAST is returned by BAST's preconditioning when a die runs out of blocks.
var errNoBAST = errors.New("ftl: bast: no free block for a data block")
