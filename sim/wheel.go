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

// The bitmap's summary word has a bit per bitmap word: at most 64 of them.
var _ [64 - wheelSlots/64]struct{}

// timeQueue is the engine's queue of events in the future, ordered by (time, tie): a timing
// wheel (Varghese and Lauck, "Hashed and hierarchical timing wheels", SOSP 1987) for events
// within wheelSpan of the current window, with a sorted run for the current window and a
// radix heap for the events beyond the wheel.
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
//   - The far queue, a radixQueue, holds the keys at win+wheelSpan or later. Whenever the
//     window moves, the far keys that come within wheelSpan of it move to the wheel, so the
//     wheel and the run always hold every key before win+wheelSpan.
//
// Scheduling is then a subtraction and a list insertion for most events, and taking the
// next one a bit scan, instead of the few moves between buckets a radix heap makes for each
// key.
type timeQueue struct {
	last    Time                    // time of the latest key taken; no key is before it
	win     Time                    // start of the current window: last, rounded down
	run     []key                   // the current window's keys, latest first (unless inBig)
	big     radixQueue              // the current window's keys when it is crowded
	inBig   bool                    // the current window's keys are in big, not in run
	n       int                     // keys held, far ones included
	heads   [wheelSlots]int32       // each wheel slot's first event: its slot + 1 (0: none)
	bitmap  [wheelSlots / 64]uint64 // bit i%64 of word i/64: slot i has events
	summary uint64                  // bit w: bitmap word w is not zero
	far     radixQueue              // the keys at win+wheelSpan or later
	farNext Time                    // no far key is before it (far is not scanned until then)
	slots   *[]Event                // the engine's slot table, through which wheel slots are linked
	scratch []key                   // for rebase
}

// newTimeQueue returns an empty queue at time zero for the events in the slot table slots.
func newTimeQueue(slots *[]Event) timeQueue {
	return timeQueue{big: newRadixQueue(), far: newRadixQueue(), farNext: MaxTime, slots: slots}
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
	case d < wheelSpan:
		q.link(k)
	default:
		q.far.push(k)
		q.farNext = min(q.farNext, k.t)
	}
}

// link puts k, for a window after the current one and within wheelSpan of it, into its
// wheel slot.
func (q *timeQueue) link(k key) { q.linkEvent(&(*q.slots)[k.slot], k.slot) }

// inWheel reports whether an event at t goes into a wheel slot: after the current window
// and within wheelSpan of it.
func (q *timeQueue) inWheel(t Time) bool {
	return uint64(t-q.win-wheelGrain) < uint64(wheelSpan-wheelGrain)
}

// linkEvent puts event ev, in slot s, into the wheel slot of its time, which inWheel
// accepts.
func (q *timeQueue) linkEvent(ev *Event, s int32) {
	i := wheelSlot(ev.Time)
	ev.next = q.heads[i]
	q.heads[i] = s + 1
	w := i >> 6
	q.bitmap[w] |= 1 << (i & 63)
	q.summary |= 1 << w
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
	if q.summary == 0 {
		return q.jump(limit)
	}
	// The first slot with events after the current window's, in circular order, which is
	// time order (every wheel event is within wheelSpan of win): in the bitmap word of the
	// current slot (empty: its events are in the run), or past it.
	p := wheelSlot(q.win)
	w := p >> 6
	var i int
	if m := q.bitmap[w&(len(q.bitmap)-1)] & (^uint64(0) << (p & 63)); m != 0 {
		i = w<<6 | bits.TrailingZeros64(m)
	} else {
		i = q.nextWord(w)
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
		if q.farNext < q.win+wheelSpan {
			q.migrate()
		}
		return s, true
	}
	if limit != MaxTime && q.slotMin(i) > limit {
		return 0, false
	}
	q.win = slots[s].Time &^ (wheelGrain - 1)
	q.gather(i)
	if q.farNext < q.win+wheelSpan {
		q.migrate()
	}
	q.last = q.win // before any key of the window: the first is taken next
	return q.advance(limit)
}

// jump is advance when the wheel and the run are empty: on to the far queue's earliest
// key, whose window becomes the current one.
func (q *timeQueue) jump(limit Time) (int32, bool) {
	if q.far.n == 0 {
		return 0, false
	}
	s, next, ok := q.far.advance(limit)
	if !ok {
		q.farNext = next
		return 0, false
	}
	t := (*q.slots)[s].Time
	q.last, q.win = t, t&^(wheelGrain-1)
	q.n--
	q.migrate() // the far keys at t go into the run, after the one taken
	return s, true
}

// nextWord returns the first wheel slot with events past bitmap word w: in the first
// non-empty word after w or, wrapping round, from the first word on (w's own low bits
// included: the slots before the current one come last).
//
//go:noinline
func (q *timeQueue) nextWord(w int) int {
	sm := q.summary &^ (uint64(2)<<w - 1)
	if sm == 0 {
		sm = q.summary
	}
	w = bits.TrailingZeros64(sm)
	return w<<6 | bits.TrailingZeros64(q.bitmap[w])
}

// unlink marks wheel slot i empty.
func (q *timeQueue) unlink(i int) {
	q.heads[i] = 0
	w := i >> 6
	if q.bitmap[w] &^= 1 << (i & 63); q.bitmap[w] == 0 {
		q.summary &^= 1 << w
	}
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

// migrate moves the far keys within wheelSpan of the current window into the run or the
// wheel.
func (q *timeQueue) migrate() {
	slots := *q.slots
	lim := q.win + wheelSpan - 1
	for q.farNext <= lim {
		var s int32
		if h := q.far.nowHead(); h != nil {
			s = h.slot
			q.far.popNow()
		} else if f, next, ok := q.far.advance(lim); ok {
			s = f
		} else {
			q.farNext = next
			return
		}
		k := keyOf(slots, s)
		if k.t-q.win < wheelGrain {
			q.insertRun(k)
		} else {
			q.link(k)
		}
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
	for i := range q.heads {
		for x := q.heads[i] - 1; x >= 0; x = slots[x].next - 1 {
			s = append(s, keyOf(slots, x))
		}
	}
	for i := range q.far.lens {
		s = append(s, q.far.bucket(i)...)
	}
	q.clear()
	q.last, q.win = t, t&^(wheelGrain-1)
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
	q.bitmap = [wheelSlots / 64]uint64{}
	q.summary, q.n = 0, 0
	q.far.clear()
	q.farNext = MaxTime
}
