package fio

import (
	"math"
	"math/bits"
	"slices"
)

// fio keeps completion latencies (in ns) in a log-linear histogram (fio's stat.h: "the
// histogram of latencies"): values below 128 ns have a bin each; above that, every power of
// two is split into 64 equal bins, so a bin is at most 1/64 of its value wide. json+ prints
// each non-empty bin as "value": count, where value is the bin's midpoint (fio HOWTO,
// "JSON+ output": "The latency durations actually represent the midpoints of latency
// intervals"), and the percentiles fio reports are the values of the bins where the
// cumulative count reaches the percentile. The HOWTO's example bins 87552 (= 2^16 + 21.5 ·
// 2^10) and 100864 (= 2^16 + 34.5 · 2^10) are midpoints of this scheme.
const (
	binBits   = 6
	binsPer   = 1 << binBits // bins per power of two
	binGroups = 29           // powers of two covered: up to 2^34 ns ≈ 17 s in its own bins
	numBins   = binGroups * binsPer
)

// binOf returns the bin of a latency of ns nanoseconds.
func binOf(ns uint64) int {
	if ns < 2*binsPer {
		return int(ns)
	}
	msb := bits.Len64(ns) - 1
	shift := msb - binBits // the low bits a bin does not tell apart
	idx := (shift+1)*binsPer + int((ns>>shift)&(binsPer-1))
	return min(idx, numBins-1)
}

// binValue returns the value fio prints for bin idx: its midpoint.
func binValue(idx int) uint64 {
	if idx < 2*binsPer {
		return uint64(idx)
	}
	shift := idx/binsPer - 1
	base := uint64(1) << (shift + binBits)
	k := uint64(idx % binsPer)
	return base + k<<shift + (uint64(1)<<shift)/2
}

// latBins counts latencies in fio's bins.
type latBins []uint64

// add counts a latency of ns nanoseconds.
func (b *latBins) add(ns uint64) {
	if *b == nil {
		*b = make(latBins, numBins)
	}
	(*b)[binOf(ns)]++
}

// merge adds o's counts.
func (b *latBins) merge(o latBins) {
	if o == nil {
		return
	}
	if *b == nil {
		*b = make(latBins, numBins)
	}
	for i, n := range o {
		(*b)[i] += n
	}
}

// percentiles returns the value fio reports for each percentile p (in (0, 100]): the
// midpoint of the first bin whose cumulative count reaches p/100 of all counts.
func (b latBins) percentiles(ps []float64) []uint64 {
	out := make([]uint64, len(ps))
	var total uint64
	for _, n := range b {
		total += n
	}
	if total == 0 {
		return out
	}
	order := make([]int, len(ps))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, c int) int {
		switch {
		case ps[a] < ps[c]:
			return -1
		case ps[a] > ps[c]:
			return 1
		}
		return 0
	})
	var cum uint64
	k := 0
	for i, n := range b {
		cum += n
		for k < len(order) && float64(cum) >= math.Ceil(ps[order[k]]/100*float64(total)-1e-9) && n > 0 {
			out[order[k]] = binValue(i)
			k++
		}
		if k == len(order) {
			break
		}
	}
	for ; k < len(order); k++ { // rounding left a percentile past the last count
		out[order[k]] = binValue(lastBin(b))
	}
	return out
}

// lastBin returns the highest non-empty bin.
func lastBin(b latBins) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] > 0 {
			return i
		}
	}
	return 0
}
