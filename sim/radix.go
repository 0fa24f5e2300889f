package sim

import (
	"math/bits"
	"slices"
)

// radixQueue is a monotone radix heap (Ahuja, Mehlhorn, Orlin and Tarjan, "Faster
// algorithms for the shortest path problem", JACM 1990): the time queue's far queue, for
// events beyond its coarse wheel, and its run when a window is crowded. It fits a
// discrete-event engine because no event is ever scheduled before the current time. Keys
// are bucketed by the highest bit in which their time differs from last, the time of the
// latest key taken: bucket 0 holds the keys at last itself, bucket i those that first
// differ from it at bit i−1. Scheduling is a bit scan and an append; taking the earliest
// key empties the lowest non-empty bucket into lower ones, each key moving down at most 63
// times in its life, instead of sifting through a binary heap's levels on data-dependent
// (mispredicted) branches.
//
// Bucket 0 is kept sorted by tie (phase, then sequence number) in descending order, so the
// next key is its last element: keys at one time leave in the engine's total order.
//
// The buckets share one array, bucket i at keys[i*stride:], each with room for stride keys,
// where stride is a power of two above the number of keys held: no bucket can outgrow
// its room, so a move within advance never grows a slice (the Go compiler keeps a loop's
// values in registers only when nothing in it can call the runtime). The room doubles once
// a push fills it: 64 buckets of stride 24-byte keys, 1.5 MiB for 1,000 events.
type radixQueue struct {
	last   Time    // time of the latest key taken; every key is at or after it
	mask   uint64  // bit i set when bucket i ≥ 1 is not empty
	n      int     // keys held
	stride int     // room of each bucket (a power of two > n)
	lens   [64]int // keys in each bucket (times are non-negative: 63 bits suffice)
	keys   []key   // the buckets: bucket i is keys[i*stride : i*stride+lens[i]]
}

// initialStride is each bucket's room in a new queue; 64 buckets of 16 keys are 24 KiB.
const initialStride = 16

// newRadixQueue returns an empty queue with the initial room.
func newRadixQueue() radixQueue {
	var q radixQueue
	q.grow()
	return q
}

// bucket returns bucket i's keys.
func (q *radixQueue) bucket(i int) []key {
	o := i * q.stride
	return q.keys[o : o+q.lens[i]]
}

// grow doubles every bucket's room.
//
//go:noinline
func (q *radixQueue) grow() {
	stride := max(initialStride, 2*q.stride)
	keys := make([]key, 64*stride)
	for i := range q.lens {
		copy(keys[i*stride:], q.bucket(i))
	}
	q.keys, q.stride = keys, stride
}

// level returns the bucket of a key whose time differs from last by x (the two times
// xored): the length of x in bits. x is below 2^63, so 2x+1 has a highest bit to scan
// for, and the scan needs no fix-up for zero.
func level(x Time) int {
	return (bits.Len64(uint64(x)<<1|1) - 1) & 63
}

// push adds k, whose time must not be before last. The room is kept above the keys held,
// growing after the push that fills it (a call at the end, with nothing to keep after it).
func (q *radixQueue) push(k key) {
	q.n++
	if i := level(k.t ^ q.last); i == 0 {
		q.insertNow(k)
	} else {
		q.keys[i*q.stride+q.lens[i]] = k
		q.lens[i]++
		q.mask |= 1 << i
	}
	if q.n == q.stride {
		q.grow()
	}
}

// insertNow puts k, at time last, into bucket 0 in order.
func (q *radixQueue) insertNow(k key) {
	b := q.keys[:q.lens[0]+1]
	q.lens[0]++
	j := len(b) - 1
	for j > 0 && b[j-1].tie < k.tie {
		b[j] = b[j-1]
		j--
	}
	b[j] = k
}

// nowHead returns the earliest key at time last, or nil if none is held.
func (q *radixQueue) nowHead() *key {
	if n := q.lens[0]; n > 0 {
		return &q.keys[n-1]
	}
	return nil
}

// popNow removes the key nowHead returned.
func (q *radixQueue) popNow() {
	q.lens[0]--
	q.n--
}

// advance moves last on to the earliest time held, if there is one and it is not after
// limit, takes the first key at that time out and returns its slot; the other keys at that
// time are then in bucket 0. It reports false, changing nothing, if there is no such key,
// and then returns as next a time no key is before (MaxTime if there is none). Bucket 0
// must be empty: the keys at the current last are taken first.
func (q *radixQueue) advance(limit Time) (slot int32, next Time, ok bool) {
	if q.mask == 0 {
		return 0, MaxTime, false
	}
	i := bits.TrailingZeros64(q.mask) & 63
	// Bucket i's keys agree with last above bit i−1 and have that bit set: none is before
	// this bound, so a limit under it needs no scan (RunUntil with far events pending).
	if limit != MaxTime {
		if lo := q.last>>(i-1)<<(i-1) | 1<<(i-1); lo > limit {
			return 0, lo, false
		}
	}
	b := q.bucket(i)
	if len(b) == 1 {
		// Half of all advances: the key is the only one at its time.
		if b[0].t > limit {
			return 0, b[0].t, false
		}
		q.last = b[0].t
		q.lens[i] = 0
		q.mask &^= 1 << i
		q.n--
		return b[0].slot, 0, true
	}
	m := b[0].t
	for j := 1; j < len(b); j++ {
		m = min(m, b[j].t)
	}
	if m > limit {
		return 0, m, false
	}
	// Every key of bucket i agrees with m on the bits from i−1 up, so each goes to a lower
	// bucket, which has room for it (no bucket holds more than n < stride keys).
	q.last = m
	q.lens[i] = 0
	keys, stride, mask := q.keys, q.stride, q.mask&^(1<<i)
	for j := range b {
		l := level(b[j].t ^ m)
		keys[l*stride+q.lens[l]] = b[j]
		q.lens[l]++
		mask |= 1 << l
	}
	q.mask = mask &^ 1 // bucket 0 has no bit
	n := q.lens[0]
	if n > 1 {
		sortNow(keys[:n])
	}
	q.lens[0] = n - 1
	q.n--
	return keys[n-1].slot, 0, true
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

// clear drops every key.
func (q *radixQueue) clear() {
	q.lens = [64]int{}
	q.mask, q.n = 0, 0
}
