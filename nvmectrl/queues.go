package nvmectrl

import "github.com/fastdrain-sim/fastdrain/sim"

// Priority is an I/O submission queue's priority class, the QPRIO field of Create I/O SQ
// CDW11 bits 2:1 (docs/sources.md §1.6). It matters only under weighted round robin.
type Priority uint8

// Priority classes (docs/sources.md §1.6: 00 urgent, 01 high, 10 medium, 11 low).
const (
	PrioUrgent Priority = 0
	PrioHigh   Priority = 1
	PrioMedium Priority = 2
	PrioLow    Priority = 3
)

// CQConfig describes a completion queue to create (Create I/O CQ, docs/sources.md §1.5).
type CQConfig struct {
	ID      uint16 // 1..max_io_queues
	Base    uint64 // page-aligned host address of the ring (PRP1)
	Entries int    // 2..max_queue_entries (QSIZE + 1)
	IEN     bool   // interrupts enabled
	Vector  uint16 // MSI-X vector (IV)
}

// SQConfig describes a submission queue to create (Create I/O SQ, docs/sources.md §1.5).
type SQConfig struct {
	ID       uint16 // 1..max_io_queues
	Base     uint64 // page-aligned host address of the ring (PRP1)
	Entries  int    // 2..max_queue_entries (QSIZE + 1)
	CQID     uint16 // completion queue its completions go to; must exist
	Priority Priority
}

// SQ arbitration states.
const (
	sqIdle   = iota // nothing to fetch, or deleted
	sqListed        // waiting in its class's list
	sqTurn          // the arbiter's current turn
)

// subQueue is the controller's state of one submission queue.
type subQueue struct {
	id     uint16
	base   uint64
	size   uint32
	cqid   uint16
	prio   Priority
	tail   uint32     // the host's tail, from the last doorbell
	next   uint32     // next entry to fetch
	head   uint32     // entries consumed: their SQEs have arrived (SQHD)
	dbTime []sim.Time // when each entry's doorbell arrived
	state  uint8
	busy   int         // commands between fetch issue and CQE arrival
	stats  *QueueStats // kept when Controller.EnableQueueStats was called (queuestats.go)
}

// pending returns how many entries the host has submitted and the controller has not yet
// started fetching.
func (q *subQueue) pending() uint32 { return (q.tail + q.size - q.next) % q.size }

// complQueue is the controller's state of one completion queue.
type complQueue struct {
	id     uint16
	base   uint64
	size   uint32
	ien    bool
	vector uint16
	head   uint32 // the host's head, from the last doorbell
	tail   uint32 // next slot to post
	phase  uint8  // phase tag of the current pass: 1 on the first (docs/sources.md §1.3)
	sqs    int    // submission queues bound to it

	waitHead, waitTail *Command // completions waiting for room
	// inFlight are head doorbells booked on the link that have not been applied, in
	// booking order, with arrival times in that order (cqArrived; RingCQ).
	inFlight []cqDoorbell
}

// cqDoorbell is one CQ head doorbell write on its way to the controller.
type cqDoorbell struct {
	at   sim.Time // when it arrives
	head uint32
}

func (q *complQueue) full() bool { return (q.tail+1)%q.size == q.head }

// CreateCQ creates an I/O completion queue as Create I/O CQ would and returns the
// command's status: the admin command uses it, and tests and platform builders may call it
// directly at set-up.
func (c *Controller) CreateCQ(cfg CQConfig) Status {
	switch {
	case c.regs.csts&CSTSReady == 0:
		return StatusCommandSequenceError
	case cfg.ID == 0 || int(cfg.ID) > c.ncqa || c.cq(cfg.ID) != nil:
		return StatusInvalidQueueID
	case cfg.Entries < 2 || cfg.Entries > c.spec.MaxQueueEntries:
		return StatusInvalidQueueSize
	case cfg.Base == 0 || cfg.Base%PageSize != 0:
		return StatusInvalidField
	case int(cfg.Vector) >= c.spec.Vectors:
		return StatusInvalidVector
	}
	c.addCQ(cfg)
	return StatusSuccess
}

func (c *Controller) addCQ(cfg CQConfig) {
	for len(c.cqs) <= int(cfg.ID) {
		c.cqs = append(c.cqs, nil)
	}
	c.cqs[cfg.ID] = &complQueue{id: cfg.ID, base: cfg.Base, size: uint32(cfg.Entries), ien: cfg.IEN,
		vector: cfg.Vector, phase: 1}
}

