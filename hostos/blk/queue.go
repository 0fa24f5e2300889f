package blk

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Driver is the device driver below the queue (the NVMe driver's queue_rq).
type Driver interface {
	// QueueRequest offers rq to the driver at time now. It returns false if the device
	// cannot take it now (BLK_STS_RESOURCE): the queue keeps rq, offers it again first, and
	// tries again when the driver calls Queue.Restart or completes a request. On true the
	// driver owns rq until it calls Queue.Complete.
	QueueRequest(now sim.Time, rq *Request) bool
}

// Queue is one blk-mq request queue with one hardware context: it turns bios into
// requests, merges them, allocates requests and driver tags, orders them with its
// scheduler and hands them to the driver. It is event-driven: it schedules a dispatch
// event at the current time when something becomes dispatchable and never ticks.
type Queue struct {
	name  string
	eng   *sim.Engine
	spec  Spec
	drv   Driver
	sched scheduler

	nr         int   // requests that may be allocated (nr_requests)
	asyncDepth int   // of which writes and async I/O may hold
	maxReq     int64 // MaxRequestBytes
	front      bool  // front merges allowed
	wc         bool  // the device has a volatile write cache (Spec.WriteCache resolved)
	allocated  int
	inDriver   int
	pool       []*Request
	freeTags   []int // driver tags, a stack
	flushes    rqList
	stalled    *Request

	waitSync, waitAsync waitRing // bios waiting for a request, by class
	seq, wseq           uint64
	waking              bool

	// byEnd and byOff index queued, mergeable requests by end and start offset, one index
	// per mergeable operation (read, write, discard).
	byEnd, byOff [3]reqIndex

	armed bool // a dispatch event is pending
	wbt   *wbt // writeback throttling, nil when off
	// zones are a zoned device's write plugs (zoned.go), nil for a conventional device.
	zones *zones
	stats Stats
}

// New returns a queue named name on eng that feeds drv, or the spec's problems.
func New(name string, eng *sim.Engine, spec Spec, drv Driver) (*Queue, error) {
	err := spec.Validate()
	if eng == nil {
		err = errors.Join(err, errors.New("blk: New needs an engine"))
	}
	if drv == nil {
		err = errors.Join(err, errors.New("blk: New needs a driver"))
	}
	if err != nil {
		return nil, err
	}
	q := &Queue{name: name, eng: eng, spec: spec, drv: drv,
		maxReq: int64(spec.MaxRequestBytes), front: true, wc: spec.WriteCache.resolve(drv)}
	q.nr = spec.nrRequests()
	q.asyncDepth = spec.asyncDepth(q.nr)
	q.freeTags = make([]int, spec.QueueDepth)
	for i := range q.freeTags {
		q.freeTags[i] = spec.QueueDepth - 1 - i // tag 0 is handed out first
	}
	q.pool = make([]*Request, q.nr)
	for i := range q.pool {
		q.pool[i] = &Request{q: q, Tag: -1, Bios: make([]*Bio, 0, 4)}
	}
	for i := range q.byEnd {
		q.byEnd[i] = newReqIndex(q.nr)
		q.byOff[i] = newReqIndex(q.nr)
	}
	switch spec.Scheduler {
	case SchedNone:
		q.sched = &noneSched{}
	case SchedMQDeadline:
		q.sched = newDeadline(spec.Deadline, q.nr, &q.stats)
		q.front = spec.Deadline.FrontMerges
	case SchedKyber:
		q.sched = newKyber(q, spec.Kyber)
	}
	if spec.WBTLat > 0 {
		q.wbt = newWBT(q, spec.WBTLat, q.nr, q.wc)
	}
	q.stats.init(name)
	return q, nil
}

// Name returns the queue's name.
func (q *Queue) Name() string { return q.name }

// Spec returns the queue's configuration.
func (q *Queue) Spec() Spec { return q.spec }

// WriteCache reports whether the queue treats its device as having a volatile write cache
// (sysfs queue/write_cache "write back"): Spec.WriteCache, with auto resolved from the
// driver.
func (q *Queue) WriteCache() bool { return q.wc }

// NrRequests returns how many requests may be allocated at once (nr_requests resolved).
func (q *Queue) NrRequests() int { return q.nr }

// AsyncDepth returns how many of them writes and async I/O may hold.
func (q *Queue) AsyncDepth() int { return q.asyncDepth }

// Stats returns the queue's statistics; the pointer stays valid and live.
func (q *Queue) Stats() *Stats { return &q.stats }

// InDriver returns how many requests the driver holds.
func (q *Queue) InDriver() int { return q.inDriver }

// Allocated returns how many requests are allocated (queued, stalled or in the driver).
func (q *Queue) Allocated() int { return q.allocated }

// Waiting returns how many bios wait for a request to be allocated.
func (q *Queue) Waiting() int { return q.waitSync.size + q.waitAsync.size }

// isSync mirrors op_is_sync: reads, REQ_SYNC, FUA and flushes are sync.
func isSync(b *Bio) bool {
	return b.Op == OpRead || b.Op == OpFlush || b.Op == OpZoneAppend || b.Sync || b.FUA
}

// mergeIndex returns the merge-hash index of op, or −1 if op never merges.
func mergeIndex(op Op) int {
	switch op {
	case OpRead:
		return 0
	case OpWrite:
		return 1
	case OpDiscard:
		return 2
	}
	return -1
}

// Submit hands a bio to the block layer (submit_bio). It may be called from a process or
// from an event handler and never blocks. The bio is merged into a queued request when it
// can be; otherwise it gets a request of its own, split into parts of at most
// MaxRequestBytes. When no request can be allocated (all nr_requests in use, or the async
// share used up) Linux puts the submitting task to sleep in blk_mq_get_tag until a request
// completes; the model instead parks the bio in a FIFO per class (sync, async) that is served
// in arrival order as requests are freed, and the caller carries on. Callers that must not
// run ahead (a writeback flusher) bound their own in-flight bios.
func (q *Queue) Submit(b *Bio) {
	now := q.eng.Now()
	q.checkBio(b)
	b.Issued, b.Err, b.finished = now, nil, false
	if !q.wc {
		// Without a volatile write cache FUA means nothing and an empty flush is done at
		// once (blk_queue_write_cache clears QUEUE_FLAG_FUA; blk_insert_flush, policy 0).
		b.FUA = false
		if b.Op == OpFlush {
			q.stats.Bios++
			q.stats.BioLatency[OpFlush].Record(0)
			b.finished = true
			q.eng.Schedule(now, instantDone{}, b, 0) // the submitter may not be waiting yet
			return
		}
	}
	if q.zones != nil && b.Op == OpWrite && !q.zones.plug(b) {
		return // it waits for its zone's write in flight (zoned.go)
	}
	q.submit(b)
}

// submit is Submit of a bio past its zone's write plug.
func (q *Queue) submit(b *Bio) {
	now := q.eng.Now()
	parts := int64(1)
	if q.zones != nil {
		parts = q.zonedParts(b)
	} else if b.Size > q.maxReq {
		parts = (b.Size + q.maxReq - 1) / q.maxReq
	}
	b.parts = int32(parts)
	q.stats.Bios++
	q.stats.Splits += parts - 1
	sync := isSync(b)
	if q.wbt != nil {
		q.wbt.catchUp(now)
		if b.Op == OpRead {
			q.wbt.lastIssue = now // wbt_wait stamps last_issue for reads
		}
	}
	w := waiter{bio: b, off: b.Offset}
	blocked := q.waitSync.size > 0 || (!sync && q.waitAsync.size > 0)
	switch {
	case !blocked:
		q.place(w, q.admit(&w))
	case parts == 1 && q.spec.Merges && q.tryMerge(b, b.Offset, b.Size):
	default:
		q.place(w, needRequest)
	}
	q.wake()
}

// instantDone completes a bio that never reached a request: it notifies the bio's Wake
// signal or runs its Done handler with the same event.
type instantDone struct{}

func (instantDone) HandleEvent(ev *sim.Event) {
	b := ev.Data.(*Bio)
	if b.Wake != nil {
		b.Wake.Notify()
	} else if b.Done != nil {
		b.Done.HandleEvent(ev)
	}
}

// Outcomes of admit.
const (
	admitted    = iota // every part is merged or in a request
	needRequest        // a part waits for a request to be allocated
	needWBT            // a part waits for writeback throttling to let it go
)

// place parks w according to admit's outcome: in wbt's queue, or in the request-allocation
// FIFO of its class.
func (q *Queue) place(w waiter, outcome int) {
	switch outcome {
	case needWBT:
		q.wbt.park(w)
	case needRequest:
		q.wseq++
		w.seq = q.wseq
		q.stats.RequestWaits++
		if isSync(w.bio) {
			q.waitSync.push(w)
		} else {
			q.waitAsync.push(w)
		}
	}
}

// resume continues the admission of a waiter that writeback throttling let go.
func (q *Queue) resume(w waiter) {
	q.place(w, q.admit(&w))
	q.wake()
}

// checkBio panics on a malformed bio: a model bug in the caller.
func (q *Queue) checkBio(b *Bio) {
	switch {
	case b.Op > OpZoneAppend:
		q.panicf("bio with unknown op %d", b.Op)
	case b.Op == OpZoneAppend:
		q.checkPassthrough(b)
	case b.Op == OpZoneReset && (q.zones == nil || b.Size != 0 || b.Offset%q.zones.size != 0):
		q.panicf("zone reset bio at %d of %d bytes on a queue with zones of %d bytes", b.Offset, b.Size, q.ZoneBytes())
	case b.Op == OpWrite && q.zones != nil && b.Offset/q.zones.size != (b.End()-1)/q.zones.size:
		q.panicf("write bio [%d, +%d) crosses a zone boundary (zones of %d bytes); its caller must split it", b.Offset, b.Size, q.zones.size)
	case b.Offset < 0 || b.Offset%512 != 0:
		q.panicf("%v bio at offset %d, not a non-negative multiple of 512", b.Op, b.Offset)
	case b.Op == OpFlush && b.Size != 0:
		q.panicf("flush bio with size %d", b.Size)
	case b.Op != OpFlush && b.Op != OpZoneReset && (b.Size <= 0 || b.Size%512 != 0):
		q.panicf("%v bio of %d bytes, not a positive multiple of 512", b.Op, b.Size)
	case b.parts > 0:
		q.panicf("%v bio at %d submitted again before it completed", b.Op, b.Offset)
	}
}

// admit places the rest of w's bio into requests, merging or allocating part by part, as
// blk_mq_submit_bio does: a part that does not merge passes writeback throttling
// (rq_qos_throttle) and then allocates a request. It returns needWBT or needRequest, with w
// advanced past what it placed (and holding the wbt token it got), when a part must wait.
func (q *Queue) admit(w *waiter) int {
	b := w.bio
	for {
		n := q.partLen(w.off, b.End())
		// A part holding a wbt token sleeps for a request and is not offered for merging
		// again (blk_mq_get_new_requests merges before rq_qos_throttle, not after).
		if w.token || !q.spec.Merges || !q.tryMerge(b, w.off, n) {
			if q.wbt != nil && !w.token && tracks(b) {
				if !q.wbt.tryAcquire(q.eng.Now(), b) {
					return needWBT
				}
				w.token = true
			}
			if !q.canAlloc(isSync(b)) {
				return needRequest
			}
			q.alloc(b, w.off, n, w.token)
			w.token = false
		}
		w.off += n
		if w.off >= b.End() {
			return admitted
		}
	}
}

// canAlloc reports whether a request can be allocated now for a sync or async bio.
func (q *Queue) canAlloc(sync bool) bool {
	return q.allocated < q.nr && (sync || q.allocated < q.asyncDepth)
}

// alloc allocates a request for n bytes of b at off and inserts it.
// With token the request holds a wbt in-flight slot of the bio's class until it completes.
func (q *Queue) alloc(b *Bio, off, n int64, token bool) {
	now := q.eng.Now()
	rq := q.pool[len(q.pool)-1]
	q.pool = q.pool[:len(q.pool)-1]
	q.allocated++
	q.seq++
	rq.Op, rq.Offset, rq.Size = b.Op, off, n
	rq.Bios = append(rq.Bios[:0], b)
	rq.Sync, rq.FUA, rq.Hint, rq.Tag = isSync(b), b.FUA, b.Hint, -1
	rq.WriteStream, rq.WriteHint = b.WriteStream, b.WriteHint
	rq.Alloc, rq.Insert, rq.Dispatch, rq.Complete = now, now, 0, 0
	rq.seq, rq.state = q.seq, rqQueued
	if b.Op == OpWrite && b.Sync && !b.Idle && off+n >= b.End() {
		q.stats.SyncWriteWait.Record(int64(now - b.Issued))
	}
	rq.wbt = 0
	if token {
		rq.wbt = int8(wbtClass(b)) + 1
	}
	q.stats.Requests++
	if b.Op == OpFlush || b.Op >= OpZoneReset {
		// Flushes bypass the scheduler (blk_insert_flush), as in Linux, and so do zone
		// resets here (zoned.go) and passthrough requests (passthrough.go).
		q.flushes.pushBack(rq)
	} else {
		q.sched.insert(now, rq)
		q.hash(rq)
	}
	q.kick()
}

// free returns a request to the pool.
func (q *Queue) free(rq *Request) {
	rq.state = rqFree
	clear(rq.Bios)
	rq.Bios = rq.Bios[:0]
	rq.Private, rq.prev, rq.next, rq.Result = nil, nil, nil, 0
	q.allocated--
	q.pool = append(q.pool, rq)
}

// wake allocates requests for waiting bios, in arrival order per class, while it can.
func (q *Queue) wake() {
	if q.waking {
		return
	}
	q.waking = true
	for {
		s, a := q.waitSync.front(), q.waitAsync.front()
		canS := s != nil && q.canAlloc(true)
		canA := a != nil && q.canAlloc(false)
		var ring *waitRing
		switch {
		case canS && (!canA || s.seq < a.seq):
			ring = &q.waitSync
		case canA:
			ring = &q.waitAsync
		default:
			q.waking = false
			return
		}
		w := ring.front()
		switch q.admit(w) {
		case admitted:
			ring.pop()
		case needWBT:
			// Its next part meets the throttle: it leaves the allocation FIFO for wbt's.
			moved := *w
			ring.pop()
			q.wbt.park(moved)
		}
	}
}

// kick schedules a dispatch event now unless one is pending.
func (q *Queue) kick() {
	if !q.armed {
		q.armed = true
		q.eng.Schedule(q.eng.Now(), q, nil, 0)
	}
}

// Restart tells the queue the driver can take requests again after refusing one.
func (q *Queue) Restart(now sim.Time) {
	q.mustNow(now, "Restart")
	q.kick()
}

// HandleEvent runs the dispatch loop (blk_mq_run_hw_queue); it implements sim.Handler.
func (q *Queue) HandleEvent(ev *sim.Event) {
	q.armed = false
	now := ev.Time
	if rq := q.stalled; rq != nil {
		q.stalled = nil
		if !q.offer(now, rq) {
			return
		}
	}
	for len(q.freeTags) > 0 {
		rq := q.flushes.popFront()
		if rq == nil {
			rq = q.sched.dispatch(now)
			if rq == nil {
				return
			}
			q.unhash(rq)
		}
		rq.Tag = q.freeTags[len(q.freeTags)-1]
		q.freeTags = q.freeTags[:len(q.freeTags)-1]
		if !q.offer(now, rq) {
			return
		}
	}
}

// offer hands rq to the driver and reports whether the driver took it.
func (q *Queue) offer(now sim.Time, rq *Request) bool {
	rq.Dispatch = now
	rq.state = rqInDriver
	q.inDriver++
	if q.drv.QueueRequest(now, rq) {
		q.stats.Dispatched++
		if q.wbt != nil {
			q.wbt.issued(now, rq)
		}
		return true
	}
	if rq.state != rqInDriver {
		q.panicf("driver completed a request it refused")
	}
	q.inDriver--
	rq.state = rqStalled
	q.stalled = rq
	q.stats.Requeued++
	return false
}

// Complete ends rq with err (nil for success) at now: it frees the request's driver tag
// and the request, records the latencies, and for every bio whose last part this was
// notifies its Wake signal or else schedules an event at now for its Done handler
// (ev.Data is the *Bio, Bio.Err is set).
func (q *Queue) Complete(now sim.Time, rq *Request, err error) {
	q.mustNow(now, "Complete")
	if rq.q != q || rq.state != rqInDriver {
		q.panicf("Complete of a request the driver does not hold (state %d)", rq.state)
	}
	rq.Complete = now
	q.inDriver--
	q.stats.record(rq)
	if err != nil {
		q.stats.Errors++
	}
	if rq.Op != OpFlush && rq.Op < OpZoneReset {
		q.sched.completed(now, rq)
	}
	q.freeTags = append(q.freeTags, rq.Tag)
	rq.Tag = -1
	if err != nil {
		err = newIOError(rq, err)
	}
	for _, b := range rq.Bios {
		if err != nil && b.Err == nil {
			b.Err = err
		}
		b.parts--
		b.Result = rq.Result
		if b.parts == 0 {
			q.stats.BioLatency[b.Op].Record(int64(now - b.Issued))
			b.finished = true
			if q.zones != nil {
				q.zoneBioDone(b)
			}
			if b.Wake != nil {
				b.Wake.Notify() // wakes a process: no re-entry into the block layer
			} else if b.Done != nil {
				q.eng.Schedule(now, b.Done, b, 0)
			}
		}
	}
	q.stats.Completed++
	class := int(rq.wbt) - 1
	if q.wbt != nil {
		q.wbt.sample(now, rq)
		if rq.Op == OpRead {
			q.wbt.readDone(now, rq)
		}
	}
	q.free(rq)
	if class >= 0 {
		q.wbt.done(now, class)
	}
	q.wake()
	if q.allocated > q.inDriver {
		// Requests wait in the scheduler (or one the driver refused): the freed tag may let
		// one go. With none waiting, a dispatch run would find nothing, so none is scheduled.
		q.kick()
	}
}

func (q *Queue) mustNow(now sim.Time, what string) {
	if now != q.eng.Now() {
		q.panicf("%s at %v, but the engine is at %v", what, now, q.eng.Now())
	}
}

func (q *Queue) panicf(format string, args ...any) {
	panic(fmt.Sprintf("blk %s at %v: %s", q.name, q.eng.Now(), fmt.Sprintf(format, args...)))
}
