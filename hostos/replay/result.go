package replay

import (
	"github.com/fastdrain-sim/fastdrain/hostos/trace"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// NumOps is the number of trace operations; per-operation arrays are indexed by trace.Op
// (Read, Write, Trim, Flush).
const NumOps = int(trace.Flush) + 1

// Result is the outcome of a replay. Latencies are from the bio's submission to its
// completion, in picoseconds.
type Result struct {
	Start          sim.Time // when the replay started
	FirstIssue     sim.Time // submission of the first request
	LastIssue      sim.Time // submission of the last request
	LastCompletion sim.Time // completion of the last request

	Requests  int64                 // requests completed
	Count     [NumOps]int64         // requests completed, per operation
	Bytes     [NumOps]int64         // bytes of the completed requests, per operation
	Latency   [NumOps]sim.Histogram // latency per operation
	Errors    int64                 // requests the device completed with an error
	DeviceErr error                 // the first of those errors

	Late     int64         // Timed: requests issued after their trace time
	Lateness sim.Histogram // Timed: how late they were issued
	Peak     int           // most requests in flight at once
}

// Total returns a new latency histogram of every operation together.
func (r *Result) Total() *sim.Histogram {
	t := &sim.Histogram{Name: "replay.latency"}
	for i := range r.Latency {
		t.Merge(&r.Latency[i])
	}
	return t
}

// init names the histograms.
func (r *Result) init(start sim.Time) {
	r.Start = start
	for op := range NumOps {
		r.Latency[op].Name = "replay." + trace.Op(op).String() + ".latency"
	}
	r.Lateness.Name = "replay.lateness"
}
