package replay

import (
	"cmp"
	"slices"
	"strconv"

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

	// Unfinished counts the requests in flight when the replay was stopped (Replay.Stop: the
	// device lost power); they never completed and are in no other count.
	Unfinished int64

	Late     int64         // Timed: requests issued after their trace time
	Lateness sim.Histogram // Timed: how late they were issued
	Peak     int           // most requests in flight at once

	// Devices splits the completed requests by the trace's device (trace.Request.Device:
	// MSR's disk number, SPC's ASU, blkparse's device in order of appearance; all 0 when
	// the trace has one or its devices were merged), in ascending device order once the
	// replay has finished.
	Devices []DeviceResult
	devIdx  map[int]int // device → index in Devices
	lastDev int         // index of the last device seen (consecutive requests mostly share one)
}

// DeviceResult is the completed requests of one trace device.
type DeviceResult struct {
	Device  int
	Count   [NumOps]int64 // requests completed, per operation
	Bytes   [NumOps]int64 // bytes of the completed requests (rounded out to the device's blocks), per operation
	Latency sim.Histogram // latency of every operation of the device
}

// Requests returns the device's completed requests.
func (d *DeviceResult) Requests() int64 {
	var n int64
	for _, c := range d.Count {
		n += c
	}
	return n
}

// device returns the per-device result of trace device id, adding it on first sight.
func (r *Result) device(id int) *DeviceResult {
	if r.lastDev < len(r.Devices) && r.Devices[r.lastDev].Device == id {
		return &r.Devices[r.lastDev]
	}
	i, ok := r.devIdx[id]
	if !ok {
		if r.devIdx == nil {
			r.devIdx = map[int]int{}
		}
		i = len(r.Devices)
		r.devIdx[id] = i
		r.Devices = append(r.Devices, DeviceResult{Device: id})
		r.Devices[i].Latency.Name = "replay.device[" + strconv.Itoa(id) + "].latency"
	}
	r.lastDev = i
	return &r.Devices[i]
}

// sortDevices puts Devices in ascending device order (at the end of the replay).
func (r *Result) sortDevices() {
	slices.SortFunc(r.Devices, func(a, b DeviceResult) int { return cmp.Compare(a.Device, b.Device) })
	for i := range r.Devices {
		r.devIdx[r.Devices[i].Device] = i
	}
	r.lastDev = 0
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
