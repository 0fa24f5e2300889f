package bitset

import "math/bits"

// Set is a set of the integers 0 … n−1, a bit each.
type Set []uint64

// New returns an empty set for 0 … n−1.
func New(n int) Set { return make(Set, (n+63)/64) }

// Put adds i to the set if in is true and removes it otherwise.
func (s Set) Put(i int, in bool) {
	if in {
		s[i>>6] |= 1 << uint(i&63)
	} else {
		s[i>>6] &^= 1 << uint(i&63)
	}
}

// Has reports whether i is in the set.
func (s Set) Has(i int) bool { return s[i>>6]&(1<<uint(i&63)) != 0 }

// Next returns the first member at or after i and before end, or end if there is none.
func (s Set) Next(i, end int) int {
	if i >= end {
		return end
	}
	w := i >> 6
	word := s[w] >> uint(i&63) << uint(i&63)
	for {
		if word != 0 {
			return min(w<<6+bits.TrailingZeros64(word), end)
		}
		if w++; w<<6 >= end {
			return end
		}
		word = s[w]
	}
}