// CreateSQ creates an I/O submission queue as Create I/O SQ would and returns the
// command's status.
func (c *Controller) CreateSQ(cfg SQConfig) Status {
	switch {
	case c.regs.csts&CSTSReady == 0:
		return StatusCommandSequenceError
	case cfg.ID == 0 || int(cfg.ID) > c.nsqa || c.sq(cfg.ID) != nil:
		return StatusInvalidQueueID
	case cfg.Entries < 2 || cfg.Entries > c.spec.MaxQueueEntries:
		return StatusInvalidQueueSize
	case cfg.Base == 0 || cfg.Base%PageSize != 0 || cfg.Priority > PrioLow:
		return StatusInvalidField
	case cfg.CQID == 0 || c.cq(cfg.CQID) == nil:
		return StatusCompletionQueueInvalid
	}
	c.addSQ(cfg)
	return StatusSuccess
}

func (c *Controller) addSQ(cfg SQConfig) {
	for len(c.sqs) <= int(cfg.ID) {
		c.sqs = append(c.sqs, nil)
	}
	c.sqs[cfg.ID] = &subQueue{id: cfg.ID, base: cfg.Base, size: uint32(cfg.Entries), cqid: cfg.CQID,
		prio: cfg.Priority, dbTime: make([]sim.Time, cfg.Entries)}
	c.cqs[cfg.CQID].sqs++
}

// DeleteSQ deletes an I/O submission queue as Delete I/O SQ would. Deleting a queue with
// entries pending or commands in flight is not modelled: it returns Invalid Field.
func (c *Controller) DeleteSQ(id uint16) Status {
	q := c.sq(id)
	c.landed(c.eng.Now())
	switch {
	case id == 0 || q == nil:
		return StatusInvalidQueueID
	case q.state != sqIdle || q.busy != 0 || q.pending() != 0:
		return StatusInvalidField
	}
	c.cqs[q.cqid].sqs--
	c.sqs[id] = nil
	return StatusSuccess
}

// DeleteCQ deletes an I/O completion queue as Delete I/O CQ would; its submission queues
// must be deleted first (docs/sources.md §1.4 order; Invalid Queue Deletion otherwise).
func (c *Controller) DeleteCQ(id uint16) Status {
	q := c.cq(id)
	switch {
	case id == 0 || q == nil:
		return StatusInvalidQueueID
	case q.sqs != 0 || q.waitHead != nil:
		return StatusInvalidQueueDeletion
	}
	c.cqs[id] = nil
	return StatusSuccess
}

func (c *Controller) sq(id uint16) *subQueue {
	if int(id) < len(c.sqs) {
		return c.sqs[id]
	}
	return nil
}

func (c *Controller) cq(id uint16) *complQueue {
	if int(id) < len(c.cqs) {
		return c.cqs[id]
	}
	return nil
}

// RingSQ is the host writing tail to submission queue qid's tail doorbell at time now
// (docs/sources.md §1.4: SQyTDBL at 1000h + 2y·4). The controller books the 4-byte MMIO write on
// the link and applies the doorbell when it arrives, which RingSQ returns. The host must
// have written the SQEs into host memory before.
func (c *Controller) RingSQ(now sim.Time, qid uint16, tail int) sim.Time {
	q := c.sq(qid)
	if q == nil || tail < 0 || uint32(tail) >= q.size {
		c.panicf("SQ %d tail doorbell %d: no such queue or tail out of range", qid, tail)
	}
	t := c.link.MMIOWrite(now, 4)
	c.schedule(t, evSQDoorbell, int64(qid)<<16|int64(tail), nil)
	return t
}

// RingCQ is the host writing head to completion queue qid's head doorbell at time now
// (CQyHDBL at 1000h + (2y+1)·4), after consuming the entries before head. Like RingSQ it
// books the MMIO write and returns its arrival.
func (c *Controller) RingCQ(now sim.Time, qid uint16, head int) sim.Time {
	q := c.cq(qid)
	if q == nil || head < 0 || uint32(head) >= q.size {
		c.panicf("CQ %d head doorbell %d: no such queue or head out of range", qid, head)
	}
	// The host may only release entries it has read, which were posted already.
	last := q.head
	if n := len(q.inFlight); n > 0 {
		last = q.inFlight[n-1].head
	}
	if (uint32(head)+q.size-last)%q.size > (q.tail+q.size-last)%q.size {
		c.panicf("CQ %d head doorbell %d passes the tail %d (head was %d)", qid, head, q.tail, last)
	}
	t := c.link.MMIOWrite(now, 4)
	c.Stats.CQDoorbells++
	// A head doorbell matters to the controller only when it next looks at the CQ's room
	// (post, when a CQE is written) or when CQEs wait for room. So it is kept on the queue
	// with its arrival time and applied when the controller looks (cqArrived), which saves
	// one engine event per batch of completions with the same result; only when CQEs wait
	// (or an arrival would overtake one kept) does the arrival need an event of its own,
	// to drain them. One difference: a doorbell arriving at the very time the controller
	// looks counts as arrived, where two events at one time would go in the order they
	// were scheduled; it matters only to a CQ full at that picosecond.
	if n := len(q.inFlight); q.waitHead != nil || n > 0 && q.inFlight[n-1].at > t {
		c.scheduleInFlight(q)
		c.schedule(t, evCQDoorbell, int64(qid)<<16|int64(head), nil)
		return t
	}
	q.inFlight = append(q.inFlight, cqDoorbell{t, uint32(head)})
	return t
}

