package sim

import "fmt"

// HistogramData is a Histogram in a portable form, for result files that must merge
// distributions exactly (sweep shards, several seeds): the exact count, minimum, maximum and
// sums, and every non-empty bucket as a [lo, hi, count] triple in the samples' own unit, so a
// reader needs no knowledge of the bucket layout to use it. FromData rebuilds a Histogram
// whose every statistic, quantile and merge equals the original's.
type HistogramData struct {
	Count uint64 `json:"count"`
	Min   int64  `json:"min"`
	Max   int64  `json:"max"`
	// Sum is the exact sum of the samples while SumExact; SumFloat is the same sum
	// accumulated in float64 (the form Mean uses once the exact sum overflows).
	Sum      int64   `json:"sum"`
	SumExact bool    `json:"sum_exact"`
	SumFloat float64 `json:"sum_float"`
	// SumSquares is the sum of the squared samples (for Stdev); 0 in files written before it.
	SumSquares float64 `json:"sum_sq,omitempty"`
	// Buckets holds the non-empty buckets, ascending: [smallest value, largest value, count].
	Buckets [][3]int64 `json:"buckets"`
}

// Data returns the histogram in portable form.
func (h *Histogram) Data() HistogramData {
	d := HistogramData{Count: h.count, Min: h.min, Max: h.max, Sum: h.sumInt, SumExact: !h.sumOvf,
		SumFloat: h.sum, SumSquares: h.sumSq, Buckets: [][3]int64{}}
	for i, c := range h.counts {
		if c == 0 {
			continue
		}
		lo, hi := bucketRange(i)
		d.Buckets = append(d.Buckets, [3]int64{lo, hi, int64(c)})
	}
	return d
}

// FromData rebuilds a histogram named name from d, checking that d is one Data could have
// written: buckets that are this layout's own, ascending, with positive counts summing to
// Count, and Min and Max inside the first and last bucket. Errors say which bucket or field
// is wrong.
func FromData(name string, d HistogramData) (*Histogram, error) {
	h := &Histogram{Name: name}
	if d.Count == 0 {
		if len(d.Buckets) != 0 || d.Min != 0 || d.Max != 0 || d.Sum != 0 || d.SumFloat != 0 || d.SumSquares != 0 {
			return nil, fmt.Errorf("histogram %s: count 0 but buckets, min, max or sum set", name)
		}
		return h, nil
	}
	if len(d.Buckets) == 0 {
		return nil, fmt.Errorf("histogram %s: count %d but no buckets", name, d.Count)
	}
	var total uint64
	prev := -1
	for k, b := range d.Buckets {
		lo, hi, c := b[0], b[1], b[2]
		if lo < 0 || c <= 0 {
			return nil, fmt.Errorf("histogram %s: bucket %d [%d, %d, %d]: want lo ≥ 0 and count > 0", name, k, lo, hi, c)
		}
		i := bucketOf(lo)
		if wlo, whi := bucketRange(i); wlo != lo || whi != hi {
			return nil, fmt.Errorf("histogram %s: bucket %d [%d, %d] is not a bucket of this layout (the one holding %d is [%d, %d])",
				name, k, lo, hi, lo, wlo, whi)
		}
		if i <= prev {
			return nil, fmt.Errorf("histogram %s: bucket %d starting at %d is not above the one before", name, k, lo)
		}
		prev = i
		if i >= len(h.counts) {
			c := make([]uint64, i+1)
			copy(c, h.counts)
			h.counts = c
		}
		h.counts[i] = uint64(c)
		if total+uint64(c) < total {
			return nil, fmt.Errorf("histogram %s: bucket counts overflow", name)
		}
		total += uint64(c)
	}
	if total != d.Count {
		return nil, fmt.Errorf("histogram %s: buckets hold %d samples, count says %d", name, total, d.Count)
	}
	first, last := d.Buckets[0], d.Buckets[len(d.Buckets)-1]
	if d.Min < first[0] || d.Min > first[1] || d.Max < last[0] || d.Max > last[1] || d.Min > d.Max {
		return nil, fmt.Errorf("histogram %s: min %d and max %d are not in the first bucket [%d, %d] and the last [%d, %d]",
			name, d.Min, d.Max, first[0], first[1], last[0], last[1])
	}
	if d.SumExact && d.Sum < 0 {
		return nil, fmt.Errorf("histogram %s: exact sum %d is negative", name, d.Sum)
	}
	h.count, h.min, h.max = d.Count, d.Min, d.Max
	h.sumInt, h.sumOvf, h.sum, h.sumSq = d.Sum, !d.SumExact, d.SumFloat, d.SumSquares
	return h, nil
}
