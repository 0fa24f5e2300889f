package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/buffer"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/internal/bitset"
	"github.com/fastdrain-sim/fastdrain/nand"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// opKind says what a flash operation is for.
type opKind uint8

const (
	opHostRead  opKind = iota // a page a host read needs
	opEvict                   // a buffered page written to flash
	opGCRead                  // a valid page GC moves
	opGCProgram               // its new copy
	opErase                   // a GC victim's erase
	opPad                     // a finality pad: a page programmed with no data (final.go)
	opBackup                  // a zone page's backup copy (znsbackup.go)
)

// waiter is a step waiting for a set of flash operations: when every operation counted in
// it has completed and the data of the reads among them is in DRAM, release runs step code
// of h.
type waiter struct {
	pending int
	then    *step    // runs when the last operation is done
	ready   sim.Time // latest time a completed operation's data reached DRAM
	stamps  []uint64 // per page slot: the stamp a read returned
	failed  bool     // an erase counted in it failed (the die's status), or a read stayed uncorrectable
}

// maxPlanes bounds the planes one transaction may span.
const maxPlanes = 16

// flashOp is one page (or block, for an erase) of flash work. Programs queued on one die
// may be merged into one multi-plane transaction, carried by the first op's tx.
type flashOp struct {
	tx    hal.FlashCmd
	kind  opKind
	die   int
	ppn   ftl.PPN // the page (programs, reads), or the block's first page (erases)
	stamp uint64
	// Sub-page mapping (several units a page): slot is a read's unit in its page (0 with
	// one unit a page); a program carries units slots 0 … units−1 of its page, with
	// ustamps[i] and, for an eviction, victims[i] (stamp and victim are slot 0's), the
	// page's other slots padded.
	slot    uint8
	units   uint8
	ustamps [ftl.MaxUnitsPerPage]uint64
	victims [ftl.MaxUnitsPerPage]buffer.Victim
	// oob holds a program's out-of-band records, with firmware.power_loss.enabled: slot
	// i's (units of them; oob[0] with one unit a page).
	oob [ftl.MaxUnitsPerPage]uint64
	// covers are the blocks whose units this program supersedes (ncovers of them), which
	// may not be erased until it completes (eraseguard.go).
	covers  [ftl.MaxUnitsPerPage]ftl.BlockID
	ncovers uint8
	victim  buffer.Victim // opEvict
	bg      bool          // opEvict from background eviction
	fold    bool          // opGCProgram of a fold: its victim is an SLC block (slcfold.go)
	// rewrite marks a failed program's re-program (faults.go): it goes to the GC queue,
	// whatever its kind, as its page is in the GC stream's block.
	rewrite bool
	from    ftl.Unit   // a GC copy's original (opGCProgram), where it maps back if it cannot be placed
	flow    flowSrc    // the host command that caused it, when flows are traced (flows.go)
	w       *waiter    // reads, GC operations
	idx     int        // the waiter's slot for this page
	merged  []*flashOp // other ops carried by tx (multi-plane)
	next    *flashOp
	addrs   [maxPlanes]nand.Addr
	stamps  [maxPlanes * ftl.MaxUnitsPerPage]uint64
}

// opList is an intrusive FIFO.
type opList struct {
	head, tail *flashOp
	n          int
}

func (l *opList) push(op *flashOp) {
	op.next = nil
	if l.tail == nil {
		l.head = op
	} else {
		l.tail.next = op
	}
	l.tail = op
	l.n++
}

func (l *opList) pop() *flashOp {
	op := l.head
	l.head = op.next
	if l.head == nil {
		l.tail = nil
	}
	op.next = nil
	l.n--
	return op
}

// dieQueue holds the operations waiting for one die.
type dieQueue struct {
	reads     opList // host reads
	progs     opList // eviction programs, in allocation order
	gc        opList // GC reads, programs and erases, in order
	inChannel int
	hostRun   int // host programs dispatched since the last GC operation
	arriving  int // eviction programs whose data is still leaving DRAM
	readsOut  int // host reads handed to the channel and not yet completed
	arrayOut  int // programs and erases handed to the channel (power cap only)
	bgOut     int // background eviction programs handed to the channel (Stats.ReadsBehindBackground)
	capWait   bool
	held      bool // host reads queued by hold, not yet dispatched (readmerge.go)
}

