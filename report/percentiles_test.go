package report

import (
	"encoding/json"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestParsePercentiles(t *testing.T) {
	ps, err := ParsePercentiles("99.9, 50,90,99,99.99,99.999,50")
	require.NoError(t, err)
	require.Equal(t, Percentiles{50, 90, 99, 99.9, 99.99, 99.999}, ps, "sorted for the user, the repeated 50 dropped")
	for in, want := range map[string]string{
		"0":          `"0" is not a percentile strictly between 0 and 100`,
		"100":        `"100" is not a percentile strictly between 0 and 100`,
		"-5":         `"-5" is not a percentile`,
		"abc":        `"abc" is not a number`,
		"NaN":        `"NaN" is not a number`,
		"50,,90":     "has an empty entry",
		"99.9999999": `"99.9999999" has more than 6 decimals`,
	} {
		_, err := ParsePercentiles(in)
		require.ErrorContains(t, err, want, in)
	}
}

func TestPercentileKeysAndLabels(t *testing.T) {
	// The existing names stay (p50_us, p999_us, p9999_us); the integer part always has
	// two digits, so 9.95 and 99.5 do not meet in one name.
	ps := Percentiles{5, 9.95, 50, 99, 99.5, 99.9, 99.99, 99.999}
	require.Equal(t, []string{"p05_us", "p0995_us", "p50_us", "p99_us", "p995_us", "p999_us", "p9999_us", "p99999_us"}, ps.Keys("_us"))
	require.Equal(t, []string{"p5", "p9.95", "p50", "p99", "p99.5", "p99.9", "p99.99", "p99.999"}, ps.Labels())
}

// TestFraction: the quantile of a percentile is the double nearest the decimal p/100,
// not the floating-point quotient (99.9/100 is one unit above 0.999).
func TestFraction(t *testing.T) {
	require.Equal(t, 0.999, Fraction(99.9))
	p := 99.9 // a variable: Go's constant arithmetic is exact
	require.NotEqual(t, 0.999, p/100, "the quotient this guards against")
	require.Equal(t, 0.5, Fraction(50))
	require.Equal(t, 0.05, Fraction(5))
	require.Equal(t, 0.0995, Fraction(9.95))
	require.Equal(t, 0.99999, Fraction(99.999))
	require.Equal(t, 0.001, Fraction(0.1))
}

// TestQuantilesByHand: 1,000 samples of 1 … 1000 ps. Histogram.Quantile returns the bucket
// (midpoint) of the sample at rank ⌈q·n⌉. Values below 128 have a bucket each, so
// p5 → rank 50 → 50 ps and p12.5 → rank 125 → 125 ps exactly. Above, buckets are 2^e wide
// for values in [128·2^e, 256·2^e): p50 → rank 500 → 500 is in [256, 512), width 2, bucket
// [500, 501], midpoint 500; p99.9 → rank 999 (not 1,000: see TestFraction) → 999 is in
// [512, 1024), width 4, bucket [996, 999], midpoint 996 + 3/2 = 997 (integer halving);
// p99.99 → rank ⌈999.9⌉ = 1,000 → bucket [1000, 1003], midpoint 1001, clamped to the
// maximum 1000.
func TestQuantilesByHand(t *testing.T) {
	var h sim.Histogram
	for v := int64(1); v <= 1000; v++ {
		h.Record(v)
	}
	got := Percentiles{5, 12.5, 50, 99.9, 99.99}.Quantiles(&h)
	require.Equal(t, []int64{50, 125, 500, 997, 1000}, got)
}

func TestFieldsKeepOrder(t *testing.T) {
	b, err := json.Marshal(Fields{{"mean_us", 1.5}, {"p999_us", 2}, {"max_us", 3}})
	require.NoError(t, err)
	require.Equal(t, `{"mean_us":1.5,"p999_us":2,"max_us":3}`, string(b))
}

func TestParsePercentileKey(t *testing.T) {
	for _, p := range []float64{5, 9.95, 50, 99, 99.5, 99.9, 99.99, 99.999, 0.1} {
		got, ok := ParsePercentileKey(PercentileKey(p))
		require.True(t, ok, p)
		require.Equal(t, p, got)
	}
	for _, k := range []string{"p", "p9", "mean", "p99x", "p00", "p990"} {
		_, ok := ParsePercentileKey(k)
		require.False(t, ok, k)
	}
}
