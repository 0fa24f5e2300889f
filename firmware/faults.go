package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nand"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Flash faults: what the firmware does when a die reports a failed program or erase
// (hal.FlashCmd.Failed), and the factory bad-block scan at build. The fault model
// itself is the die's (die.FaultSpec).
//
// A failed program: the data is still where it came from (a buffered page stays in the
// write buffer until its program succeeds; a GC move's data is in DRAM), so the firmware
// re-programs it to a new page of the die's GC stream (ftl.Rewrite), unless the host has
// overwritten or trimmed the page meanwhile, and retires the block (ftl.Retire): the die's
// GC task then moves the block's valid pages elsewhere as it moves a victim's, and leaves
// the block unerased in the bad-block table. A failed erase retires the block (it holds no
// valid page by then). This is the "block replacement" of NAND datasheets (Numonyx
// NAND08GW3C2A §9.2).
//
// An uncorrectable read (the die's ECC verdict after its read-retry steps, channel.
// Transaction.Failed on a read) completes a host read with NVMe status Unrecovered Read
// Error and no data. A GC read or a Write Zeroes read-modify-write that is uncorrectable is
// counted and goes on with the word the die returned: the model does not yet make the
// logical page unreadable afterwards.

// FaultStats counts the flash faults the firmware handled.
type FaultStats struct {
	ProgramFailures int64 // pages whose program failed
	EraseFailures   int64 // blocks whose erase failed
	Reprograms      int64 // failed pages programmed again elsewhere (the others had been overwritten)
	RetiredBlocks   int64 // blocks retired after a failure (grown bad blocks)
	FactoryBad      int64 // factory bad blocks found at build
	RetireMoves     int64 // valid pages moved out of retired blocks
	ReadRetries     int64 // read-retry steps the dies ran (die.ReadErrorSpec)
	Uncorrectable   int64 // page reads still uncorrectable after the last retry step (host and GC)
	// FailedReads counts the host read commands completed with Unrecovered Read Error.
	FailedReads int64
	// RefusedWrites counts the commands completed with Attempted Write to Read Only Range
	// in read-only mode (readonly.go).
	RefusedWrites int64
	// Unplaced counts the failed programs whose die had no room left to program the data
	// again: it went back to the buffer, or GC's copy back to its original (readonly.go).
	Unplaced int64
}

// FaultStats returns the fault counters.
func (f *Firmware) FaultStats() FaultStats { return f.faults }

// BadBlockScanner is an optional capability of a FlashPort: the factory bad blocks of die g
// (what the bad-block markers a real die carries in its spare area say), which the firmware
// enters in its bad-block table at build.
type BadBlockScanner interface {
	FactoryBad(g int) []nand.Addr
}

// scanFactoryBad enters every factory bad block the flash port reports in the FTL's table.
func (f *Firmware) scanFactoryBad() error {
	sc, ok := f.flash.(BadBlockScanner)
	if !ok {
		return nil
	}
	for g := 0; g < f.geo.Dies(); g++ {
		for _, a := range sc.FactoryBad(g) {
			b := f.geo.BlockOf(f.geo.PPN(ftl.Addr{Die: g, Plane: a.Plane, Block: a.Block}))
			if err := f.ftl.MarkFactoryBad(b); err != nil {
				return fmt.Errorf("firmware %s: flash.die.faults.factory_bad: %w", f.name, err)
			}
			f.faults.FactoryBad++
		}
	}
	// What firmware.ftl.gc_threshold's validation asks of a plane (fewer blocks than the
	// plane has) must hold of its good blocks: a plane at or below the threshold from the
	// start would collect forever.
	for g := 0; g < f.geo.Dies(); g++ {
		for p := 0; p < f.geo.Planes; p++ {
			if c := f.ftl.Config(); f.ftl.FreeBlocks(g, p) <= c.GCStart() {
				return fmt.Errorf("firmware %s: flash.die.faults.factory_bad: die %d plane %d keeps %d good blocks, not more than firmware.ftl.gc_threshold (%d)%s; fewer factory bad blocks are needed",
					f.name, g, p, f.ftl.FreeBlocks(g, p), f.spec.FTL.GCThreshold, holdupNote(c.HoldupReserve, c.GCStart()))
			}
		}
	}
	// A die's factory bad blocks come out of its spare pool (the NAND vendor's allowance
	// counts initial and grown bad blocks together): more than the pool is a die the
	// firmware cannot use (ValidateGeometry refuses the count before the build).
	for g := 0; g < f.geo.Dies(); g++ {
		if f.ftl.SpareExhausted(g) {
			return fmt.Errorf("firmware %s: %s", f.name, factoryBadError(f.ftl.SparePool()-f.ftl.SpareLeft(g), f.ftl.SparePool(), f.geo.Planes*f.geo.BlocksPerPlane))
		}
	}
	return nil
}

