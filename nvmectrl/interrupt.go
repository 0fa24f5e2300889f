package nvmectrl

import "github.com/fastdrain-sim/fastdrain/sim"

// coalescingUnit is the unit of the Interrupt Coalescing feature's TIME field: 100 µs
// (docs/sources.md §1.5).
const coalescingUnit = 100 * sim.Microsecond

// coalescing is the Interrupt Coalescing feature (FID 08h): THR, 0's based aggregation
// threshold, and TIME in 100 µs units. Either at 0 disables coalescing (docs/sources.md §1.5).
type coalescing struct {
	thr  uint8
	time uint8
}

// vector is the interrupt state of one MSI-X vector.
type vector struct {
	pending   int      // CQEs aggregated since the last interrupt
	armed     bool     // the TIME timer is running
	gen       uint32   // timer generation; a fired or cancelled timer's event is ignored
	cd        bool     // coalescing disabled (Interrupt Vector Configuration CD)
	lastIssue sim.Time // latest link booking time of a CQE counted on this vector
	lastCQE   sim.Time // latest arrival in host memory of a CQE counted on this vector
}

// signal counts a CQE posted at now, issued on the link at issue and arriving at cqeAt, on
// q's vector and sends the
// interrupt when coalescing allows: at once if coalescing is off for the vector or the
// admin queue, when THR+1 entries have aggregated, or TIME × 100 µs after the first,
// whichever comes first.
func (c *Controller) signal(now sim.Time, q *complQueue, issue, cqeAt sim.Time) {
	v := &c.vectors[q.vector]
	v.pending++
	v.lastIssue = max(v.lastIssue, issue)
	v.lastCQE = max(v.lastCQE, cqeAt)
	// The admin CQ is not coalesced [U: NVMe spec, Interrupt Coalescing applies to I/O CQs].
	if q.id == 0 || v.cd || c.coal.thr == 0 || c.coal.time == 0 || v.pending > int(c.coal.thr) {
		c.fire(now, int(q.vector))
		return
	}
	if !v.armed {
		v.armed = true
		v.gen++
		c.schedule(now+sim.Time(c.coal.time)*coalescingUnit, evCoalesce, int64(v.gen)<<16|int64(q.vector), nil)
	}
}

// coalesceTimer fires vector vec's interrupt when its TIME timer of generation gen expires,
// unless the threshold already fired it.
func (c *Controller) coalesceTimer(now sim.Time, vec int, gen uint32) {
	v := &c.vectors[vec]
	if v.armed && v.gen == gen && v.pending > 0 {
		c.fire(now, vec)
	}
}

// fire sends vector vec's MSI-X message. It is issued no earlier than the CQEs it covers
// and arrives after them (posted writes stay in order).
func (c *Controller) fire(now sim.Time, vec int) {
	v := &c.vectors[vec]
	v.pending, v.armed = 0, false
	v.gen++
	c.schedule(max(c.link.MSIX(max(now, v.lastIssue)), v.lastCQE), evMSIXArrive, int64(vec), nil)
}
