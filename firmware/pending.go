package firmware

import "github.com/fastdrain-sim/fastdrain/firmware/ftl"

// inFlight holds the version stamps of the mapping units whose programs are in flight
// (mapped in the FTL, not yet on flash), so a read of one is served from DRAM. They are kept per die,
// where there are only the few programs queued or running on it: a lookup divides once and
// scans a handful of entries, and the churn of one insert and one delete per eviction costs
// no hashing. The order within a die's list carries no meaning.
type inFlight struct {
	perDie int64 // physical units per die: a unit's die is the unit / perDie
	dies   [][]pendingProg
}

// pendingProg is one in-flight program of a unit: the unit and the version it writes.
type pendingProg struct {
	ppn   ftl.Unit
	stamp uint64
}

func newInFlight(g ftl.Geometry) inFlight {
	return inFlight{perDie: g.AllUnits() / int64(g.Dies()), dies: make([][]pendingProg, g.Dies())}
}

// find returns p's die, the die's list and p's place in it, or −1 if p is not there.
func (x *inFlight) find(p ftl.Unit) (d int64, l []pendingProg, i int) {
	d = int64(p) / x.perDie
	l = x.dies[d]
	for i := range l {
		if l[i].ppn == p {
			return d, l, i
		}
	}
	return d, l, -1
}

// get returns the stamp of the in-flight program of p, if there is one.
func (x *inFlight) get(p ftl.Unit) (uint64, bool) {
	if _, l, i := x.find(p); i >= 0 {
		return l[i].stamp, true
	}
	return 0, false
}

// put records that p is being programmed with stamp (replacing what p had).
func (x *inFlight) put(p ftl.Unit, stamp uint64) {
	if d, l, i := x.find(p); i >= 0 {
		l[i].stamp = stamp
	} else {
		x.dies[d] = append(l, pendingProg{p, stamp})
	}
}

// done forgets p's program if it is the one that wrote stamp.
func (x *inFlight) done(p ftl.Unit, stamp uint64) {
	if d, l, i := x.find(p); i >= 0 && l[i].stamp == stamp {
		l[i] = l[len(l)-1]
		x.dies[d] = l[:len(l)-1]
	}
}
