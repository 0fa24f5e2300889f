package die

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/nand"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Addr is the address of one page in a die: plane, block within the plane, page within the
// block (the protocol's, package nand). A multi-plane operation takes one Addr per plane.
type Addr = nand.Addr

// ErasedStamp is the word read back from a page that has not been programmed since its
// block was erased (nand.ErasedStamp): all ones. It is also legal data: a page programmed
// with it reads back the same, and the die tells the two apart by its block's state (write
// pointer and skipped pages), never by the value: see Programmed.
const ErasedStamp = nand.ErasedStamp

// Stats counts the die's array operations. Reads and programs count pages (a two-plane read
// is two), by page type; erases count blocks.
type Stats struct {
	Reads    [NumPageTypes]int64 // pages read, indexed by PageType
	Programs [NumPageTypes]int64 // pages programmed, indexed by PageType
	Erases   int64               // blocks erased
	Suspends int64               // program/erase suspensions by reads
	Skipped  int64               // pages passed over by programs of later pages (left erased)
	// The read-error model (readerrors.go).
	Retries       int64 // read-retry steps (each a tR)
	Uncorrectable int64 // pages still uncorrectable after the last retry step (or unreadable: unfinished.go)
	// UnfinishedReads counts reads of pages whose word line was not finished (unfinished.go):
	// latched one-shot pages (read back erased) and coarse or in-program ones (uncorrectable).
	UnfinishedReads int64
	// The SLC mode (slc.go): pages read and programmed, and blocks erased, in SLC mode (not
	// in Reads, Programs; in Erases too).
	SLCReads, SLCPrograms, SLCErases int64
}

// Die is one NAND die. It holds the state of every block (next page to program, erase
// count), the out-of-band stamp of every programmed page, and what its array is doing.
// It is idle until the channel hands it a command and never ticks through a tPROG.
//
// Memory per die: 30 B per block (next page, erase count, a slice header for its stamps),
// plus 8 B per page and stamp slot (Spec.Slots) for the stamps of blocks that have been
// programmed at least once
// (allocated on a block's first program and kept). Blocks filled by FillFrom cost nothing
// per page: their stamps are computed on demand until the block is next programmed (they
// are copied then) or erased. A 400 GB device of 4 KiB pages (~100 M pages, ~200 k blocks)
// preconditioned with FillFrom thus needs stamps only for the blocks a run writes. A block
// whose programs passed over pages also keeps a bitmap of them (one bit a page) until its
// erase. MemoryBytes gives the totals.
type Die struct {
	name string
	spec Spec

	array     *sim.Resource   // read, program-lsb, program-csb, program-msb, erase, suspend
	planes    []*sim.Resource // read, program-lsb, program-csb, program-msb, erase
	planeBits uint64          // all ones with several planes (their resources are recorded), else 0

	actRead, actErase, actSuspend sim.Activity
	actProg                       [NumPageTypes]sim.Activity
	tRead, tProg                  [NumPageTypes]sim.Time
	typeOf                        []PageType // page type per page index
	// wordLine and wordLow hold, page by page with several bits a cell, each page's word
	// line (Spec.WordLine) and its word line's lowest page: a cut's and RunningLoss's
	// lookups, which Spec.WordLine makes in time linear in the page (nil otherwise).
	wordLine, wordLow []uint16
	k                 int // stamps per page (Spec.StampsPerPage)

	// Per block, indexed by plane*BlocksPerPlane + block.
	next   []uint16    // next page to program; PagesPerBlock when full, 0 when erased
	erases []uint32    // erase (P/E) count
	oob    [][]uint64  // stamps, allocated on the block's first program
	src    StampSource // stamps of blocks filled by FillFrom (oob nil, next > 0)
	// skipped holds, for the blocks whose programs passed over pages since their last
	// erase (the skip-to-LSB allocator), a bitmap of those pages (bit p of word p/64): they
	// are below the write pointer but erased. Looked up only by Programmed, never iterated.
	skipped map[int][]uint64
	// filled holds, for the blocks of a one-shot or two-pass die filled before the run
	// (Fill, FillFrom) to a page inside a word line or short of the block's end, how many
	// pages were filled: they are final (finalFloor). Looked up only at a cut or a read of a
	// page not yet final, never iterated.
	filled map[int]int

	// The running program or erase, if any.
	opOpen     bool         // its interval is open on the array and its planes
	opAct      sim.Activity // what it is doing
	opPlanes   uint64       // bit p set when plane p takes part
	opEnd      sim.Time     // when it ends; moves later with each suspension
	opProg     bool         // it is a program (of page opPage of block opBlock[p] on each plane p in opPlanes)
	opPage     int
	opBlock    []int32
	opSuspends int      // suspensions so far
	resumeAt   sim.Time // when it last resumed (or will resume) after a suspension
	readEnd    sim.Time // end of the latest read's tR (with independent plane reads, of every plane's)
	// planeEnd holds each plane's read end with independent plane reads (planes.go), nil
	// otherwise.
	planeEnd []sim.Time

	// slc is the SLC mode's bookkeeping (slc.go), nil without one.
	slc *slcState

	faults *faults // nil unless Spec.Faults can fail something
	failed uint64  // planes whose part of the last program or erase failed, or whose last read is uncorrectable
	// The read-error model's state (readerrors.go): per block, allocated only with it.
	rs        readState
	retryLeft int // retry steps the last read still needs
	actRetry  sim.Activity

	stats Stats
}