// scheduler is the flash transaction scheduler: per-die queues feeding the channels.
type scheduler struct {
	arrival   *arrivalHandler
	f         *Firmware
	dies      []dieQueue
	free      []*flashOp
	sameBlock bool
	// The dies an eviction round may send pages to, as bitsets over the channel-first
	// interleaved order the rounds visit dies in (pos[g] is die g's place in it): fgOpen
	// has the dies with fewer than ForegroundPerDie eviction programs queued, bgOpen those
	// with fewer than BackgroundPerDie and no host reads queued or in flight. They are kept
	// up to date at every change of those counts (refresh), so a round visits only them.
	pos            []int32
	order          []int32 // order[i] is the die at place i (pos's inverse)
	fgOpen, bgOpen bitset.Set

	ordering SchedOrder // the ordering of each die's queues (schedorder.go)
	view     DieView    // shown to the ordering (kept here so it is not allocated per pick)
	cap      *powerCap  // nil: no power cap (powercap.go)
	units    int        // mapping units a page (ftl.FTL.UnitsPerPage)
	work     FlashWork  // the operations on the dies (powerwatch.go)
	held     []int      // dies with reads queued by hold (readmerge.go)
	// lastArrive, per die: the latest time an eviction program was queued to arrive;
	// padAt: the arrival of the die's last finality pad, before which no later program
	// arrives (final.go).
	lastArrive, padAt []sim.Time
}

func newScheduler(f *Firmware) *scheduler {
	n := f.geo.Dies()
	s := &scheduler{f: f, dies: make([]dieQueue, n),
		sameBlock: f.flash.Die().MultiPlaneSameBlock,
		pos:       make([]int32, n), order: make([]int32, n), fgOpen: bitset.New(n), bgOpen: bitset.New(n),
		lastArrive: make([]sim.Time, n), padAt: make([]sim.Time, n)}
	s.arrival = &arrivalHandler{s}
	s.units = f.geo.Units()
	def, _ := schedOrders.lookup(f.spec.Scheduler.Order) // Validate checked it
	s.ordering = def.New(f.spec)
	if k := capSlots(f.spec.Scheduler, n); k > 0 {
		s.cap = &powerCap{slots: k}
	}
	for i := range n {
		g := f.geo.InterleavedDie(i)
		s.pos[g], s.order[i] = int32(i), int32(g)
	}
	for g := range n {
		s.refresh(g)
	}
	return s
}

// refresh recomputes die g's membership of fgOpen and bgOpen from its queues.
func (s *scheduler) refresh(g int) {
	q, b := &s.f.spec.Buffer, int(s.pos[g])
	n := s.queuedPrograms(g)
	s.fgOpen.Put(b, n < q.ForegroundPerDie)
	s.bgOpen.Put(b, n < q.BackgroundPerDie && !s.readsWaiting(g))
}

// get returns a cleared operation from the pool.
func (s *scheduler) get(kind opKind, g int) *flashOp {
	var op *flashOp
	if n := len(s.free); n > 0 {
		op = s.free[n-1]
		s.free = s.free[:n-1]
	} else {
		op = &flashOp{}
		op.tx.Done = s
		op.tx.Tag = op
	}
	op.kind, op.die, op.w, op.bg, op.rewrite, op.merged, op.slot, op.ncovers = kind, g, nil, false, false, op.merged[:0], 0, 0
	op.units, op.fold = 0, false
	op.flow = flowSrc{}
	return op
}

func (s *scheduler) put(op *flashOp) {
	op.w = nil
	s.free = append(s.free, op)
}

// readsWaiting reports whether host reads are queued or in flight on die g: the die is in
// use by the applications, and background eviction leaves it alone.
func (s *scheduler) readsWaiting(g int) bool { return s.dies[g].reads.n+s.dies[g].readsOut > 0 }

// queuedPrograms returns the eviction programs waiting for die g.
func (s *scheduler) queuedPrograms(g int) int { return s.dies[g].progs.n + s.dies[g].arriving }

