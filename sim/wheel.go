package sim

import "math/bits"

// The time queue's geometry: windows of 2^wheelGrainBits ps (16.4 ns), a wheel of
// 2^wheelBits of them (67.1 µs ahead). A model's events mostly fall a few hundred
// nanoseconds to a few tens of microseconds ahead (transfers, core work, DRAM, link
// operations); flash array operations and timers fall further and go to the far queue.
const (
	wheelGrainBits = 14
	wheelBits      = 12
	wheelGrain     = Time(1) << wheelGrainBits
	wheelSlots     = 1 << wheelBits
	wheelSpan      = wheelGrain * wheelSlots
)

// The coarse wheel's geometry: periods of half the wheel's span (2^periodBits ps,
// 33.6 µs), 2^coarseBits of them (68.7 ms ahead). The wheel and the run hold the keys of
// the current window's period and the next one; the coarse wheel the keys of the periods
// after those, each period moved to the wheel whole when the window enters the period
// before it. Flash array operations (tens of microseconds to a few milliseconds) wait
// there; timers further ahead go to the far queue.
const (
	periodBits  = wheelGrainBits + wheelBits - 1
	period      = Time(1) << periodBits
	coarseBits  = 11
	coarseSlots = 1 << coarseBits
)

// Both wheels' slots fit a slotBits.
var (
	_ [bitsSlots - wheelSlots]struct{}
	_ [bitsSlots - coarseSlots]struct{}
)

// bound returns the end of the period after the one of t: the wheel and the run hold the
// keys before it when the current window holds t.
func bound(t Time) Time { return (t>>periodBits + 2) << periodBits }

// timeQueue is the engine's queue of events in the future, ordered by (time, tie): a
// hierarchical timing wheel (Varghese and Lauck, "Hashed and hierarchical timing wheels",
// SOSP 1987) — a wheel of 16 ns windows with a sorted run for the current window, and a
// coarse wheel of 33.6 µs periods behind it — and a radix heap for the events beyond both.
//
//   - The run holds the keys of the current window, [win, win+wheelGrain), from last on,
//     sorted by (time, tie) in descending order, so the next key is its last element: keys
//     at one time leave in the engine's total order. A window crowded with more than
//     runMax keys (a burst scheduled within a few nanoseconds, in any order) keeps them in
//     a radix heap instead (big) until it is empty, so that inserting stays cheap.
//   - The wheel's slot i holds the events of the window whose time has bits
//     [wheelGrainBits, wheelGrainBits+wheelBits) equal to i, for the windows after the
//     current one and before win+wheelSpan: each slot is a list linked through the events'
//     next fields (no storage of its own), and a two-level bitmap finds the next slot with
//     events. Most windows hold one event, which is taken straight from the wheel; the
//     events of a window with several go into the run.
//   - The wheel and the run hold every key before bound(win), the end of the period after
//     the window's (at most wheelSpan after win). Later keys wait in the coarse wheel, if
//     their period is less than coarseSlots periods from bound(win)'s: coarse slot i holds
//     those whose period is i modulo coarseSlots, linked through the events as in the
//     wheel, with a bitmap of its own. The rest wait in the far queue, a radixQueue.
//   - Whenever the window enters a new period (at moveAt), bound(win) moves on, and the
//     coarse periods and far keys before it move to the wheel or the run (migrate): each
//     coarse period whole, in one walk of its list.
//
// Scheduling is then a subtraction and a list insertion for most events, and taking the
// next one a bit scan, instead of the few moves between buckets a radix heap makes for each
// key.
type timeQueue struct {
	last    Time               // time of the latest key taken; no key is before it
	win     Time               // start of the current window: last, rounded down
	run     []key              // the current window's keys, latest first (unless inBig)
	big     radixQueue         // the current window's keys when it is crowded
	inBig   bool               // the current window's keys are in big, not in run
	n       int                // keys held, far ones included
	heads   [wheelSlots]int32  // each wheel slot's first event: its slot + 1 (0: none)
	wbits   slotBits           // the wheel slots with events
	cheads  [coarseSlots]int32 // each coarse slot's first event: its slot + 1 (0: none)
	cbits   slotBits           // the coarse slots with events
	bound   Time               // the wheel and the run hold every key before it: bound(win)
	moveAt  Time               // the start of the period after the window's: bound - period
	far     radixQueue         // the keys beyond the coarse wheel
	fNext   Time               // no far key is before it (far is not scanned until then)
	slots   *[]Event           // the engine's slot table, through which wheel slots are linked
	scratch []key              // for rebase
}

