package fio

import (
	"encoding/json"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestClatPercentilesByHand: 1,000 latencies of 1, 2, … 1000 ns and percentile_list
// 50:99.9:99.99. fio reports a percentile p as the midpoint of the first bin whose
// cumulative count reaches ⌈p/100 · 1000⌉; bins are 1/64 of a power of two wide:
//   - 50 → 500 samples: 500 ns lies in [256, 512), bins 4 ns wide, bin [500, 503] holds
//     samples up to 503 (cumulative 503 ≥ 500, the bin before ends at 499): midpoint
//     500 + 2 = 502.
//   - 99.9 → ⌈999⌉ = 999 (0.999 · 1000, not 999.0000000000001): 999 lies in [512, 1024),
//     bins 8 ns wide, bin [992, 999], midpoint 996.
//   - 99.99 → ⌈999.9⌉ = 1000: bin [1000, 1007], midpoint 1004 (fio's value can pass the
//     maximum: it is the bin's, not a sample's).
//
// fio writes the keys as "%f" ("99.900000") in the list's order.
func TestClatPercentilesByHand(t *testing.T) {
	var d DirStats
	for i := int64(1); i <= 1000; i++ {
		d.record(4096, sim.Time(i)*sim.Nanosecond)
	}
	l := latNs(&d, []float64{50, 99.9, 99.99}, false)
	b, err := json.Marshal(l.Percentile)
	require.NoError(t, err)
	require.Equal(t, `{"50.000000":502,"99.900000":996,"99.990000":1004}`, string(b))
}
