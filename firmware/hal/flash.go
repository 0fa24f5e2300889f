package hal

import (
	"github.com/fastdrain-sim/fastdrain/nand"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// FlashOp is the operation of a flash command.
type FlashOp uint8

// The flash operations: ONFI's READ PAGE, PROGRAM PAGE and ERASE BLOCK (each possibly
// multi-plane: one address per plane).
const (
	FlashRead    FlashOp = iota // read one page per plane: cmd/addr, tR, data-out
	FlashProgram                // program one page per plane: cmd/addr + data-in, tPROG
	FlashErase                  // erase one block per plane: cmd/addr, tBERS
)

// String returns "read", "program" or "erase".
func (o FlashOp) String() string {
	switch o {
	case FlashRead:
		return "read"
	case FlashProgram:
		return "program"
	case FlashErase:
		return "erase"
	}
	return "op?"
}

// FlashCmd is one flash command of the firmware on one die, possibly multi-plane. The
// firmware owns it: it fills the request fields, submits it to the flash port
// (firmware.FlashPort.Submit), and may reuse it once Done has been called. The port fills
// the result fields before it calls Done.
type FlashCmd struct {
	// Request.
	Op    FlashOp
	Addrs []nand.Addr // one address per plane (distinct planes, same page; DieSpec.MultiPlaneSameBlock)
	// Stamps holds DieSpec.StampsPerPage out-of-band stamps per address, address-major:
	// stored by a program, returned by a read (nand.ErasedStamp for an unprogrammed page).
	// For reads give it capacity len(Addrs)·StampsPerPage; the port sets its length.
	Stamps []uint64
	Bytes  int // data bytes per plane on the bus (reads, programs); 0 = a full page
	// MaySuspend lets a read suspend its die's running program or erase (when the die has
	// suspend): the flash scheduler's decision, made per read. Ignored for programs and
	// erases.
	MaySuspend bool
	// SLC runs the read or program in the die's pSLC mode (the block must be erased or in
	// that mode). Ignored for erases.
	SLC bool
	// Done is notified at completion with Event.Data = this *FlashCmd and Event.Code its
	// Op, at the simulated time the command completed (for a read, when its data is off the
	// bus).
	Done sim.Handler
	Tag  any // the firmware's; the port never reads it

	// Results, in simulated time.
	ArrayStart sim.Time // the die accepted the command (start of tR/tPROG/tBERS, or of the suspend that precedes a read's tR)
	ArrayEnd   sim.Time // the array work ended (for a program or erase, after any suspensions)
	Completed  sim.Time // the last data byte or status was on the bus
	// Failed has bit i set when the program or erase of Addrs[i] failed (the die's status
	// FAIL bit), or when the read of Addrs[i] stayed uncorrectable after every read-retry
	// step; 0 for commands that succeeded.
	Failed uint64
	// Retries is the read-retry steps a read took.
	Retries int
	// Suspended reports that the read started by suspending its die's program or erase.
	Suspended bool
}

// DieSpec is what the firmware knows of its dies' datasheet: the shape of a die, its
// page-type map, the read and program times its estimates use, and whether programs,
// erases and reads may fail. Every die of the array has the same.
type DieSpec struct {
	Planes         int // planes a die
	BlocksPerPlane int // blocks a plane
	PagesPerBlock  int // pages a block
	PageSize       int // data bytes a page
	StampsPerPage  int // out-of-band stamps a page keeps (one a mapping unit), at least 1
	SLCPages       int // pages of a block in the die's pSLC mode; 0: the die has none
	// PageType maps a page index within a block to its type (the same for every block).
	PageType func(page int) nand.PageType
	// FinalizingPage maps a page index within a block (native mode) to the page of the same
	// block whose program, once complete, makes it final: no later program can destroy it
	// (die.Spec.FinalizingPages; docs/reliability.md, "Word-line finality"). A block in pSLC
	// mode programs each page on its own: every page is final at its own completion. Nil:
	// every page is (a spec built by hand for a test).
	FinalizingPage func(page int) int
	// PageByPage reports that the die programs each page of a word line on its own (2D):
	// a page is lost at a cut only while a program of its word line runs, and a page
	// passed over is never programmed. False for one-shot and two-pass parts, whose
	// latched or coarse word lines a cut destroys with no program running (die.Die.Cut).
	PageByPage bool
	// TRead is tR by page type.
	TRead [nand.NumPageTypes]sim.Time
	// SLCTRead is tR of a page of a block in pSLC mode (a recovery scan's read of one); 0
	// without a pSLC mode.
	SLCTRead sim.Time
	// MeanTProg is the mean tPROG of a block's pages in program order (a one-shot word
	// line counted once): the time a background program holds a die on average.
	MeanTProg sim.Time
	// MultiPlaneSameBlock requires the blocks of a multi-plane command to have the same
	// index in their planes (besides distinct planes and the same page index).
	MultiPlaneSameBlock bool
	// CacheProgram reports that the die takes a program's data into its cache register
	// while its array programs (die.Spec.CacheProgram): the scheduler may hand it the next
	// program before the one it holds completes (firmware/cacheprog.go).
	CacheProgram bool
	// Faults reports that the die has a fault model: programs and erases may fail, reads
	// may stay uncorrectable, and FactoryBad blocks a die are bad from the factory.
	Faults     bool
	FactoryBad int
}