// newTimeQueue returns an empty queue at time zero for the events in the slot table slots.
func newTimeQueue(slots *[]Event) timeQueue {
	return timeQueue{big: newRadixQueue(), far: newRadixQueue(), bound: bound(0),
		moveAt: bound(0) - period, fNext: MaxTime, slots: slots}
}

// keyOf returns the key of the event in slot s.
func keyOf(slots []Event, s int32) key { return key{t: slots[s].Time, tie: slots[s].tie, slot: s} }

// wheelSlot returns the wheel slot of time t.
func wheelSlot(t Time) int { return int(t>>wheelGrainBits) & (wheelSlots - 1) }

// push adds k, which must not be before last.
func (q *timeQueue) push(k key) {
	q.n++
	switch d := k.t - q.win; {
	case d < wheelGrain:
		q.insertRun(k)
	case k.t < q.bound:
		q.link(k)
	case k.t>>periodBits-q.bound>>periodBits < coarseSlots:
		q.clink(k.slot, k.t)
	default:
		q.far.push(k)
		q.fNext = min(q.fNext, k.t)
	}
}

// clink puts the event in slot s, at t, into the coarse slot of its period.
func (q *timeQueue) clink(s int32, t Time) {
	i := int(t>>periodBits) & (coarseSlots - 1)
	(*q.slots)[s].next = q.cheads[i]
	q.cheads[i] = s + 1
	q.cbits.set(i)
}

// cfirst returns the first coarse slot with keys, in period order, and its period; the
// coarse wheel must not be empty (its keys' periods are from bound's on).
func (q *timeQueue) cfirst() (int, Time) {
	p := q.bound >> periodBits
	i := int(p) & (coarseSlots - 1)
	w := i >> 6
	if m := q.cbits.words[w] & (^uint64(0) << (i & 63)); m != 0 {
		i = w<<6 | bits.TrailingZeros64(m)
	} else {
		i = q.cbits.after(w)
	}
	return i, p + Time((i-int(p))&(coarseSlots-1))
}

// link puts k, for a window after the current one and within wheelSpan of it, into its
// wheel slot.
func (q *timeQueue) link(k key) { q.linkEvent(&(*q.slots)[k.slot], k.slot) }

// inWheel reports whether an event at t goes into a wheel slot: after the current window
// and before bound.
func (q *timeQueue) inWheel(t Time) bool {
	return uint64(t-q.win-wheelGrain) < uint64(q.bound-q.win-wheelGrain)
}

// linkEvent puts event ev, in slot s, into the wheel slot of its time, which inWheel
// accepts.
func (q *timeQueue) linkEvent(ev *Event, s int32) {
	i := wheelSlot(ev.Time)
	ev.next = q.heads[i]
	q.heads[i] = s + 1
	q.wbits.set(i)
}

// runMax is the most keys the run keeps sorted by insertion; more go to big.
const runMax = 32

// insertRun puts k, in the current window, into the run in order.
func (q *timeQueue) insertRun(k key) {
	if q.inBig || len(q.run) == runMax {
		q.insertBig(k)
		return
	}
	r := append(q.run, k)
	j := len(r) - 1
	for j > 0 && (r[j-1].t < k.t || r[j-1].t == k.t && r[j-1].tie < k.tie) {
		r[j] = r[j-1]
		j--
	}
	r[j] = k
	q.run = r
}

// insertBig puts k into big, moving the run's keys there first if it is not in use.
func (q *timeQueue) insertBig(k key) {
	if !q.inBig {
		q.inBig = true
		q.big.last = q.last
		for _, r := range q.run {
			q.big.push(r)
		}
		q.run = q.run[:0]
	}
	q.big.push(k)
}

// nowHead returns the earliest key at time last, or nil if none is held.
func (q *timeQueue) nowHead() *key {
	if q.inBig {
		return q.big.nowHead()
	}
	if n := len(q.run); n > 0 && q.run[n-1].t == q.last {
		return &q.run[n-1]
	}
	return nil
}

// popNow removes the key nowHead returned.
func (q *timeQueue) popNow() {
	if q.inBig {
		q.big.popNow()
		q.inBig = q.big.n > 0
	} else {
		q.run = q.run[:len(q.run)-1]
	}
	q.n--
}