// arrival is the handler that queues an eviction program when its data has left DRAM.
type arrivalHandler struct{ s *scheduler }

// HandleEvent queues the arriving program.
func (a *arrivalHandler) HandleEvent(ev *sim.Event) {
	op := ev.Data.(*flashOp)
	a.s.dies[op.die].arriving--
	a.s.enqueue(op) // dispatch refreshes the die's membership
}

// arrive queues op at time t (now or later).
func (s *scheduler) arrive(t sim.Time, op *flashOp) {
	t = max(t, s.padAt[op.die])
	s.lastArrive[op.die] = max(s.lastArrive[op.die], t)
	s.dies[op.die].arriving++
	s.refresh(op.die)
	s.f.eng.SchedulePhase(t, sim.PhaseDefault, s.arrival, op, 0)
}

// enqueue adds op to its die's queue and dispatches.
func (s *scheduler) enqueue(op *flashOp) {
	q := &s.dies[op.die]
	switch op.kind {
	case opHostRead:
		s.readArrives(q, op)
		q.reads.push(op)
	case opEvict, opPad:
		// After a cut, the drain's page dumped in a block of the GC stream (ftl.FTL.Dump)
		// joins the GC queue if that holds programs (a failed program's re-program, a
		// finality pad queued before the cut, final.go): it carries the block's programs in
		// allocation order, which this queue would let the page overtake.
		if op.rewrite || s.f.pl.cut && q.gc.n > 0 && s.f.ftl.IsGCBlock(s.f.geo.BlockOf(op.ppn)) {
			q.gc.push(op)
			break
		}
		q.progs.push(op)
	default:
		q.gc.push(op)
	}
	s.dispatch(op.die)
}

// readArrives notes a host read arriving at its die's queue q (enqueue, or hold for a
// command's reads of several units): the die's read activity (activity.go, FastDrain's
// idle-die rule) and whether it meets flash work already on the die.
func (s *scheduler) readArrives(q *dieQueue, op *flashOp) {
	s.f.activity.note(op.die, s.f.eng.Now())
	if q.inChannel > q.readsOut { // a program, an erase or a GC read holds the die
		s.f.Stats.ReadsBehindArray++
		if q.bgOut > 0 {
			s.f.Stats.ReadsBehindBackground++
		}
	}
}

// dispatch hands operations to die g's channel while it has fewer than DieDepth, and
// refreshes the die's membership of the open sets (its queues have changed).
func (s *scheduler) dispatch(g int) {
	s.dispatchOps(g)
	s.refresh(g)
}

// dispatchOps hands die g's operations to its channel while it has fewer than DieDepth,
// in the order the scheduler's ordering picks (schedorder.go).
func (s *scheduler) dispatchOps(g int) {
	q := &s.dies[g]
	sp := &s.f.spec.Scheduler
	v := &s.view
	for q.inChannel < sp.DieDepth {
		// Field by field: a composite literal would be built on the stack and copied over.
		v.Die, v.Reads, v.Programs, v.GC, v.InChannel, v.HostRun, v.s = g, q.reads.n, q.progs.n, q.gc.n,
			q.inChannel, q.hostRun, s
		var op *flashOp
		pk := s.ordering.Next(v)
		if s.cap != nil && s.needsSlot(q, pk) && !s.takeSlot(g) {
			return
		}
		switch {
		case pk == PickNone:
			return
		case pk == PickRead && q.reads.n > 0:
			op = q.reads.pop()
			if s.units > 1 && q.reads.n > 0 {
				op.units = uint8(s.mergeReads(q, op))
			}
		case pk == PickGC && q.gc.n > 0:
			op = q.gc.pop()
			q.hostRun = 0
			if op.fold && sp.MultiPlane {
				s.mergeFold(q, op) // slcfold.go
			}
		case pk == PickProgram && q.progs.n > 0:
			op = q.progs.pop()
			q.hostRun++
			if sp.MultiPlane {
				s.merge(q, op)
			}
		default:
			panic(fmt.Sprintf("firmware %s: scheduler order %q picked %d from an empty queue of die %d",
				s.f.name, s.f.spec.Scheduler.Order, pk, g))
		}
		if op.kind == opHostRead {
			q.readsOut++
		}
		if s.cap != nil && op.kind != opHostRead && op.kind != opGCRead {
			q.arrayOut++
		}
		if op.bg {
			q.bgOut++
		}
		s.submit(op)
		q.inChannel++
	}
}

