package energy

import (
	"unsafe"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// TraceBytes returns the memory a meter of spec takes for its power trace over d of
// simulated time: a Bucket per Resolution, appended one at a time (the arrays the trace
// outgrew included: sim.AppendAllBytes), and a Reading of every row per bucket, of which
// the meter keeps the last (Meter.bucket; the rest are garbage a collection frees).
func TraceBytes(spec Spec, d sim.Time) int64 {
	if spec.Resolution <= 0 || d <= 0 {
		return 0
	}
	n := int64(d / spec.Resolution)
	return sim.AppendAllBytes(n, int64(unsafe.Sizeof(Bucket{}))) + n*int64(len(rows))*8
}