// New returns an erased die named name (e.g. "ssd.ch[3].die[1]"), or the spec's problems.
// Its array Resource is named name and, with several planes, its planes name.plane[i].
func New(name string, spec Spec) (*Die, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	d := &Die{name: name, spec: spec, k: spec.StampsPerPage()}
	nb := spec.Planes * spec.BlocksPerPlane
	d.slc = newSLCState(spec, nb)
	if spec.IndependentPlaneReads && spec.Planes > 1 {
		d.planeEnd = make([]sim.Time, spec.Planes)
	}
	d.array = sim.NewResource(name)
	d.register(d.array)
	d.actSuspend = d.array.Activity("suspend")
	if spec.Planes > 1 {
		d.planeBits = ^uint64(0)
		for p := range spec.Planes {
			r := sim.NewResource(fmt.Sprintf("%s.plane[%d]", name, p))
			d.register(r)
			d.planes = append(d.planes, r)
		}
	} else {
		// One plane is busy exactly when the array is: it shares the array's resource,
		// which saves recording every interval twice.
		d.planes = []*sim.Resource{d.array}
	}
	for _, pt := range []PageType{LSB, CSB, MSB, TSB} {
		d.tRead[pt], d.tProg[pt] = spec.TRead.Of(pt), spec.TProg.Of(pt)
	}
	d.opBlock = make([]int32, spec.Planes)
	d.typeOf = make([]PageType, spec.PagesPerBlock)
	for pg := range d.typeOf {
		d.typeOf[pg] = spec.PageType(pg)
	}
	d.wordLine, d.wordLow = wordLines(spec, d.typeOf)
	d.next = make([]uint16, nb)
	d.erases = make([]uint32, nb)
	d.oob = make([][]uint64, nb)
	d.faults = newFaults(name, spec)
	if spec.Faults.Read.Enabled() {
		d.rs = readState{written: make([]sim.Time, nb), reads: make([]uint32, nb)}
	}
	return d, nil
}

// register gives r the die's activities in a fixed order, so the ids are the same on the
// array and on every plane.
func (d *Die) register(r *sim.Resource) {
	d.actRead = r.Activity("read")
	d.actProg[LSB] = r.Activity("program-lsb")
	d.actProg[CSB] = r.Activity("program-csb")
	d.actProg[MSB] = r.Activity("program-msb")
	d.actErase = r.Activity("erase")
	if d.spec.Cell == QLC { // only QLC has top pages: other dies' utilization tables are unchanged
		d.actProg[TSB] = r.Activity("program-tsb")
	}
	if d.spec.Faults.Read.Enabled() { // only with the model: utilization tables are unchanged without it
		d.actRetry = r.Activity("retry")
	}
	if d.slc != nil { // only with an SLC mode, for the same reason
		d.slc.actRead = r.Activity("read-slc")
		d.slc.actProg = r.Activity("program-slc")
		d.slc.actErase = r.Activity("erase-slc")
	}
}

// Name returns the die's hierarchical name.
func (d *Die) Name() string { return d.name }

