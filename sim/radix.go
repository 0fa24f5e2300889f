package sim

import (
	"math/bits"
	"slices"
)

// radixQueue is the engine's queue of pending events: a monotone radix heap (Ahuja,
// Mehlhorn, Orlin and Tarjan, "Faster algorithms for the shortest path problem", JACM 1990),
// which fits a discrete-event engine because no event is ever scheduled before the current
// time. Keys are bucketed by the highest bit in which their time differs from last, the
// time of the latest key taken: bucket 0 holds the keys at last itself, bucket i those
// that first differ from it at bit i−1. Scheduling is a bit scan and an append; taking
// the earliest key empties the lowest non-empty bucket into lower ones, each key moving
// down at most 63 times in its life, instead of sifting through a binary heap's levels on
// data-dependent (mispredicted) branches.
//
// Bucket 0 is kept sorted by tie (phase, then sequence number) in descending order, so the
// next key is its last element: keys at one time leave in the engine's total order.
type radixQueue struct {
	last    Time      // time of the latest key taken; every key is at or after it
	b       [64][]key // the buckets (times are non-negative, so 63 bits suffice)
	mask    uint64    // bit i set when bucket i ≥ 1 is not empty
	n       int       // keys held
	scratch []key     // for rebase
}

// push adds k, whose time must not be before last.
func (q *radixQueue) push(k key) {
	q.n++
	i := bits.Len64(uint64(k.t ^ q.last))
	if i == 0 {
		q.insertNow(k)
		return
	}
	q.b[i] = append(q.b[i], k)
	q.mask |= 1 << uint(i)
}

// insertNow puts k, at time last, into bucket 0 in order.
func (q *radixQueue) insertNow(k key) {
	b := append(q.b[0], k)
	j := len(b) - 1
	for j > 0 && b[j-1].tie < k.tie {
		b[j] = b[j-1]
		j--
	}
	b[j] = k
	q.b[0] = b
}

// nowHead returns the earliest key at time last, or nil if none is held.
func (q *radixQueue) nowHead() *key {
	if n := len(q.b[0]); n > 0 {
		return &q.b[0][n-1]
	}
	return nil
}

// popNow removes the key nowHead returned.
func (q *radixQueue) popNow() {
	q.b[0] = q.b[0][:len(q.b[0])-1]
	q.n--
}

// advance moves last on to the earliest time held, if there is one and it is not after
// limit, so that its keys are in bucket 0, and reports whether it did. Bucket 0 must be
// empty: the keys at the current last are taken first.
func (q *radixQueue) advance(limit Time) bool {
	if q.mask == 0 {
		return false
	}
	i := bits.TrailingZeros64(q.mask)
	// Bucket i's keys agree with last above bit i−1 and have that bit set: none is before
	// this bound, so a limit under it needs no scan (RunUntil with far events pending).
	if lo := q.last>>(i-1)<<(i-1) | 1<<(i-1); lo > limit {
		return false
	}
	b := q.b[i]
	m := b[0].t
	for j := 1; j < len(b); j++ {
		m = min(m, b[j].t)
	}
	if m > limit {
		return false
	}
	// Every key of bucket i agrees with m on the bits from i−1 up, so each goes to a lower
	// bucket and b's backing array is not appended to while it is read.
	q.last = m
	q.b[i] = b[:0]
	q.mask &^= 1 << uint(i)
	for j := range b {
		k := b[j]
		if l := bits.Len64(uint64(k.t ^ m)); l == 0 {
			q.b[0] = append(q.b[0], k)
		} else {
			q.b[l] = append(q.b[l], k)
			q.mask |= 1 << uint(l)
		}
	}
	if z := q.b[0]; len(z) > 1 {
		sortNow(z)
	}
	return true
}

// sortNow sorts keys at one time by tie, descending (the next to fire last): by insertion
// for the few keys that usually share a time, by slices.SortFunc for many.
func sortNow(z []key) {
	if len(z) > 12 {
		slices.SortFunc(z, func(a, b key) int {
			switch {
			case a.tie > b.tie:
				return -1
			case a.tie < b.tie:
				return 1
			}
			return 0
		})
		return
	}
	for i := 1; i < len(z); i++ {
		k := z[i]
		j := i
		for j > 0 && z[j-1].tie < k.tie {
			z[j] = z[j-1]
			j--
		}
		z[j] = k
	}
}

// rebase sets last to t, which must not be after any key held (the engine's clock moved
// on to t with nothing pending before it), and buckets every key again.
func (q *radixQueue) rebase(t Time) {
	if t == q.last {
		return
	}
	s := q.scratch[:0]
	for i := range q.b {
		s = append(s, q.b[i]...)
		q.b[i] = q.b[i][:0]
	}
	q.last, q.mask, q.n = t, 0, 0
	for _, k := range s {
		q.push(k)
	}
	q.scratch = s[:0]
}

// clear drops every key.
func (q *radixQueue) clear() {
	for i := range q.b {
		q.b[i] = q.b[i][:0]
	}
	q.mask, q.n = 0, 0
}
