package sim

import (
	"math"
	"math/bits"
)

// Counter is a named monotonically updated integer statistic.
type Counter struct {
	Name  string
	Value int64
}

// Add adds n to the counter.
func (c *Counter) Add(n int64) { c.Value += n }

// Inc adds one to the counter.
func (c *Counter) Inc() { c.Value++ }

// histSubBits sets the histogram's resolution: each power-of-two range is split into
// 2^histSubBits linear buckets, so a bucket is at most 1/128 of its values wide and a
// percentile reported at the bucket's midpoint is within 0.4 % of a value in that bucket.
const histSubBits = 7

const histSub = 1 << histSubBits

// Histogram records non-negative integer samples (latencies in ps, sizes in bytes) in
// log-linear buckets, with exact count, sum, minimum and maximum. Percentiles have a relative
// error below 1 %. Recording is a few integer operations and never allocates once the
// bucket array has grown to cover the largest value.
type Histogram struct {
	Name   string
	counts []uint64
	count  uint64
	sum    float64 // float only for the mean of very long runs; not used for time arithmetic
	sumSq  float64 // sum of squared samples, for the standard deviation
	sumInt int64
	sumOvf bool
	min    int64
	max    int64
}

// bucketOf maps a value to its bucket index. Values below histSub get one bucket each.
func bucketOf(v int64) int {
	if v < histSub {
		return int(v)
	}
	exp := bits.Len64(uint64(v)) - 1 - histSubBits // ≥ 0
	sub := int(uint64(v)>>uint(exp)) - histSub     // 0 … histSub-1
	return histSub + exp*histSub + sub
}

// bucketRange returns the smallest and largest value of bucket i.
func bucketRange(i int) (lo, hi int64) {
	if i < histSub {
		return int64(i), int64(i)
	}
	exp := (i - histSub) / histSub
	sub := (i - histSub) % histSub
	lo = int64(histSub+sub) << uint(exp)
	hi = lo + (int64(1) << uint(exp)) - 1
	return lo, hi
}

// Record adds one sample. Negative samples are a model bug and panic.
func (h *Histogram) Record(v int64) {
	if v < 0 {
		panic("sim: histogram " + h.Name + " got a negative sample")
	}
	b := bucketOf(v)
	if b >= len(h.counts) {
		n := max(b+1, 2*len(h.counts))
		c := make([]uint64, n)
		copy(c, h.counts)
		h.counts = c
	}
	h.counts[b]++
	if h.count == 0 || v < h.min {
		h.min = v
	}
	if v > h.max {
		h.max = v
	}
	h.count++
	if !h.sumOvf {
		s, carry := bits.Add64(uint64(h.sumInt), uint64(v), 0)
		if carry != 0 || s > math.MaxInt64 {
			h.sumOvf = true
		} else {
			h.sumInt = int64(s)
		}
	}
	f := float64(v)
	h.sum += f
	h.sumSq += f * f
}

// Count returns the number of samples.
func (h *Histogram) Count() uint64 { return h.count }

// Min returns the smallest sample (0 if empty).
func (h *Histogram) Min() int64 { return h.min }

// Max returns the largest sample (0 if empty).
func (h *Histogram) Max() int64 { return h.max }

// Sum returns the exact sum of samples while it fits in an int64, and ok=false after that.
func (h *Histogram) Sum() (sum int64, ok bool) { return h.sumInt, !h.sumOvf }

// Mean returns the mean sample (0 if empty); exact to float64 precision.
func (h *Histogram) Mean() float64 {
	if h.count == 0 {
		return 0
	}
	if !h.sumOvf {
		return float64(h.sumInt) / float64(h.count)
	}
	return h.sum / float64(h.count)
}

// Stdev returns the samples' population standard deviation (0 if empty), from the sums of
// the samples and of their squares in float64: √(E[x²] − E[x]²), never negative.
func (h *Histogram) Stdev() float64 {
	if h.count == 0 {
		return 0
	}
	n := float64(h.count)
	m := h.sum / n
	return math.Sqrt(max(h.sumSq/n-m*m, 0))
}

// Quantile returns the q-quantile (0 ≤ q ≤ 1) by the nearest-rank rule: the value of the
// ⌈q·n⌉-th smallest sample, reported as the midpoint of its bucket clamped to [Min, Max].
// Quantile(0) is Min and Quantile(1) is Max exactly.
func (h *Histogram) Quantile(q float64) int64 {
	if h.count == 0 {
		return 0
	}
	if q <= 0 {
		return h.min
	}
	if q >= 1 {
		return h.max
	}
	rank := uint64(math.Ceil(q * float64(h.count)))
	if rank == 0 {
		rank = 1
	}
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			lo, hi := bucketRange(i)
			mid := lo + (hi-lo)/2
			return min(max(mid, h.min), h.max)
		}
	}
	return h.max
}

// Merge adds every sample of o into h.
func (h *Histogram) Merge(o *Histogram) {
	if o.count == 0 {
		return
	}
	if len(o.counts) > len(h.counts) {
		c := make([]uint64, len(o.counts))
		copy(c, h.counts)
		h.counts = c
	}
	for i, c := range o.counts {
		h.counts[i] += c
	}
	if h.count == 0 || o.min < h.min {
		h.min = o.min
	}
	h.max = max(h.max, o.max)
	h.count += o.count
	h.sum += o.sum
	h.sumSq += o.sumSq
	if !h.sumOvf && !o.sumOvf {
		s, carry := bits.Add64(uint64(h.sumInt), uint64(o.sumInt), 0)
		if carry != 0 || s > math.MaxInt64 {
			h.sumOvf = true
		} else {
			h.sumInt = int64(s)
		}
	} else {
		h.sumOvf = true
	}
}

// Reset forgets all samples, keeping the bucket storage.
func (h *Histogram) Reset() {
	clear(h.counts)
	h.count, h.sum, h.sumSq, h.sumInt, h.sumOvf, h.min, h.max = 0, 0, 0, 0, false, 0, 0
}
