package nvmectrl

import "github.com/fastdrain-sim/fastdrain/sim"

// Arbitration is the arbitration mechanism selected by CC.AMS (docs/sources.md §1.6).
type Arbitration uint8

// Arbitration mechanisms.
const (
	ArbRoundRobin Arbitration = 0 // CC.AMS 000b: every SQ, admin included, takes turns
	ArbWRR        Arbitration = 1 // CC.AMS 001b: weighted round robin with urgent priority class
)

// Arbitration lists. Round robin uses listAdmin for every SQ.
const (
	listAdmin  = 0
	listUrgent = 1
	listHigh   = 2 // then medium, low: listHigh + PrioMedium-1, …
	numLists   = 5
)

// noBurstLimit is the turn length when AB = 111b ("no limit").
const noBurstLimit = 1 << 30

// sqRing is a FIFO of submission queues waiting for a turn. Each SQ is in at most one ring,
// so it never holds more than the number of SQs; it grows by doubling, rarely.
type sqRing struct {
	buf  []*subQueue
	head int
	n    int
}

func (r *sqRing) push(q *subQueue) {
	if r.n == len(r.buf) {
		nb := make([]*subQueue, max(8, 2*len(r.buf)))
		for i := range r.n {
			nb[i] = r.buf[(r.head+i)%len(r.buf)]
		}
		r.buf, r.head = nb, 0
	}
	r.buf[(r.head+r.n)%len(r.buf)] = q
	r.n++
}

func (r *sqRing) pop() *subQueue {
	q := r.buf[r.head]
	r.buf[r.head] = nil
	r.head = (r.head + 1) % len(r.buf)
	r.n--
	return q
}

// arbiter picks which SQ the fetch engine serves (docs/sources.md §1.6). A turn lasts up to the
// arbitration burst (2^AB commands); under WRR the weighted classes also spend one credit
// per command, and a round ends when high, medium and low have spent their weights.
type arbiter struct {
	mode    Arbitration
	burst   int    // commands per turn
	ab      uint8  // the AB field, for Get Features
	weights [3]int // high, medium, low: commands per round
	credit  [3]int
	class   int // weighted class being served: 0 high, 1 medium, 2 low
	lists   [numLists]sqRing

	turn      *subQueue
	turnLeft  int
	turnClass int // weighted class the turn spends credit from, or -1
}

func (a *arbiter) setBurst(ab uint8) {
	a.ab = ab & 7
	a.burst = 1 << a.ab
	if a.ab == 7 {
		a.burst = noBurstLimit
	}
}

// waiting reports whether any SQ is waiting for or holding a turn.
func (a *arbiter) waiting() bool {
	if a.turn != nil {
		return true
	}
	for i := range a.lists {
		if a.lists[i].n > 0 {
			return true
		}
	}
	return false
}

func (a *arbiter) enqueue(q *subQueue) {
	l := listAdmin
	if a.mode == ArbWRR && q.id != 0 {
		l = listUrgent + int(q.prio)
	}
	a.lists[l].push(q)
	q.state = sqListed
}

// next starts a new turn and returns its SQ, or nil if none waits.
func (a *arbiter) next() *subQueue {
	a.turnClass = -1
	for _, l := range []int{listAdmin, listUrgent} { // strict priority (docs/sources.md §1.6)
		if a.lists[l].n > 0 {
			return a.begin(a.lists[l].pop(), a.burst)
		}
	}
	if a.mode != ArbWRR {
		return nil
	}
	// At most: finish this round's remaining classes, refill, then one full round.
	for range 6 {
		cl := a.class
		if a.credit[cl] > 0 && a.lists[listHigh+cl].n > 0 {
			a.turnClass = cl
			return a.begin(a.lists[listHigh+cl].pop(), min(a.burst, a.credit[cl]))
		}
		a.advance()
	}
	return nil
}

func (a *arbiter) begin(q *subQueue, n int) *subQueue {
	a.turn, a.turnLeft = q, n
	q.state = sqTurn
	return q
}

// advance moves to the next weighted class, starting a new round after low.
func (a *arbiter) advance() {
	a.class++
	if a.class == 3 {
		a.class = 0
		a.credit = a.weights
	}
}

// spend records n commands fetched in the current turn and ends the turn when it is used
// up or its SQ has nothing more to fetch.
func (a *arbiter) spend(n int) {
	q := a.turn
	a.turnLeft -= n
	if a.turnClass >= 0 {
		a.credit[a.turnClass] -= n
		if a.credit[a.turnClass] == 0 {
			a.advance()
		}
	}
	if a.turnLeft > 0 && q.pending() > 0 {
		return
	}
	a.turn = nil
	if q.pending() > 0 {
		a.enqueue(q)
	} else {
		q.state = sqIdle
	}
}

// arbitrate issues SQE fetches while a fetch context and a command slot are free and some
// SQ has entries to fetch.
func (c *Controller) arbitrate(now sim.Time) {
	c.landed(now)
	a := &c.arb
	for len(c.freeFetch) > 0 && c.slotFree > 0 {
		q := a.turn
		if q == nil {
			if q = a.next(); q == nil {
				return
			}
		}
		// Contiguous entries only: a fetch does not wrap around the ring.
		n := min(a.turnLeft, int(q.pending()), int(q.size-q.next), c.spec.FetchBatch, c.slotFree)
		c.issueFetch(now, q, n)
		a.spend(n)
	}
	if a.waiting() {
		// Out of fetch contexts or slots: each landing from now on kicks the arbiter.
		c.scheduleLandings()
	}
}
