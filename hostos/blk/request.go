package blk

import "github.com/fastdrain-sim/fastdrain/sim"

// Request is one unit of work for the driver (struct request): a contiguous byte range of
// one operation built from one or more bios. Requests are owned and recycled by their
// Queue: the driver may read every field and set Private between QueueRequest and
// Complete, and must not keep the pointer after Complete.
type Request struct {
	Op     Op
	Offset int64 // bytes from the start of the device
	Size   int64 // bytes (0 for a flush)
	// Bios lists the bios whose data the request carries, one entry per part: a bio split
	// because it exceeded MaxRequestBytes appears in several requests. Order is merge
	// order, not address order.
	Bios []*Bio
	// Sync is set if any merged bio is sync (reads are always sync, as op_is_sync says).
	Sync bool
	// FUA is the bio's forced-unit-access flag; FUA requests never merge.
	FUA bool
	// Hint is the merged victimization hint: Victim if any merged bio is a victim write,
	// and Pages the largest count among them, which is the count of the earliest bio of the
	// pass and so includes every page this request carries.
	Hint Hint
	// WriteStream is the bios' write stream (rq->write_stream); requests of different
	// streams never merge (blk_rq_merge_ok, attempt_merge).
	WriteStream uint8
	// WriteHint is the bios' data-lifetime hint (rq->write_hint, Linux 6.9); requests of
	// different hints never merge either (blk_rq_merge_ok, attempt_merge).
	WriteHint WriteHint
	// Tag is the driver tag, 0..QueueDepth−1, set at dispatch; −1 before.
	Tag int
	// Alloc is when the request was allocated, Insert when it entered the scheduler,
	// Dispatch when it was last handed to the driver and Complete when the driver
	// completed it.
	Alloc, Insert, Dispatch, Complete sim.Time
	// Private is the driver's cookie; the queue clears it when the request is recycled.
	Private any
	// Result is what the driver completed a passthrough request with (nvme_req(req)->
	// result: a Zone Append's ALBA); the queue passes it to the bio.
	Result uint64

	q        *Queue
	state    rqState
	seq      uint64   // allocation order; ties in mq-deadline's sort
	prev     *Request // scheduler list links
	next     *Request
	fifoTime sim.Time // mq-deadline deadline
	sortKey  int64    // mq-deadline: the offset the sort array holds the request under
	domain   int      // kyber domain
	hashEnd  bool     // in the back-merge hash under End()
	hashOff  bool     // in the front-merge hash under Offset
	wbt      int8     // 1 + the wbt class whose in-flight slot the request holds, 0 if none
}

// End returns the byte offset just past the request.
func (r *Request) End() int64 { return r.Offset + r.Size }

// rqState is where a request is in its life.
type rqState uint8

const (
	rqFree     rqState = iota // in the pool
	rqQueued                  // in the scheduler (or the flush list), mergeable
	rqStalled                 // refused by the driver, to be offered again first
	rqInDriver                // accepted by the driver
)

// rqList is an intrusive FIFO of requests linked through prev/next.
type rqList struct {
	head, tail *Request
	n          int
}

func (l *rqList) pushBack(r *Request) {
	r.prev, r.next = l.tail, nil
	if l.tail != nil {
		l.tail.next = r
	} else {
		l.head = r
	}
	l.tail = r
	l.n++
}

// insertAfter links r just after at (at must be on the list).
func (l *rqList) insertAfter(at, r *Request) {
	r.prev, r.next = at, at.next
	if at.next != nil {
		at.next.prev = r
	} else {
		l.tail = r
	}
	at.next = r
	l.n++
}

func (l *rqList) remove(r *Request) {
	if r.prev != nil {
		r.prev.next = r.next
	} else {
		l.head = r.next
	}
	if r.next != nil {
		r.next.prev = r.prev
	} else {
		l.tail = r.prev
	}
	r.prev, r.next = nil, nil
	l.n--
}

func (l *rqList) popFront() *Request {
	r := l.head
	if r != nil {
		l.remove(r)
	}
	return r
}

// waiter is a bio, or the rest of a split bio, waiting for a request to be allocated.
type waiter struct {
	bio *Bio
	off int64  // next byte of the bio to place in a request
	seq uint64 // arrival order across the sync and async wait lists
	// token: the part at off holds a wbt in-flight slot but no request yet.
	token bool
}

// waitRing is a FIFO of waiters in a reusable ring (no allocation once grown).
type waitRing struct {
	buf        []waiter
	head, size int
}

func (r *waitRing) push(w waiter) {
	if r.size == len(r.buf) {
		nb := make([]waiter, max(16, 2*len(r.buf)))
		for i := 0; i < r.size; i++ {
			nb[i] = r.buf[(r.head+i)%len(r.buf)]
		}
		r.buf, r.head = nb, 0
	}
	r.buf[(r.head+r.size)%len(r.buf)] = w
	r.size++
}

func (r *waitRing) front() *waiter {
	if r.size == 0 {
		return nil
	}
	return &r.buf[r.head]
}

func (r *waitRing) pop() {
	r.buf[r.head] = waiter{}
	r.head = (r.head + 1) % len(r.buf)
	r.size--
}