// Spec returns the die's configuration.
func (d *Die) Spec() Spec { return d.spec }

// Array returns the Resource of the die's array: busy reading, programming (by page type),
// erasing, or suspending/resuming.
func (d *Die) Array() *sim.Resource { return d.array }

// Plane returns the Resource of plane p, busy while an array operation involves that plane.
// A single-plane die's plane is its array: Plane(0) returns Array().
func (d *Die) Plane(p int) *sim.Resource { return d.planes[p] }

// Stats returns the die's operation counts.
func (d *Die) Stats() Stats { return d.stats }

// PageType returns the type of page index page (the same for every block).
func (d *Die) PageType(page int) PageType { return d.typeOf[page] }

// NextPage returns the next page to program in a block: 0 when erased, PagesPerBlock when
// full.
func (d *Die) NextPage(plane, block int) int { return int(d.next[d.blockIndex(plane, block)]) }

// EraseCount returns how many times a block has been erased.
func (d *Die) EraseCount(plane, block int) int { return int(d.erases[d.blockIndex(plane, block)]) }

// Stamp returns the out-of-band stamp of a page (its first slot's, with several stamps a
// page) without taking time: ErasedStamp if the page has not been programmed since its
// block's last erase. Checkers use it; a page programmed with all ones returns the same, so
// they ask Programmed which it is.
func (d *Die) Stamp(a Addr) uint64 { return d.SlotStamp(a, 0) }

// SlotStamp is Stamp of slot slot (0 … Spec.StampsPerPage − 1) of page a.
func (d *Die) SlotStamp(a Addr, slot int) uint64 {
	b := d.blockIndex(a.Plane, a.Block)
	if a.Page >= int(d.next[b]) {
		return ErasedStamp
	}
	if d.k > 1 {
		return d.oob[b][a.Page*d.k+slot]
	}
	return d.stampOf(b, a)
}

// Programmed reports whether page a has been programmed since its block's last erase: it
// is below the block's write pointer and was not passed over by a later page's program.
// This is the die's state, whatever the data: a page programmed with ErasedStamp is
// programmed.
func (d *Die) Programmed(a Addr) bool {
	b := d.blockIndex(a.Plane, a.Block)
	if a.Page >= int(d.next[b]) {
		return false
	}
	bm := d.skipped[b]
	return bm == nil || bm[a.Page/64]&(1<<uint(a.Page%64)) == 0
}

// markSkipped records that page of block index b was passed over by a program.
func (d *Die) markSkipped(b, page int) {
	if d.skipped == nil {
		d.skipped = make(map[int][]uint64)
	}
	bm := d.skipped[b]
	if bm == nil {
		bm = make([]uint64, (d.spec.PagesPerBlock+63)/64)
		d.skipped[b] = bm
	}
	bm[page/64] |= 1 << uint(page%64)
}

// stampOf returns the stamp of a programmed page a of block index b: stored, or from the
// fill source. With several stamps a page it is not used (they are always stored).
func (d *Die) stampOf(b int, a Addr) uint64 {
	if o := d.oob[b]; o != nil {
		return o[a.Page]
	}
	return d.src.FillStamp(a.Plane, a.Block, a.Page)
}

// stored returns block index b's stamp storage, allocating it on the block's first program
// and copying in the stamps of pages filled by FillFrom.
func (d *Die) stored(b, plane, block int) []uint64 {
	o := d.oob[b]
	if o == nil {
		o = make([]uint64, d.spec.PagesPerBlock*d.k)
		for p := 0; p < int(d.next[b]) && d.src != nil; p++ {
			o[p] = d.src.FillStamp(plane, block, p)
		}
		d.oob[b] = o
	}
	return o
}

// BusyUntil returns when the running program or erase ends (it moves later with every
// suspension), or the end of the last read if that is later.
func (d *Die) BusyUntil() sim.Time {
	if d.opOpen {
		return max(d.opEnd, d.readEnd)
	}
	return d.readEnd
}

// Suspendable reports whether a read arriving at t may suspend the die's running program or
// erase: suspend is enabled, an operation is running at t, no read holds the array, and the
// operation has not used up MaxSuspends.
func (d *Die) Suspendable(t sim.Time) bool {
	return d.spec.Suspend && d.opOpen && t < d.opEnd && t >= d.readEnd &&
		(d.spec.MaxSuspends == 0 || d.opSuspends < d.spec.MaxSuspends)
}

