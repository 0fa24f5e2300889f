package firmware

import (
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
)

// Reads of several mapping units of one flash page (sub-page mapping, docs/firmware.md)
// sense the page once: when the scheduler hands a die's host read to its channel, it takes
// along every other host read queued for the same physical page, and the transaction moves
// the units' columns of the page register out one after the other (ONFI Change Read Column,
// 05h-E0h: the column changes between units are not charged; each unit's bytes are). One
// tR serves them all, as a real controller's read of a 16 KiB page for four 4 KiB units
// does; before, each unit paid its own tR, which doubled read latency on 8 KiB pages
// against MQSim (issue 34 item 2).

// A command's reads are queued together before any is dispatched (hold, then
// dispatchHeld), so the units of one page it reads are all in the die's queue when the
// first one is handed to the channel.

// hold queues a host read without dispatching its die, noting it as enqueue does.
func (s *scheduler) hold(op *flashOp) {
	q := &s.dies[op.die]
	s.readArrives(q, op) // as enqueue does: the die's activity, reads behind flash work
	q.reads.push(op)
	if !q.held {
		q.held = true
		s.held = append(s.held, op.die)
	}
}

// dispatchHeld dispatches the dies hold queued reads for, in the order they were first
// held.
func (s *scheduler) dispatchHeld() {
	for _, g := range s.held {
		s.dies[g].held = false
		s.dispatch(g)
	}
	s.held = s.held[:0]
}

// mergeReads moves the host reads queued on q for op's page into op.merged and returns the
// number of distinct units the transaction moves (op's included).
func (s *scheduler) mergeReads(q *dieQueue, op *flashOp) int {
	var seen uint64 = 1 << op.slot
	var prev *flashOp
	for r := q.reads.head; r != nil; {
		next := r.next
		if r.ppn != op.ppn {
			prev, r = r, next
			continue
		}
		// Unlink r from the queue.
		if prev == nil {
			q.reads.head = next
		} else {
			prev.next = next
		}
		if q.reads.tail == r {
			q.reads.tail = prev
		}
		q.reads.n--
		r.next = nil
		op.merged = append(op.merged, r)
		seen |= 1 << r.slot
		r = next
	}
	n := 0
	for ; seen != 0; seen &= seen - 1 {
		n++
	}
	return n
}

// mergedStamps returns the stamps of a merged operation m of tx: a merged read's are the
// page's (it picks its unit's slot; host reads, readmerge.go, and a fold's reads,
// foldshare.go); a merged program's are none.
func (s *scheduler) mergedStamps(m *flashOp, tx *hal.FlashCmd) []uint64 {
	if m.kind == opHostRead || m.kind == opGCRead {
		return tx.Stamps
	}
	return nil
}
