package firmware

import "math/bits"

// dieSet is a set of die positions (0 … n−1) as a bitset.
type dieSet []uint64

func newDieSet(n int) dieSet { return make(dieSet, (n+63)/64) }

// put adds position i to the set if in is true and removes it otherwise.
func (s dieSet) put(i int, in bool) {
	if in {
		s[i>>6] |= 1 << uint(i&63)
	} else {
		s[i>>6] &^= 1 << uint(i&63)
	}
}

// has reports whether position i is in the set.
func (s dieSet) has(i int) bool { return s[i>>6]&(1<<uint(i&63)) != 0 }

// next returns the first position in the set at or after i and before end, or end if
// there is none.
func (s dieSet) next(i, end int) int {
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
