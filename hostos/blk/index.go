package blk

import "math/bits"

// reqIndex maps byte offsets to requests: an open-addressing hash table with linear
// probing and backward-shift deletion, sized once for at most a queue's requests, so
// lookups and updates never allocate or rehash (a Go map paid ≈ 0.1 µs per queued request
// in hashing and tombstone upkeep). It is only looked up, never iterated.
type reqIndex struct {
	keys  []int64
	vals  []*Request // nil: empty cell
	mask  uint64
	shift uint
	n     int // requests indexed
}

// newReqIndex returns an empty index for at most n requests (at most half full).
func newReqIndex(n int) reqIndex {
	size := 1 << bits.Len(uint(max(2*n-1, 1)))
	size = max(size, 8)
	return reqIndex{keys: make([]int64, size), vals: make([]*Request, size),
		mask: uint64(size - 1), shift: uint(64 - bits.TrailingZeros(uint(size)))}
}

// home returns the cell a key hashes to (Fibonacci hashing).
func (x *reqIndex) home(k int64) uint64 {
	return (uint64(k) * 0x9E3779B97F4A7C15) >> x.shift
}

// get returns the request indexed under k, or nil.
func (x *reqIndex) get(k int64) *Request {
	for i := x.home(k); ; i = (i + 1) & x.mask {
		v := x.vals[i]
		if v == nil {
			return nil
		}
		if x.keys[i] == k {
			return v
		}
	}
}

// add indexes rq under k unless k is taken, and reports whether it did.
func (x *reqIndex) add(k int64, rq *Request) bool {
	i := x.home(k)
	for ; x.vals[i] != nil; i = (i + 1) & x.mask {
		if x.keys[i] == k {
			return false
		}
	}
	if 2*(x.n+1) > len(x.vals) {
		panic("blk: merge index holds more requests than the queue has")
	}
	x.keys[i], x.vals[i] = k, rq
	x.n++
	return true
}

// del removes k, which must be indexed, shifting back the cells of its probe run.
func (x *reqIndex) del(k int64) {
	i := x.home(k)
	for x.keys[i] != k || x.vals[i] == nil {
		if x.vals[i] == nil {
			panic("blk: merge index lost a request")
		}
		i = (i + 1) & x.mask
	}
	for j := (i + 1) & x.mask; x.vals[j] != nil; j = (j + 1) & x.mask {
		// Move j back to the hole at i if its home is not cyclically in (i, j].
		if h := x.home(x.keys[j]); (j-h)&x.mask >= (j-i)&x.mask {
			x.keys[i], x.vals[i] = x.keys[j], x.vals[j]
			i = j
		}
	}
	x.keys[i], x.vals[i] = 0, nil
	x.n--
}