// needsSlot reports whether pick pk of die queue q is a program or an erase, which the
// power cap counts.
func (s *scheduler) needsSlot(q *dieQueue, pk Pick) bool {
	switch pk {
	case PickProgram:
		return q.progs.n > 0
	case PickGC:
		return q.gc.n > 0 && q.gc.head.kind != opGCRead
	}
	return false
}

// takeSlot reports whether die g may be handed a program or erase under the power cap. A
// die that holds a slot keeps it while no other die waits; one without takes a free slot
// or joins the FIFO of waiting dies (once), to be dispatched again by releaseSlot.
func (s *scheduler) takeSlot(g int) bool {
	c, q := s.cap, &s.dies[g]
	if q.arrayOut > 0 {
		return len(c.waiting) == 0
	}
	if c.slots > 0 {
		c.slots--
		return true
	}
	if !q.capWait {
		q.capWait = true
		c.waiting = append(c.waiting, int32(g))
	}
	return false
}

// releaseSlot gives back a slot and dispatches waiting dies, in arrival order, while slots
// are free. Only dies holding no slot wait, so each one dispatched takes the slot or no
// longer needs one, and the loop ends.
func (s *scheduler) releaseSlot() {
	c := s.cap
	c.slots++
	for c.slots > 0 && len(c.waiting) > 0 {
		g := int(c.waiting[0])
		c.waiting = c.waiting[1:]
		s.dies[g].capWait = false
		s.dispatch(g)
	}
}

// gcUrgent reports whether a plane of die g is down to the free blocks host streams may not
// take (the GC reserve, and the hold-up reserve of power-loss protection), when GC must win.
func (s *scheduler) gcUrgent(g int) bool {
	floor := s.f.ftl.HostFloor()
	for p := 0; p < s.f.geo.Planes; p++ {
		if s.f.ftl.FreeBlocks(g, p) <= floor {
			return true
		}
	}
	return false
}

// merge joins to op the programs at the head of q that are on other planes at the same
// page index (and block, if the die requires it), for one multi-plane transaction. Only a
// contiguous run at the head is taken, so programs of one block stay in order.
func (s *scheduler) merge(q *dieQueue, op *flashOp) {
	used := uint64(1) << uint(s.f.geo.Addr(op.ppn).Plane)
	a0 := s.f.geo.Addr(op.ppn)
	for q.progs.n > 0 && len(op.merged)+1 < s.f.geo.Planes {
		nx := q.progs.head
		a := s.f.geo.Addr(nx.ppn)
		if a.Page != a0.Page || used&(1<<uint(a.Plane)) != 0 || (s.sameBlock && a.Block != a0.Block) ||
			s.f.slc != nil && !s.f.slc.sameMode(op.ppn, nx.ppn) {
			return
		}
		used |= 1 << uint(a.Plane)
		op.merged = append(op.merged, q.progs.pop())
	}
}

