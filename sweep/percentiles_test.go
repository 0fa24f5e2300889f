package sweep

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestLatencyMetricsByHand(t *testing.T) {
	// 1,000 samples: 990 of 10 ps, 9 of 20 ps, 1 of 40 ps (values below 128 ps have a
	// histogram bucket each, so every quantile is exact). Nearest rank ⌈p/100 · 1000⌉:
	//   p50    → rank 500  → 10 ps
	//   p99    → rank 990  → 10 ps (the 990th is the last 10)
	//   p99.9  → rank 999  → 20 ps (not rank ⌈999.0000000000001⌉ = 1000, which 99.9/100
	//            in floating point would ask for: report.Fraction)
	//   p99.99 → rank ⌈999.9⌉ = 1000 → 40 ps
	// mean = (990·10 + 9·20 + 40) / 1000 = 10120 / 1000 = 10.12 ps. Columns are in µs (÷ 10⁶).
	h := &sim.Histogram{Name: "x"}
	for range 990 {
		h.Record(10)
	}
	for range 9 {
		h.Record(20)
	}
	h.Record(40)
	got := latencyMetrics(h, report.Percentiles{50, 99, 99.9, 99.99})
	want := []float64{10.12e-6, 10e-6, 10e-6, 20e-6, 40e-6}
	require.Len(t, got, len(want))
	for i := range want {
		require.InDelta(t, want[i], got[i], 1e-15, "column %d", i)
	}
}

func TestColumnsFollowPercentiles(t *testing.T) {
	s := tinyBench()
	require.Equal(t, []string{"iops", "mb_per_s", "elapsed_us", "read_ops", "read_mean_us", "read_p99_us"}, s.Columns()[:6],
		"without --percentiles: the columns sweeps have always had")
	s.Percentiles = report.Percentiles{5, 99.99}
	require.Equal(t, []string{"read_ops", "read_mean_us", "read_p05_us", "read_p9999_us", "program_ops"}, s.Columns()[3:8])
	r := Spec{Kind: KindRun, Run: &RunParams{Scenario: "apache-u", Duration: sim.Second}, Percentiles: report.Percentiles{90}}
	require.Equal(t, []string{"apache-u.requests", "apache-u.mean_us", "apache-u.p90_us", "waf"}, r.Columns()[:4])
}

func TestSpecValidatePercentiles(t *testing.T) {
	s := tinyBench()
	for _, bad := range []report.Percentiles{{99, 50}, {50, 50}, {0}, {100}, {99.1234567}} {
		s.Percentiles = bad
		require.ErrorContains(t, s.Validate(), "percentiles: ", "%v", bad)
	}
	s.Percentiles = report.Percentiles{50, 99.9}
	require.NoError(t, s.Validate())
}