// jumpTo moves last on to t, not before it, and reports true, if no key held comes
// before a key at t in phase ph scheduled now (one at t in phase ph or lower does, being
// earlier in the order); otherwise, or if it cannot tell cheaply, it reports false and
// changes nothing. It answers false while the window is crowded (big) and for t at or
// past bound.
func (q *timeQueue) jumpTo(t Time, ph Phase) bool {
	if q.inBig || t >= q.bound {
		return false
	}
	if n := len(q.run); n > 0 {
		// The run's keys are in the current window and its last is the earliest: t is in
		// the window too if that key is after it.
		if k := &q.run[n-1]; k.t < t || k.t == t && Phase(k.tie>>56) <= ph {
			return false
		}
		q.last = t
		return true
	}
	if t-q.win < wheelGrain {
		q.last = t // the wheel's keys are in later windows
		return true
	}
	if q.wbits.sum != 0 {
		// The first wheel slot with events, as in advance: its window must be after t's.
		p := wheelSlot(q.win)
		w := p >> 6
		var i int
		if m := q.wbits.words[w&(bitsWords-1)] & (^uint64(0) << (p & 63)); m != 0 {
			i = w<<6 | bits.TrailingZeros64(m)
		} else {
			i = q.wbits.after(w)
		}
		if q.win+Time((i-p)&(wheelSlots-1))*wheelGrain <= t {
			return false
		}
	}
	// t's window becomes the current one: its wheel slot is empty, and the keys the move
	// brings from the coarse wheel and the far queue are at or after the old bound, after t.
	q.last, q.win = t, t&^(wheelGrain-1)
	if q.win >= q.moveAt {
		q.migrate()
	}
	return true
}

// advance takes the earliest key out, if there is one and it is not after limit, moves
// last on to its time and returns its slot; it reports false, changing nothing, if there is
// no such key. The keys at last must have been taken first.
func (q *timeQueue) advance(limit Time) (int32, bool) {
	if n := len(q.run); n > 0 {
		k := &q.run[n-1]
		if k.t > limit {
			return 0, false
		}
		q.last = k.t
		q.run = q.run[:n-1]
		q.n--
		return k.slot, true
	}
	if q.inBig {
		s, _, ok := q.big.advance(limit)
		if ok {
			q.last = q.big.last
			q.n--
			q.inBig = q.big.n > 0
		}
		return s, ok
	}
	if q.wbits.sum == 0 {
		return q.jump(limit)
	}
	// The first slot with events after the current window's, in circular order, which is
	// time order (every wheel event is before bound, within wheelSpan of win): in the
	// bitmap word of the current slot (empty: its events are in the run), or past it.
	p := wheelSlot(q.win)
	w := p >> 6
	var i int
	if m := q.wbits.words[w&(bitsWords-1)] & (^uint64(0) << (p & 63)); m != 0 {
		i = w<<6 | bits.TrailingZeros64(m)
	} else {
		i = q.wbits.after(w)
	}
	s := q.heads[i] - 1
	slots := *q.slots
	if ev := &slots[s]; ev.next == 0 {
		// Most windows hold one event: it is taken straight from the wheel.
		t := ev.Time
		if t > limit {
			return 0, false
		}
		q.unlink(i)
		q.last, q.win = t, t&^(wheelGrain-1)
		q.n--
		if q.win >= q.moveAt {
			q.migrate()
		}
		return s, true
	}
	if limit != MaxTime && q.slotMin(i) > limit {
		return 0, false
	}
	q.win = slots[s].Time &^ (wheelGrain - 1)
	q.gather(i)
	if q.win >= q.moveAt {
		q.migrate()
	}
	q.last = q.win // before any key of the window: the first is taken next
	return q.advance(limit)
}

// jump is advance when the wheel and the run are empty: on to the earliest coarse or far
// key, whose window becomes the current one.
func (q *timeQueue) jump(limit Time) (int32, bool) {
	slots := *q.slots
	first := MaxTime // the earliest coarse key
	if q.cbits.sum != 0 {
		i, _ := q.cfirst()
		for s := q.cheads[i] - 1; s >= 0; s = slots[s].next - 1 {
			first = min(first, slots[s].Time)
		}
	}
	if q.far.n > 0 && q.fNext < first {
		// A far key goes first only if it is strictly earlier: at first's time the keys
		// are ordered by tie, in the run.
		s, next, ok := q.far.advance(min(limit, first-1))
		if ok {
			t := slots[s].Time
			q.last, q.win = t, t&^(wheelGrain-1)
			q.n--
			q.migrate() // the keys of t's period and the next go to the run and the wheel
			return s, true
		}
		q.fNext = next
	}
	if first == MaxTime || first > limit {
		return 0, false
	}
	q.win = first &^ (wheelGrain - 1)
	q.migrate()
	q.last = q.win // before any key of the window: the first is taken next
	return q.advance(limit)
}

