package channel

import (
	"fmt"
	"github.com/fastdrain-sim/fastdrain/internal/bitset"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Event codes of the channel's own events.
const (
	evBus      = iota // a bus phase of Data's transaction ended
	evArray           // Data's array operation was due to end
	evDispatch        // arbitrate after this instant's submissions
)

// dispatchPhase runs arbitration after every process that runs at the same time has had
// its chance to submit, so a policy sees all of an instant's transactions together.
const dispatchPhase = sim.PhaseProcess + 1

// Stats counts a channel's completed transactions and the data it moved.
type Stats struct {
	Reads, Programs, Erases int64 // completed transactions
	BytesIn, BytesOut       int64 // data bytes moved to and from the dies
	// Cached counts the programs whose data went into a die's cache register while its
	// array programmed the page before (die.Spec.CacheProgram, cacheprog.go).
	Cached int64
}

// way is the channel's view of one die: its queues and who holds it.
type way struct {
	die    *die.Die
	reads  txList       // queued reads
	writes txList       // queued programs and erases
	owner  *Transaction // holds the die from its first bus cycle to completion
	reader *Transaction // a read that suspended the owner's program or erase
	// cached is a program whose data went (or goes) into the die's cache register while the
	// owner programs the array (die.Spec.CacheProgram, cacheprog.go); it becomes the owner
	// when the owner completes.
	cached *Transaction
	count  int // queued and in-flight transactions
	// readPlanes has bit p set while a read of plane p is in flight on a die with
	// independent plane reads (die.Spec.IndependentPlaneReads): such reads hold their planes,
	// not the die (owner), so reads of other planes may start. Always 0 on other dies.
	readPlanes uint64
}

// Channel is one ONFI bus and the dies on it. It implements sim.Handler for its own events.
type Channel struct {
	name string
	eng  *sim.Engine
	spec Spec
	bus  *sim.Resource
	ways []way
	// candWays has bit i set while ways[i] may have a transaction to start (noteWay), so
	// arbitration visits only those: a channel may have dozens of dies, most with nothing
	// queued or busy with a program that only a read could suspend.
	candWays bitset.Set

	actCmd, actIn, actOut sim.Activity
	slots                 int  // stamps per page (spec.Die.StampsPerPage), kept to spare Submit a copy of the spec
	twoPass               bool // the dies program in two passes: some programs send data again
	indep                 bool // the dies read their planes independently (die.Spec.IndependentPlaneReads)
	cacheProg             bool // the dies take a program's data while programming (die.Spec.CacheProgram)

	busBusy         bool   // a bus phase is running (its end event is pending)
	dispatchPending bool   // an evDispatch event is scheduled
	inEvent         bool   // HandleEvent is running (it dispatches when it returns)
	queued          int    // transactions waiting in the dies' queues
	ready           txList // transactions whose array work is done, waiting for the bus
	seq             uint64
	stats           Stats

	// Phase durations, precomputed from the ONFI spec (index [planes] or [planes][plane]).
	readCmd, eraseCmd     []sim.Time
	outSetup              [][]sim.Time
	progSetup, progConfrm [][]sim.Time
	status                sim.Time // status poll (+ 00h to re-enter read mode, for reads)
	pageXfer              sim.Time // Transfer(PageSize)

	note sim.Event // the event handed to Done handlers (valid during the call only)
}

// New builds a channel named name (e.g. "ssd.ch[3]") with spec.Dies dies named
// name.die[i], or returns the spec's problems. The bus Resource is named name.
func New(eng *sim.Engine, name string, spec Spec) (*Channel, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	c := &Channel{name: name, eng: eng, spec: spec, slots: spec.Die.StampsPerPage(),
		twoPass: spec.Die.ProgramScheme() == die.TwoPass,
		indep:   spec.Die.IndependentPlaneReads && spec.Die.Planes > 1, cacheProg: spec.Die.CacheProgram}
	c.bus = sim.NewResource(name)
	c.actCmd = c.bus.Activity("command")
	c.actIn = c.bus.Activity("data-in")
	c.actOut = c.bus.Activity("data-out")
	for i := range spec.Dies {
		d, err := die.New(fmt.Sprintf("%s.die[%d]", name, i), spec.Die)
		if err != nil {
			return nil, err
		}
		c.ways = append(c.ways, way{die: d})
	}
	c.candWays = bitset.New(spec.Dies)
	c.precompute()
	return c, nil
}

// precompute tabulates the phase durations for every plane count.
func (c *Channel) precompute() {
	o := c.spec.ONFI
	np := c.spec.Die.Planes
	c.readCmd = make([]sim.Time, np+1)
	c.eraseCmd = make([]sim.Time, np+1)
	c.outSetup = make([][]sim.Time, np+1)
	c.progSetup = make([][]sim.Time, np+1)
	c.progConfrm = make([][]sim.Time, np+1)
	for n := 1; n <= np; n++ {
		c.readCmd[n] = o.ReadCommand(n)
		c.eraseCmd[n] = o.EraseCommand(n)
		for p := range n {
			c.outSetup[n] = append(c.outSetup[n], o.ReadOutSetup(p, n))
			c.progSetup[n] = append(c.progSetup[n], o.ProgramSetup(p, n))
			c.progConfrm[n] = append(c.progConfrm[n], o.ProgramConfirm(p, n))
		}
	}
	c.status = o.StatusRead(c.spec.Dies > 1)
	c.pageXfer = o.Transfer(c.spec.Die.PageSize)
}

// Name returns the channel's hierarchical name.
func (c *Channel) Name() string { return c.name }

// Spec returns the channel's configuration.
func (c *Channel) Spec() Spec { return c.spec }

// Bus returns the bus Resource: busy with command, data-in or data-out.
func (c *Channel) Bus() *sim.Resource { return c.bus }

// NumDies returns the number of dies on the channel.
func (c *Channel) NumDies() int { return len(c.ways) }

// Die returns die i of the channel.
func (c *Channel) Die(i int) *die.Die { return c.ways[i].die }

// Outstanding returns how many transactions to die i are queued or in flight.
func (c *Channel) Outstanding(i int) int { return c.ways[i].count }

// Stats returns the channel's counts.
func (c *Channel) Stats() Stats { return c.stats }

// fail panics naming the channel and the simulated time: the caller has a bug.
func (c *Channel) fail(format string, a ...any) {
	panic(fmt.Sprintf("channel %s at %v: %s", c.name, c.eng.Now(), fmt.Sprintf(format, a...)))
}

// Submit queues tx at the current simulated time. The bus is arbitrated after the processes
// that run at this instant have had their turn (so a policy sees all of an instant's
// submissions), or, for a submission from a Done handler, when the channel's event ends.
//
// Submit panics on a malformed transaction (a firmware bug): unknown kind or die, no
// addresses or more than the die's planes, a program without a stamp per address, Bytes
// outside 0 … PageSize, or tx still in flight.
// Address rules (in-order programming, multi-plane) are checked by the die when the
// command reaches it.
func (c *Channel) Submit(tx *Transaction) {
	if tx.state != stFree {
		c.fail("transaction to die %d submitted while still in flight", tx.Die)
	}
	if tx.Die < 0 || tx.Die >= len(c.ways) {
		c.fail("transaction to die %d; the channel has %d dies", tx.Die, len(c.ways))
	}
	n := len(tx.Addrs)
	if n == 0 || n > c.spec.Die.Planes {
		c.fail("%v of %d planes on die %d; dies have %d planes", tx.Kind, n, tx.Die, c.spec.Die.Planes)
	}
	if tx.Bytes < 0 || tx.Bytes > c.spec.Die.PageSize {
		c.fail("%v of %d bytes per plane; pages hold %d", tx.Kind, tx.Bytes, c.spec.Die.PageSize)
	}
	ns := n * c.slots // a page's stamps: one per slot (die.Spec.Slots)
	switch tx.Kind {
	case Read:
		if cap(tx.Stamps) < ns {
			tx.Stamps = make([]uint64, ns)
		}
		tx.Stamps = tx.Stamps[:ns]
	case Program:
		if len(tx.Stamps) < ns {
			c.fail("program of %d planes on die %d with %d stamps", n, tx.Die, len(tx.Stamps))
		}
	case Erase:
	default:
		c.fail("transaction of unknown kind %d", tx.Kind)
	}
	if c.indep && tx.Kind == Read {
		tx.planes = 0
		for _, a := range tx.Addrs {
			tx.planes |= 1 << uint(a.Plane)
		}
	}
	now := c.eng.Now()
	tx.Submitted, tx.BusStart, tx.ArrayStart, tx.ArrayEnd, tx.Completed = now, 0, 0, 0, 0
	c.seq++
	tx.seq = c.seq
	tx.state = stQueued
	w := &c.ways[tx.Die]
	w.count++
	if tx.Kind == Read {
		w.reads.push(tx)
	} else {
		w.writes.push(tx)
	}
	c.noteWay(tx.Die)
	c.queued++
	if !c.busBusy && !c.dispatchPending && !c.inEvent {
		c.dispatchPending = true
		c.eng.SchedulePhase(now, dispatchPhase, c, nil, evDispatch)
	}
}

// HandleEvent implements sim.Handler: a bus phase or an array operation ended, or
// arbitration is due.
func (c *Channel) HandleEvent(ev *sim.Event) {
	now := ev.Time
	c.inEvent = true
	switch ev.Code {
	case evBus:
		c.busBusy = false
		c.busDone(ev.Data.(*Transaction), now)
	case evArray:
		c.arrayDone(ev.Data.(*Transaction), now)
	case evDispatch:
		c.dispatchPending = false
	}
	c.inEvent = false
	c.dispatch(now)
}
