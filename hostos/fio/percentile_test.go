package fio

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestClatPercentilesByHand: 1,000 latencies of 1, 2, … 1000 ns (i·1000 ps) and
// percentile_list 50:99.9:99.99. A percentile p is the sample at rank ⌈p/100 · 1000⌉,
// reported at its histogram bucket's midpoint (values in [128·2^e, 256·2^e) ps fall in
// buckets 2^e wide) and rounded to ns:
//   - 50 → rank 500 → 500,000 ps; 2^11-wide buckets: [499,712, 501,759], midpoint
//     499,712 + 2047/2 = 500,735 ps → 501 ns.
//   - 99.9 → rank 999 (the decimal 0.999, not the quotient 99.9/100 = 0.9990000000000001,
//     which would ask rank 1,000) → 999,000 ps; 2^12-wide buckets: [995,328, 999,423],
//     midpoint 995,328 + 4095/2 = 997,375 ps → 997 ns.
//   - 99.99 → rank ⌈999.9⌉ = 1,000 → the bucket of 1,000,000 ps, [999,424, 1,003,519],
//     midpoint 1,001,471, clamped to the maximum 1,000,000 ps → 1000 ns.
//
// fio writes the keys as "%f" ("99.900000") in the list's order.
func TestClatPercentilesByHand(t *testing.T) {
	var d DirStats
	for i := int64(1); i <= 1000; i++ {
		d.Lat.Record(i * 1000)
		d.IOs++
	}
	l := latNs(&d, []float64{50, 99.9, 99.99})
	b, err := json.Marshal(l.Percentile)
	require.NoError(t, err)
	require.Equal(t, `{"50.000000":501,"99.900000":997,"99.990000":1000}`, string(b))
}