// submit fills op's transaction and submits it to the die's channel.
func (s *scheduler) submit(op *flashOp) {
	tx := &op.tx
	tx.Bytes = 0
	tx.Addrs = op.addrs[:0]
	tx.Stamps = op.stamps[:0]
	switch op.kind {
	case opHostRead, opGCRead:
		tx.Op = hal.FlashRead
		// A host read may suspend the die's program or erase (when the die has suspend);
		// GC's reads wait for the die.
		tx.MaySuspend = op.kind == opHostRead
		_, a := s.f.addr(op.ppn)
		tx.Addrs = append(tx.Addrs, a)
		if s.units > 1 {
			// The unit's columns of the page register (ONFI Change Read Column), or every
			// merged read's (readmerge.go).
			tx.Bytes = s.f.spec.PageSize * max(1, int(op.units))
		}
	case opEvict, opGCProgram, opPad, opBackup:
		tx.Op = hal.FlashProgram
		_, a := s.f.addr(op.ppn)
		tx.Addrs = append(tx.Addrs, a)
		if s.units > 1 {
			tx.Stamps = append(tx.Stamps, op.ustamps[:s.units]...)
		} else {
			tx.Stamps = append(tx.Stamps, op.stamp)
		}
		for _, m := range op.merged {
			_, a := s.f.addr(m.ppn)
			tx.Addrs = append(tx.Addrs, a)
			if s.units > 1 {
				tx.Stamps = append(tx.Stamps, m.ustamps[:s.units]...)
			} else {
				tx.Stamps = append(tx.Stamps, m.stamp)
			}
		}
	case opErase:
		tx.Op = hal.FlashErase
		_, a := s.f.addr(op.ppn)
		a.Page = 0
		tx.Addrs = append(tx.Addrs, a)
	default:
		panic(fmt.Sprintf("firmware: unknown flash op kind %d", op.kind))
	}
	if s.f.slc != nil {
		s.f.slc.submitted(op, tx) // the block's mode (slcfold.go)
	}
	s.track(op, 1)
	s.f.flash.Submit(op.die, tx)
}

// HandleEvent receives a completed transaction from a channel.
func (s *scheduler) HandleEvent(ev *sim.Event) {
	tx := ev.Data.(*hal.FlashCmd)
	op := tx.Tag.(*flashOp)
	now := ev.Time
	g := op.die
	if s.f.flows != nil {
		s.f.flows.done(op, tx)
	}
	s.dies[g].inChannel--
	s.track(op, -1)
	if op.bg {
		s.dies[g].bgOut--
	}
	if op.kind == opHostRead {
		s.dies[g].readsOut--
		s.refresh(g)
		if tx.Suspended {
			s.f.Stats.ReadSuspends++
		}
	}
	if tx.Retries > 0 {
		s.f.faults.ReadRetries += int64(tx.Retries)
	}
	if tx.Failed != 0 {
		s.failed(now, op, tx)
	} else {
		s.f.opDone(now, op, tx.Stamps)
		for _, m := range op.merged {
			s.f.opDone(now, m, s.mergedStamps(m, tx))
		}
	}
	for _, m := range op.merged {
		s.put(m)
	}
	op.merged = op.merged[:0]
	kind := op.kind
	s.put(op)
	if s.cap != nil && kind != opHostRead && kind != opGCRead {
		if s.dies[g].arrayOut--; s.dies[g].arrayOut == 0 {
			s.releaseSlot()
		}
	}
	s.dispatch(g)
}

// failed completes a transaction the die reported failed (some of its addresses): each
// failed program is handled by programFailed, a failed erase by its GC task (erased), an
// uncorrectable read by its waiter's owner (a host read completes with Unrecovered Read
// Error), and the transaction's other operations complete as usual.
func (s *scheduler) failed(now sim.Time, op *flashOp, tx *hal.FlashCmd) {
	f := s.f
	for i := 0; i <= len(op.merged); i++ {
		o := op
		if i > 0 {
			o = op.merged[i-1]
		}
		bit := uint(i)
		if op.kind == opHostRead {
			bit = 0 // merged reads (readmerge.go) share the transaction's one address
		}
		switch {
		case tx.Failed&(1<<bit) == 0:
		case o.kind == opErase:
			f.faults.EraseFailures++
			o.w.failed = true
		case o.kind == opHostRead || o.kind == opGCRead:
			f.faults.Uncorrectable++
			o.w.failed = true
		case o.kind == opBackup:
			f.faults.ProgramFailures++
			f.backupFailed(o)
			continue
		case o.kind == opPad:
			// No data to place again: the block is retired (its valid pages move) and the
			// pad counts as done.
			f.faults.ProgramFailures++
			f.retire(f.geo.BlockOf(o.ppn))
		default:
			if f.programFailed(now, o) {
				continue // outstanding until its new program succeeds
			}
		}
		var stamps []uint64
		if i == 0 || o.kind == opHostRead {
			stamps = tx.Stamps
		}
		f.opDone(now, o, stamps)
	}
}