// factoryBadError is the error for bad factory blocks, bad of them a die, more than the
// die's spare pool of pool blocks (of its blocks).
func factoryBadError(bad, pool, blocks int) error {
	return fmt.Errorf("flash.die.faults.factory_bad: %d factory bad blocks a die exceed the die's spare pool of %d blocks (firmware.ftl.spare_blocks; by default 2 %% of its %d blocks, rounded up); raise firmware.ftl.spare_blocks or lower factory_bad",
		bad, pool, blocks)
}

// programFailed handles op, a program the die reported failed at now: it retires the block
// and programs the data again elsewhere; op itself stays outstanding (its waiter, its
// buffer victim) until that program succeeds. It reports false when the page's data had
// been superseded, so the program counts as done (the caller completes op as usual). If
// the die has no room left for the data (the drive goes read-only), the data goes back to
// where it came from and op ends there (unplaced); it reports true then too, as op must
// not complete as a program.
func (f *Firmware) programFailed(now sim.Time, op *flashOp) bool {
	f.faults.ProgramFailures++
	f.retire(f.geo.BlockOf(op.ppn))
	if _, ok := f.ftl.Owner(ftl.Unit(op.ppn)); !ok { // one unit a page: the configuration refuses program faults with sub-page mapping
		return false
	}
	if (f.ro.on && !f.pl.cut) || !f.gcRoom(op.die) { // read-only: nothing more is programmed (readonly.go)
		f.unplaced(now, op)
		return true
	}
	nu, _, _ := f.ftl.Rewrite(ftl.Unit(op.ppn))
	np := ftl.PPN(nu)
	f.faults.Reprograms++
	nop := f.sched.get(op.kind, op.die)
	nop.ppn, nop.stamp, nop.victim, nop.bg, nop.w, nop.idx = np, op.stamp, op.victim, op.bg, op.w, op.idx
	nop.from, nop.oob = op.from, op.oob                            // the records go with the data
	nop.covers, nop.ncovers, op.ncovers = op.covers, op.ncovers, 0 // the guards wait for the new program
	// The in-flight record moves to the new page (reads of it are still served from DRAM).
	f.pending.done(ftl.Unit(op.ppn), op.stamp)
	f.inflightBlock[f.geo.BlockOf(op.ppn)]--
	f.pending.put(nu, op.stamp)
	f.inflightBlock[f.geo.BlockOf(np)]++
	f.gc.programsDone(f)
	// The new page is in the GC stream's block, whose programs the die's GC queue carries in
	// allocation order: the re-program joins that queue now (a buffered page's data leaves
	// DRAM again, which is charged on the DRAM bus, but the queueing does not wait for it:
	// it would let a later GC program of the same block overtake it).
	if op.kind == opEvict {
		f.mem.Access(now, f.dramAddr(op.victim.LPN), f.spec.PageSize, false)
	}
	nop.rewrite = true
	f.sched.enqueue(nop)
	return true
}

// retire enters block b in the bad-block table (once) and has its die's GC task move its
// valid pages out. A block beyond the die's spare pool puts the drive in read-only mode
// (readonly.go), where GC no longer runs and the pages stay, readable, where they are.
func (f *Firmware) retire(b ftl.BlockID) {
	if !f.ftl.Retire(b) {
		return
	}
	// Its provisional pages are never made final (a bad block is not programmed again): their
	// guards go, as at an erase, and its valid data moves (final.go).
	f.erasing(b)
	f.faults.RetiredBlocks++
	g, _, _ := f.geo.BlockAddr(b)
	t := f.gc.tasks[g]
	t.retire = append(t.retire, b)
	t.notify()
	if f.ftl.SpareExhausted(g) {
		f.enterReadOnly(g, roSpare)
	}
}
