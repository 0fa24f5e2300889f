package main

import "github.com/fastdrain-sim/fastdrain/sim"

// latencyUs is a latency distribution's summary in microseconds, as the JSON outputs of
// compare and replay give it (embedded, so its fields sit beside the others).
type latencyUs struct {
	MeanUs  float64 `json:"mean_us"`
	StdevUs float64 `json:"stdev_us"`
	MinUs   float64 `json:"min_us"`
	P50Us   float64 `json:"p50_us"`
	P90Us   float64 `json:"p90_us"`
	P99Us   float64 `json:"p99_us"`
	P999Us  float64 `json:"p999_us"`
	P9999Us float64 `json:"p9999_us"`
	MaxUs   float64 `json:"max_us"`
}

// latencyOf summarises h (latencies in picoseconds).
func latencyOf(h *sim.Histogram) latencyUs {
	us := func(ps int64) float64 { return float64(ps) / float64(sim.Microsecond) }
	return latencyUs{MeanUs: h.Mean() / float64(sim.Microsecond), StdevUs: h.Stdev() / float64(sim.Microsecond),
		MinUs: us(h.Min()), P50Us: us(h.Quantile(0.5)), P90Us: us(h.Quantile(0.9)), P99Us: us(h.Quantile(0.99)),
		P999Us: us(h.Quantile(0.999)), P9999Us: us(h.Quantile(0.9999)), MaxUs: us(h.Max())}
}
