package firmware

import "github.com/fastdrain-sim/fastdrain/sim"

// The fold's own scheduling (firmware.scheduler.fold_share): once an SLC cache is
// exhausted, host writes go directly to native blocks while the drive folds the cache's
// backlog into native blocks beside them, and the two share the dies. TechPowerUp's
// whole-drive fills show it: the Samsung 980 PRO 1 TB writes at 4 GB/s until 113 GB, then
// "the drive will start flushing SLC back to TLC", at 1.5 GB/s, and the rate rises as the
// drive fills, to 1.9 GB/s on average (techpowerup.com/review/samsung-980-pro-1-tb-ssd/6.html;
// Samsung rates it 2,000 MB/s after the cache); Crucial's P1 1 TB drops to 150 MB/s
// after 140 GB, writing "to its QLC flash directly" (techpowerup.com/review/
// crucial-p1-nvme-m-2-ssd-1-tb/6.html); Intel's 660p is left with "a large backlog of work
// to be done migrating data in to QLC blocks" (anandtech.com/show/13078). Scheduled as GC,
// a fold got one operation in gc_weight + 1, each operation one unit's read or one
// multi-plane program: on gen4-qlc about one unit read per four-plane QLC word line the
// host programmed, a trickle (docs/validation.md). With a share the fold gets a fraction
// of the die's time instead, weighted fair queueing over the time both wait: each
// operation handed to the die while the other side waits is charged the time it holds the
// die (handed to the channel until complete; with read_first, a die's programs and GC
// operations run one at a time, so that time is the die's), and a fold operation goes
// next when the fold's charged time is at most share/(1 − share) of the host's. Time
// either side spends alone is not charged, so neither banks credit while the other has
// nothing to do. A fold also reads each SLC page once for the units it moves from it
// (mergeFoldReads), as a controller senses a page, not a unit.

// Sides of the die's time an operation is charged to (flashOp.share).
const (
	shareNone uint8 = iota // not charged: the other side had nothing waiting
	shareHost              // a host program handed over while a fold operation waited
	shareFold              // a fold operation handed over while host programs waited
)

// foldQueued reports whether the head of q's GC queue is a fold's operation.
func (q *dieQueue) foldQueued() bool { return q.gc.n > 0 && q.gc.head.fold }

// shareOut notes op, just taken from die queue q by pick pk, for the fold's share of the
// die: it is charged if the other side has work waiting.
func (s *scheduler) shareOut(q *dieQueue, op *flashOp, pk Pick) {
	op.share = shareNone
	switch {
	case pk == PickProgram && q.foldQueued():
		op.share = shareHost
	case pk == PickGC && op.fold && q.progs.n > 0:
		op.share = shareFold
	}
	op.sent = s.f.eng.Now()
}

// charge adds the time op held die g (handed over until now) to its side's.
func (s *scheduler) charge(g int, op *flashOp, now sim.Time) {
	q := &s.dies[g]
	switch op.share {
	case shareHost:
		q.hostTime += now - op.sent
	case shareFold:
		q.foldTime += now - op.sent
	}
}

// foldTurn reports whether die g's fold goes next under share: its charged time is at most
// share/(1 − share) of the host's (both start at 0, so the fold goes first).
func (s *scheduler) foldTurn(g int, share float64) bool {
	q := &s.dies[g]
	return float64(q.foldTime)*(1-share) <= float64(q.hostTime)*share
}

// mergeFoldReads joins to fold read op the fold reads at the head of q's GC queue of the
// same page (other units of it, queued in order by the batch), so the page is sensed once
// and its units move in one data-out; it returns the units the transaction reads.
func (s *scheduler) mergeFoldReads(q *dieQueue, op *flashOp) int {
	seen := uint64(1) << op.slot
	for q.gc.n > 0 {
		nx := q.gc.head
		if nx.kind != opGCRead || !nx.fold || nx.ppn != op.ppn || seen&(1<<nx.slot) != 0 {
			break
		}
		seen |= 1 << nx.slot
		op.merged = append(op.merged, q.gc.pop())
	}
	return len(op.merged) + 1
}
