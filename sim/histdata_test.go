package sim

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHistogramDataBuckets(t *testing.T) {
	// Samples 5, 5, 200 and 1000. Below 128 every value has its own bucket: [5, 5] holds 2.
	// 200 = 0b1100_1000 has bit length 8, so exp = 8−1−7 = 0 and its bucket is one value wide:
	// [200, 200]. 1000 = 0b11_1110_1000 has bit length 10, exp = 2, so buckets are 4 wide and
	// 1000 = 250·4 sits in [1000, 1003].
	var h Histogram
	for _, v := range []int64{5, 5, 200, 1000} {
		h.Record(v)
	}
	d := h.Data()
	require.Equal(t, [][3]int64{{5, 5, 2}, {200, 200, 1}, {1000, 1003, 1}}, d.Buckets)
	// Sum of squares 25 + 25 + 40,000 + 1,000,000 = 1,040,050.
	require.Equal(t, HistogramData{Count: 4, Min: 5, Max: 1000, Sum: 1210, SumExact: true, SumFloat: 1210,
		SumSquares: 1_040_050, Buckets: d.Buckets}, d)
}

func TestHistogramDataRoundTrip(t *testing.T) {
	// Two histograms of different spread; through JSON and back, each has the same count,
	// min, max, mean and quantiles, and merging the rebuilt ones equals merging the originals.
	a, b := &Histogram{Name: "a"}, &Histogram{Name: "b"}
	r := NewRNG(7, "histdata")
	for i := 0; i < 5000; i++ {
		a.Record(int64(r.Uint64() % 1_000_000))
		b.Record(int64(r.Uint64() % 90_000_000_000))
	}
	back := func(h *Histogram) *Histogram {
		raw, err := json.Marshal(h.Data())
		require.NoError(t, err)
		var d HistogramData
		require.NoError(t, json.Unmarshal(raw, &d))
		g, err := FromData(h.Name, d)
		require.NoError(t, err)
		return g
	}
	ra, rb := back(a), back(b)
	for _, p := range []struct{ orig, got *Histogram }{{a, ra}, {b, rb}} {
		require.Equal(t, p.orig.Count(), p.got.Count())
		require.Equal(t, p.orig.Min(), p.got.Min())
		require.Equal(t, p.orig.Max(), p.got.Max())
		require.Equal(t, p.orig.Mean(), p.got.Mean())
		for _, q := range []float64{0.5, 0.9, 0.99, 0.999, 0.9999} {
			require.Equal(t, p.orig.Quantile(q), p.got.Quantile(q), "q %v", q)
		}
	}
	m1, m2 := &Histogram{}, &Histogram{}
	m1.Merge(a)
	m1.Merge(b)
	m2.Merge(ra)
	m2.Merge(rb)
	require.Equal(t, m1.Data(), m2.Data())
}

func TestHistogramDataOverflowedSum(t *testing.T) {
	// Two samples of MaxInt64/2+1 overflow the exact sum; the float sum carries the mean.
	var h Histogram
	v := int64(math.MaxInt64/2 + 1)
	h.Record(v)
	h.Record(v)
	d := h.Data()
	require.False(t, d.SumExact)
	g, err := FromData("x", d)
	require.NoError(t, err)
	require.Equal(t, h.Mean(), g.Mean())
	_, ok := g.Sum()
	require.False(t, ok)
}

func TestFromDataRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    HistogramData
		err  string
	}{
		{"empty with buckets", HistogramData{Buckets: [][3]int64{{1, 1, 1}}}, "count 0 but"},
		{"no buckets", HistogramData{Count: 1, Min: 1, Max: 1}, "no buckets"},
		{"not a bucket", HistogramData{Count: 1, Min: 1000, Max: 1000, Buckets: [][3]int64{{1000, 1001, 1}}}, "not a bucket of this layout"},
		{"zero count", HistogramData{Count: 1, Min: 1, Max: 1, Buckets: [][3]int64{{1, 1, 0}}}, "count > 0"},
		{"descending", HistogramData{Count: 2, Min: 1, Max: 2, Buckets: [][3]int64{{2, 2, 1}, {1, 1, 1}}}, "not above"},
		{"count mismatch", HistogramData{Count: 3, Min: 1, Max: 1, Buckets: [][3]int64{{1, 1, 2}}}, "hold 2 samples, count says 3"},
		{"min outside", HistogramData{Count: 1, Min: 0, Max: 1, Buckets: [][3]int64{{1, 1, 1}}}, "not in the first bucket"},
	} {
		_, err := FromData("lat", tc.d)
		require.ErrorContains(t, err, tc.err, tc.name)
		require.ErrorContains(t, err, "histogram lat", tc.name)
	}
}

func TestHistogramStdev(t *testing.T) {
	// 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squared deviations 9+1+1+1+0+0+4+16 = 32, population
	// variance 32/8 = 4, stdev 2. Merging two halves gives the same; an empty one is 0.
	var a, b, all Histogram
	for i, v := range []int64{2, 4, 4, 4, 5, 5, 7, 9} {
		all.Record(v)
		if i%2 == 0 {
			a.Record(v)
		} else {
			b.Record(v)
		}
	}
	require.Equal(t, 2.0, all.Stdev())
	a.Merge(&b)
	require.Equal(t, 2.0, a.Stdev())
	var e Histogram
	require.Equal(t, 0.0, e.Stdev())
	g, err := FromData("x", all.Data())
	require.NoError(t, err)
	require.Equal(t, 2.0, g.Stdev())
}