// cqArrived applies q's head doorbells that have arrived by now, in order.
func (c *Controller) cqArrived(now sim.Time, q *complQueue) {
	n := 0
	for ; n < len(q.inFlight) && q.inFlight[n].at <= now; n++ {
		c.applyCQHead(q, q.inFlight[n].head)
	}
	if n > 0 {
		q.inFlight = append(q.inFlight[:0], q.inFlight[n:]...)
	}
}

// scheduleInFlight turns q's head doorbells still on their way into arrival events, when
// their arrivals must drain waiting CQEs.
func (c *Controller) scheduleInFlight(q *complQueue) {
	for _, d := range q.inFlight {
		c.schedule(d.at, evCQDoorbell, int64(q.id)<<16|int64(d.head), nil)
	}
	q.inFlight = q.inFlight[:0]
}

func (c *Controller) sqDoorbell(now sim.Time, qid uint16, tail uint32) {
	q := c.sq(qid)
	if q == nil {
		c.panicf("SQ %d tail doorbell arrived for a deleted queue", qid)
	}
	c.Stats.SQDoorbells++
	// The new entries are those between the old and the new tail (docs/sources.md §1.4: the
	// difference between successive tail writes, with rollover).
	if (tail+q.size-q.next)%q.size < q.pending() {
		c.panicf("SQ %d tail doorbell %d moves back over entries being fetched (next %d)", qid, tail, q.next)
	}
	for i := q.tail; i != tail; i = (i + 1) % q.size {
		q.dbTime[i] = now
	}
	q.tail = tail
	if q.state == sqIdle && q.pending() > 0 {
		c.arb.enqueue(q)
		c.kick(now)
	}
}

func (c *Controller) cqDoorbell(now sim.Time, qid uint16, head uint32) {
	q := c.cq(qid)
	if q == nil {
		c.panicf("CQ %d head doorbell arrived for a deleted queue", qid)
	}
	c.cqArrived(now, q)
	c.applyCQHead(q, head)
	if q.waitHead != nil && !q.full() {
		// Waiting CQEs go out CompletionCycles later, on the front end's clock.
		c.schedule(c.clk.After(now, c.spec.CompletionCycles), evDrainCQ, int64(qid), nil)
	}
}

// applyCQHead moves q's head to the doorbell's value, which must not pass the tail.
func (c *Controller) applyCQHead(q *complQueue, head uint32) {
	posted := (q.tail + q.size - q.head) % q.size
	if (head+q.size-q.head)%q.size > posted {
		c.panicf("CQ %d head doorbell %d passes the tail %d (head was %d)", q.id, head, q.tail, q.head)
	}
	q.head = head
}

// drainCQ writes waiting CQEs of CQ qid while it has room.
func (c *Controller) drainCQ(now sim.Time, qid uint16) {
	q := c.cq(qid)
	for q != nil && q.waitHead != nil && !q.full() {
		cmd := q.waitHead
		q.waitHead = cmd.next
		if q.waitHead == nil {
			q.waitTail = nil
		}
		cmd.next = nil
		c.write(now, q, cmd)
	}
}

// kick makes the arbiter run ArbitrationCycles after now, unless it is already due. Every
// caller kicks as the last step of its event (a doorbell's arrival, a fetch's end, a
// landing), so when nothing else would happen before the arbitration it runs at once, as
// the rest of the event (sim.Engine.Jump): it sees the same state and books the same
// fetches as its own event would, with one engine event fewer.
func (c *Controller) kick(now sim.Time) {
	if !c.arbQueued {
		t := c.clk.After(now, c.spec.ArbitrationCycles)
		if c.eng.Jump(t, sim.PhaseDefault) {
			c.arbitrate(t)
			return
		}
		c.arbQueued = true
		c.schedule(t, evArbitrate, 0, nil)
	}
}