// slotBits is how the wheel and the coarse wheel find their slots with events: a two-level
// bitmap of up to bitsSlots slots, a word of bits per 64 slots and a summary word with a
// bit per word that is not zero.
type slotBits struct {
	words [bitsWords]uint64 // bit i%64 of word i/64: slot i has events
	sum   uint64            // bit w: word w is not zero
}

const (
	bitsWords = 64 // the summary's bits
	bitsSlots = 64 * bitsWords
)

// set marks slot i as having events.
func (b *slotBits) set(i int) {
	w := i >> 6
	b.words[w] |= 1 << (i & 63)
	b.sum |= 1 << w
}

// clear marks slot i empty.
func (b *slotBits) clear(i int) {
	w := i >> 6
	if b.words[w] &^= 1 << (i & 63); b.words[w] == 0 {
		b.sum &^= 1 << w
	}
}

// after returns the first slot with events past word w: in the first non-empty word after
// w or, wrapping round, from the first word on (w's own low bits included: the slots before
// the current one come last). Some slot must have events.
//
//go:noinline
func (b *slotBits) after(w int) int {
	sm := b.sum &^ (uint64(2)<<w - 1)
	if sm == 0 {
		sm = b.sum
	}
	w = bits.TrailingZeros64(sm)
	return w<<6 | bits.TrailingZeros64(b.words[w])
}

// unlink marks wheel slot i empty.
func (q *timeQueue) unlink(i int) {
	q.heads[i] = 0
	q.wbits.clear(i)
}

// slotMin returns the earliest time in wheel slot i.
func (q *timeQueue) slotMin(i int) Time {
	slots := *q.slots
	m := MaxTime
	for s := q.heads[i] - 1; s >= 0; s = slots[s].next - 1 {
		m = min(m, slots[s].Time)
	}
	return m
}

// gather empties wheel slot i, of the current window, into the run, which is empty.
func (q *timeQueue) gather(i int) {
	slots := *q.slots
	for s := q.heads[i] - 1; s >= 0; s = slots[s].next - 1 {
		q.insertRun(keyOf(slots, s))
	}
	q.unlink(i)
}

// migrate moves bound on to the current window's and the coarse periods and far keys
// before it into the run or the wheel.
func (q *timeQueue) migrate() {
	slots := *q.slots
	nb := bound(q.win)
	for q.cbits.sum != 0 {
		i, p := q.cfirst()
		if p >= nb>>periodBits {
			break
		}
		s := q.cheads[i] - 1
		q.cheads[i] = 0
		q.cbits.clear(i)
		for s >= 0 {
			k := keyOf(slots, s)
			s = slots[s].next - 1
			q.place(k)
		}
	}
	q.bound, q.moveAt = nb, nb-period
	for q.fNext < nb {
		var s int32
		if h := q.far.nowHead(); h != nil {
			s = h.slot
			q.far.popNow()
		} else if f, next, ok := q.far.advance(nb - 1); ok {
			s = f
		} else {
			q.fNext = next
			return
		}
		q.place(keyOf(slots, s))
	}
}

// place puts k, before bound, into the run or the wheel.
func (q *timeQueue) place(k key) {
	if k.t-q.win < wheelGrain {
		q.insertRun(k)
	} else {
		q.link(k)
	}
}

// rebase sets last to t, which must not be after any key held (the engine's clock moved
// on to t with nothing pending before it), and queues every key again from t's window.
func (q *timeQueue) rebase(t Time) {
	if t == q.last {
		return
	}
	slots := *q.slots
	s := append(q.scratch[:0], q.run...)
	for i := range q.big.lens {
		s = append(s, q.big.bucket(i)...)
	}
	for _, heads := range [][]int32{q.heads[:], q.cheads[:]} {
		for i := range heads {
			for x := heads[i] - 1; x >= 0; x = slots[x].next - 1 {
				s = append(s, keyOf(slots, x))
			}
		}
	}
	for i := range q.far.lens {
		s = append(s, q.far.bucket(i)...)
	}
	q.clear()
	q.last, q.win = t, t&^(wheelGrain-1)
	q.bound = bound(q.win)
	q.moveAt = q.bound - period
	q.far.last = t
	for _, k := range s {
		q.push(k)
	}
	q.scratch = s[:0]
}

// clear drops every key.
func (q *timeQueue) clear() {
	q.run = q.run[:0]
	q.big.clear()
	q.inBig = false
	q.heads = [wheelSlots]int32{}
	q.wbits = slotBits{}
	q.n = 0
	q.cheads = [coarseSlots]int32{}
	q.cbits = slotBits{}
	q.far.clear()
	q.fNext = MaxTime
}
