package blk

import (
	"sort"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// deadline is mq-deadline (block/mq-deadline.c, docs/sources.md §6.2) with one priority level:
// per direction (reads; writes and discards) a sector-sorted array and a FIFO of deadlines.
// Dispatch continues a batch in sort order up to fifo_batch requests; a new batch prefers
// reads unless writes have been passed over writes_starved times, and starts from the FIFO
// head if that head has expired or nothing lies beyond the last dispatched request in sort
// order. The "next request" per direction is cleared for the other direction on every
// dispatch (deadline_move_request of the 4.x–5.x kernels), so a batch never resumes across a
// direction change. I/O priorities and prio_aging_expire are not modelled.
type deadline struct {
	spec     DeadlineSpec
	expire   [2]sim.Time
	sorted   [2][]*Request // by (sortKey, seq)
	fifo     [2]rqList
	next     [2]*Request
	batching int
	starved  int
	stats    *Stats
}

func newDeadline(spec DeadlineSpec, nr int, st *Stats) *deadline {
	d := &deadline{spec: spec, expire: [2]sim.Time{spec.ReadExpire, spec.WriteExpire}, stats: st}
	for i := range d.sorted {
		d.sorted[i] = make([]*Request, 0, nr)
	}
	return d
}

// ddDir is the request's data direction: 0 read, 1 write (discards count as writes).
func ddDir(rq *Request) int {
	if rq.Op == OpRead {
		return 0
	}
	return 1
}

func (d *deadline) insert(now sim.Time, rq *Request) {
	dir := ddDir(rq)
	rq.fifoTime = now + d.expire[dir]
	d.fifo[dir].pushBack(rq)
	d.sortAdd(rq)
}

func (d *deadline) dispatch(now sim.Time) *Request {
	rq := d.next[1]
	if rq == nil {
		rq = d.next[0]
	}
	if rq == nil || d.batching >= d.spec.FifoBatch {
		rq = d.newBatch(now)
		if rq == nil {
			return nil
		}
	}
	d.batching++
	d.move(rq)
	return rq
}

// newBatch chooses the direction and first request of a new batch.
func (d *deadline) newBatch(now sim.Time) *Request {
	var dir int
	switch {
	case d.fifo[0].n > 0:
		dir = 0
		if d.fifo[1].n > 0 {
			s := d.starved
			d.starved++
			if s >= d.spec.WritesStarved {
				dir = 1
				d.stats.DeadlineStarved++
			}
		}
	case d.fifo[1].n > 0:
		dir = 1
	default:
		return nil
	}
	if dir == 1 {
		d.starved = 0
	}
	rq := d.next[dir]
	if head := d.fifo[dir].head; head.fifoTime <= now || rq == nil {
		if head.fifoTime <= now {
			d.stats.DeadlineExpired++
		}
		rq = head
	}
	d.batching = 0
	d.stats.DeadlineBatches++
	return rq
}

// move takes rq out of the scheduler and remembers its successor in sort order.
func (d *deadline) move(rq *Request) {
	dir := ddDir(rq)
	d.next[0], d.next[1] = nil, nil
	d.next[dir] = d.latter(rq)
	d.remove(rq)
}

func (d *deadline) remove(rq *Request) {
	dir := ddDir(rq)
	if d.next[dir] == rq {
		d.next[dir] = d.latter(rq)
	}
	d.sortRemove(rq)
	d.fifo[dir].remove(rq)
}

func (d *deadline) completed(sim.Time, *Request) {}

func (d *deadline) frontMerged(rq *Request) {
	d.sortRemove(rq)
	d.sortAdd(rq)
}

// requestsMerged removes gone; into inherits gone's deadline and FIFO place if earlier
// (dd_merged_requests).
func (d *deadline) requestsMerged(into, gone *Request) {
	if gone.fifoTime < into.fifoTime {
		f := &d.fifo[ddDir(into)]
		f.remove(into)
		f.insertAfter(gone, into)
		into.fifoTime = gone.fifoTime
	}
	d.remove(gone)
}

// sortIndex returns the first position whose key is not before (key, seq).
func (d *deadline) sortIndex(dir int, key int64, seq uint64) int {
	s := d.sorted[dir]
	return sort.Search(len(s), func(i int) bool {
		return s[i].sortKey > key || (s[i].sortKey == key && s[i].seq >= seq)
	})
}

func (d *deadline) sortAdd(rq *Request) {
	dir := ddDir(rq)
	rq.sortKey = rq.Offset
	i := d.sortIndex(dir, rq.sortKey, rq.seq)
	s := append(d.sorted[dir], nil)
	copy(s[i+1:], s[i:])
	s[i] = rq
	d.sorted[dir] = s
}

func (d *deadline) find(rq *Request) int {
	dir := ddDir(rq)
	i := d.sortIndex(dir, rq.sortKey, rq.seq)
	if i >= len(d.sorted[dir]) || d.sorted[dir][i] != rq {
		panic("blk: mq-deadline lost a request from its sort array")
	}
	return i
}

func (d *deadline) sortRemove(rq *Request) {
	dir := ddDir(rq)
	i := d.find(rq)
	s := d.sorted[dir]
	copy(s[i:], s[i+1:])
	s[len(s)-1] = nil
	d.sorted[dir] = s[:len(s)-1]
}

// latter returns the request after rq in sort order, or nil.
func (d *deadline) latter(rq *Request) *Request {
	dir := ddDir(rq)
	i := d.find(rq)
	if i+1 < len(d.sorted[dir]) {
		return d.sorted[dir][i+1]
	}
	return nil
}
