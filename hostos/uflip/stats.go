package uflip

import (
	"math"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// fill sets the latency statistics of st from lats: exact integer min, max and sum; the
// mean and the population standard deviation as float64 picoseconds (report values only).
func (st *RunStats) fill(lats []sim.Time) {
	st.Counted = int64(len(lats))
	st.Mean, st.Min, st.Max, st.StdDev = 0, 0, 0, 0
	if len(lats) == 0 {
		return
	}
	st.Min, st.Max = lats[0], lats[0]
	var sum int64
	exact := true
	var fsum float64
	for _, l := range lats {
		st.Min = min(st.Min, l)
		st.Max = max(st.Max, l)
		if exact && sum > math.MaxInt64-int64(l) {
			exact = false
		}
		sum += int64(l)
		fsum += float64(l)
	}
	n := float64(len(lats))
	if exact {
		st.Mean = float64(sum) / n
	} else {
		st.Mean = fsum / n
	}
	var sq float64
	for _, l := range lats {
		d := float64(l) - st.Mean
		sq += d * d
	}
	st.StdDev = math.Sqrt(sq / n)
}