func (d *Die) blockIndex(plane, block int) int { return plane*d.spec.BlocksPerPlane + block }

// fail panics naming the die and the simulated time: the caller (firmware or channel) has a
// bug.
func (d *Die) fail(t sim.Time, format string, a ...any) {
	panic(fmt.Sprintf("die %s at %v: %s", d.name, t, fmt.Sprintf(format, a...)))
}

// Fill programs pages 0 … n−1 of an erased block instantly, with stamp(page) as each page's
// stamp (with several stamps a page, stamp(page·StampsPerPage + slot) as each slot's), as if they had been programmed before the simulation started. Preconditioning uses
// it to bring a device to a filled state without simulating every write; it takes no time
// and records no busy interval. Filling a block that is not erased is a bug and panics.
func (d *Die) Fill(plane, block, n int, stamp func(page int) uint64) {
	b := d.blockIndex(plane, block)
	if d.next[b] != 0 {
		d.fail(0, "fill of plane %d block %d, which is not erased", plane, block)
	}
	if n < 0 || n > d.spec.PagesPerBlock {
		d.fail(0, "fill of %d pages; blocks hold %d", n, d.spec.PagesPerBlock)
	}
	if n == 0 {
		return
	}
	o := d.stored(b, plane, block)
	for i := 0; i < n*d.k; i++ {
		o[i] = stamp(i)
	}
	d.next[b] = uint16(n)
	d.noteFill(b, n)
}

// StampSource supplies the out-of-band stamps of pages filled by FillFrom (nand.StampSource).
type StampSource = nand.StampSource

// FillFrom is Fill with the stamps kept by src instead of stored: the die asks src for a
// filled page's stamp when it is read, and copies the block's stamps into its own storage
// when the block is next programmed. It costs no memory per page, which is what lets a
// 400 GB device be preconditioned in a fraction of a second. A die has one source: every
// FillFrom on it must pass the same src.
func (d *Die) FillFrom(plane, block, n int, src StampSource) {
	b := d.blockIndex(plane, block)
	if d.next[b] != 0 {
		d.fail(0, "fill of plane %d block %d, which is not erased", plane, block)
	}
	if n < 0 || n > d.spec.PagesPerBlock {
		d.fail(0, "fill of %d pages; blocks hold %d", n, d.spec.PagesPerBlock)
	}
	if d.k > 1 {
		d.fail(0, "fill of plane %d block %d from a stamp source, which keeps one stamp a page; the die keeps %d", plane, block, d.k)
	}
	if src == nil || (d.src != nil && d.src != src) {
		d.fail(0, "fill of plane %d block %d from a second (or nil) stamp source", plane, block)
	}
	d.src = src
	if n == 0 {
		return
	}
	if o := d.oob[b]; o != nil { // storage from an earlier program: fill it now
		for p := 0; p < n; p++ {
			o[p] = src.FillStamp(plane, block, p)
		}
	}
	d.next[b] = uint16(n)
	d.noteFill(b, n)
}

// finalFloor returns the pages of block index b that were filled before the run (Fill,
// FillFrom) and count as final whatever their word line holds: under one-shot and
// two-pass, a drive at rest has finished every word line it wrote (a clean shutdown pads
// the open ones), so a fill that ends inside a word line, or a word line short of its fine
// pass, stands for pages programmed and made final before power-on; the run's first
// programs continue the word line. Page by page (2D), 0: a filled lower page is as
// provisional as any until its word line's upper pages are programmed (Cut).
func (d *Die) finalFloor(b int) int {
	if d.spec.ProgramScheme() == PageByPage || d.isSLC(b) {
		return 0
	}
	return d.filled[b]
}

// noteFill records a fill of n pages of block index b for finalFloor, when they end short
// of the block's end on a one-shot or two-pass die.
func (d *Die) noteFill(b, n int) {
	if d.spec.ProgramScheme() == PageByPage || n == 0 || n == d.spec.PagesPerBlock {
		return
	}
	if d.filled == nil {
		d.filled = make(map[int]int)
	}
	d.filled[b] = n
}
