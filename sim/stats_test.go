package sim

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHistogramSmallValuesExact(t *testing.T) {
	// Values below 128 have a bucket each, so every quantile is exact.
	var h Histogram
	for v := int64(1); v <= 100; v++ {
		h.Record(v)
	}
	require.Equal(t, uint64(100), h.Count())
	require.Equal(t, int64(1), h.Min())
	require.Equal(t, int64(100), h.Max())
	require.Equal(t, 50.5, h.Mean())
	require.Equal(t, int64(50), h.Quantile(0.5)) // nearest rank ⌈0.5·100⌉ = 50th value
	require.Equal(t, int64(99), h.Quantile(0.99))
	require.Equal(t, int64(91), h.Quantile(0.901)) // ⌈90.1⌉ = 91
	require.Equal(t, int64(1), h.Quantile(0))
	require.Equal(t, int64(100), h.Quantile(1))
}

func TestHistogramRelativeError(t *testing.T) {
	// Against a sorted reference: every percentile within 1 % of the exact nearest-rank value.
	r := rand.New(rand.NewPCG(1, 2))
	var h Histogram
	var ref []int64
	for i := 0; i < 200_000; i++ {
		// Log-uniform latencies from 1 ns to 100 ms, in ps.
		v := int64(float64(int64(1000)<<r.IntN(27)) * (1 + r.Float64()))
		h.Record(v)
		ref = append(ref, v)
	}
	slices.Sort(ref)
	for _, q := range []float64{0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999} {
		rank := int(float64(len(ref))*q+0.999999999) - 1
		exact := ref[rank]
		got := h.Quantile(q)
		require.InEpsilon(t, float64(exact), float64(got), 0.01, "q=%v", q)
	}
	var sum int64
	for _, v := range ref {
		sum += v
	}
	s, ok := h.Sum()
	require.True(t, ok)
	require.Equal(t, sum, s)
	require.Equal(t, ref[0], h.Min())
	require.Equal(t, ref[len(ref)-1], h.Max())
}

func TestHistogramMergeAndReset(t *testing.T) {
	var a, b Histogram
	a.Record(10)
	b.Record(1_000_000)
	b.Record(5)
	a.Merge(&b)
	require.Equal(t, uint64(3), a.Count())
	require.Equal(t, int64(5), a.Min())
	require.Equal(t, int64(1_000_000), a.Max())
	a.Reset()
	require.Equal(t, uint64(0), a.Count())
	require.Equal(t, int64(0), a.Quantile(0.5))
	require.Panics(t, func() { a.Record(-1) })
}

func TestBucketRangesTile(t *testing.T) {
	// Buckets cover the integers without gaps or overlaps, each at most 1/128 of its values wide.
	prevHi := int64(-1)
	for i := 0; i < 128*40; i++ {
		lo, hi := bucketRange(i)
		require.Equal(t, prevHi+1, lo, "bucket %d", i)
		require.Equal(t, i, bucketOf(lo))
		require.Equal(t, i, bucketOf(hi))
		if lo >= 128 {
			require.LessOrEqual(t, float64(hi-lo+1)/float64(lo), 1.0/128)
		}
		prevHi = hi
	}
}

func TestRNGStreams(t *testing.T) {
	a1, a2 := NewRNG(42, "host.app[0]"), NewRNG(42, "host.app[0]")
	b := NewRNG(42, "host.app[1]")
	c := NewRNG(43, "host.app[0]")
	same, diffName, diffSeed := true, false, false
	for i := 0; i < 100; i++ {
		x := a1.Uint64()
		same = same && x == a2.Uint64()
		diffName = diffName || x != b.Uint64()
		diffSeed = diffSeed || x != c.Uint64()
	}
	require.True(t, same, "same seed and name give the same stream")
	require.True(t, diffName, "another component gets another stream")
	require.True(t, diffSeed, "another seed gives another stream")
}

func TestSampler(t *testing.T) {
	e := NewEngine()
	level := int64(0)
	e.At(15, func() { level = 7 })
	e.At(25, func() { level = 9 })
	s := NewSampler(e, 10)
	ser := s.Track("level", func() int64 { return level })
	e.Run()
	// Samples at 0, 10, 20 (the run ends at 25 when only the sampler's daemon is left).
	require.Equal(t, []Sample{{0, 0}, {10, 0}, {20, 7}}, ser.Samples)
}
