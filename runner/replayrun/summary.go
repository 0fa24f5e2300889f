package replayrun

import (
	"encoding/json"
	"io"
	"strconv"

	"github.com/fastdrain-sim/fastdrain/hostos/replay"
	"github.com/fastdrain-sim/fastdrain/hostos/trace"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Summary is replay's result as numbers, units in the field names: what --format
// json prints and replay.json holds.
type Summary struct {
	Format      string `json:"format"` // "fastdrain-replay/1"
	Trace       string `json:"trace"`
	TraceFormat string `json:"trace_format"`
	Lines       int64  `json:"lines"`
	Requests    int64  `json:"requests"`
	Replayed    int64  `json:"replayed"`
	Skipped     int64  `json:"skipped"`
	Rounded     int64  `json:"rounded"`
	Wrapped     int64  `json:"wrapped"`
	// BlockBytes is the size requests are rounded out to; CapacityBytes the device's.
	BlockBytes    int64   `json:"block_bytes"`
	CapacityBytes int64   `json:"capacity_bytes"`
	ElapsedUs     float64 `json:"elapsed_us"`
	IOPS          float64 `json:"iops"`
	Late          int64   `json:"late"`
	PeakInFlight  int     `json:"peak_in_flight"`
	DeviceErrors  int64   `json:"device_errors"`
	// UnwrittenReadPages counts read pages that had never been written (answered without
	// touching flash); a warning names them when they are over 1 % of the pages read.
	UnwrittenReadPages int64   `json:"unwritten_read_pages"`
	Ops                []OpSum `json:"ops"`
	// Devices is the replay per trace device (MSR's disk, SPC's ASU, blkparse's device),
	// ascending, with one "all" entry last.
	Devices []DevSum `json:"devices"`
	// Stats are the simulated SSD's and host's statistics at the end of the replay, named
	// and valued as run's stats.csv (runner.Result.StatValues).
	Stats []runner.StatValue `json:"ssd_stats"`
	// Unfinished counts the requests in flight at a power cut (firmware.power_loss.cut_at),
	// which never completed; PowerLoss is what the cut did and what recovery found
	// (runner.Result.PowerLossTable). Both absent without a cut.
	Unfinished int64         `json:"unfinished,omitempty"`
	PowerLoss  *report.Table `json:"power_loss,omitempty"`
	// statsTable is the same for people (run's statistics table).
	statsTable *report.Table
	pcts       report.Percentiles
}

// OpSum is one operation kind's (read, write, trim, flush; "all" for every one).
type OpSum struct {
	Op       string `json:"op"`
	Requests int64  `json:"requests"`
	// BytesAsked is what the trace asked for; BytesMoved what the device moved after
	// rounding out to BlockBytes (0 asked for trims and flushes).
	BytesAsked       int64   `json:"bytes_asked"`
	BytesMoved       int64   `json:"bytes_moved"`
	IOPS             float64 `json:"iops"`
	MBps             float64 `json:"mb_per_s"` // BytesMoved per simulated second, 10⁶ B
	report.LatencyUs `json:"-"`
}

// MarshalJSON writes the members in order, the percentiles named after the list.
func (o OpSum) MarshalJSON() ([]byte, error) {
	f := report.Fields{{Key: "op", Value: o.Op}, {Key: "requests", Value: o.Requests}, {Key: "bytes_asked", Value: o.BytesAsked},
		{Key: "bytes_moved", Value: o.BytesMoved}, {Key: "iops", Value: o.IOPS}, {Key: "mb_per_s", Value: o.MBps}}
	return append(f, o.LatencyUs.Fields()...).MarshalJSON()
}

// UnmarshalJSON reads an entry MarshalJSON wrote.
func (o *OpSum) UnmarshalJSON(b []byte) error {
	type tagged OpSum // the tagged members, without this method
	*o = OpSum{}
	return report.DecodeWithLatency(b, (*tagged)(o), &o.LatencyUs)
}

// DevSum is one trace device's requests ("all" for the whole trace).
type DevSum struct {
	Device           string     `json:"device"` // the trace's device number, or "all"
	Requests         int64      `json:"requests"`
	Reads            int64      `json:"reads"`
	Writes           int64      `json:"writes"`
	BytesMoved       int64      `json:"bytes_moved"` // after rounding out to BlockBytes
	IOPS             float64    `json:"iops"`
	MBps             float64    `json:"mb_per_s"` // BytesMoved per simulated second of the whole replay, 10⁶ B
	report.LatencyUs `json:"-"` // every operation of the device
}

// MarshalJSON writes the members in order, the percentiles named after the list.
func (d DevSum) MarshalJSON() ([]byte, error) {
	f := report.Fields{{Key: "device", Value: d.Device}, {Key: "requests", Value: d.Requests}, {Key: "reads", Value: d.Reads},
		{Key: "writes", Value: d.Writes}, {Key: "bytes_moved", Value: d.BytesMoved}, {Key: "iops", Value: d.IOPS},
		{Key: "mb_per_s", Value: d.MBps}}
	return append(f, d.LatencyUs.Fields()...).MarshalJSON()
}

// UnmarshalJSON reads an entry MarshalJSON wrote.
func (d *DevSum) UnmarshalJSON(b []byte) error {
	type tagged DevSum // the tagged members, without this method
	*d = DevSum{}
	return report.DecodeWithLatency(b, (*tagged)(d), &d.LatencyUs)
}

// newSummary computes the summary at the percentiles ps (nil: the default) with the
// machine's statistics st. IOPS and MB/s are over the replay's span, from its start to the
// last completion, for every operation and every device alike.
func newSummary(path string, format trace.Format, fit trace.Options, st trace.Stats, res *replay.Result,
	ps report.Percentiles, stats *runner.Result) *Summary {
	span := (res.LastCompletion - res.Start).Seconds()
	per := func(n float64) float64 {
		if span <= 0 {
			return 0
		}
		return n / span
	}
	s := &Summary{Format: "fastdrain-replay/1", Trace: path, TraceFormat: format.String(), Lines: st.Lines,
		Requests: st.Requests, Replayed: res.Requests, Skipped: st.Skipped, Rounded: st.Rounded, Wrapped: st.Wrapped,
		BlockBytes: fit.SectorSize, CapacityBytes: fit.Capacity, ElapsedUs: report.PsToUs(int64(res.LastCompletion - res.Start)),
		IOPS: per(float64(res.Requests)), Late: res.Late, PeakInFlight: res.Peak, DeviceErrors: res.Errors,
		Stats: stats.StatValues(), statsTable: stats.StatsTable(), pcts: ps, Unfinished: res.Unfinished, PowerLoss: stats.PowerLossTable()}
	asked := map[trace.Op]int64{trace.Read: st.ReadBytesAsked, trace.Write: st.WriteBytesAsked}
	add := func(name string, n, askedB, moved int64, h *sim.Histogram) {
		s.Ops = append(s.Ops, OpSum{Op: name, Requests: n, BytesAsked: askedB, BytesMoved: moved,
			IOPS: per(float64(n)), MBps: per(float64(moved)) / 1e6, LatencyUs: report.LatencyOf(h, ps)})
	}
	var allAsked, allMoved int64
	for op := 0; op < len(res.Count); op++ {
		if res.Count[op] == 0 {
			continue
		}
		a := asked[trace.Op(op)]
		if st.Requests != res.Requests { // --max cut the replay short: the trace's bytes are not the replay's
			a = res.Bytes[op]
		}
		add(trace.Op(op).String(), res.Count[op], a, res.Bytes[op], &res.Latency[op])
		allAsked += a
		allMoved += res.Bytes[op]
	}
	total := res.Total()
	add("all", res.Requests, allAsked, allMoved, total)
	dev := func(name string, n, reads, writes, moved int64, h *sim.Histogram) {
		s.Devices = append(s.Devices, DevSum{Device: name, Requests: n, Reads: reads, Writes: writes, BytesMoved: moved,
			IOPS: per(float64(n)), MBps: per(float64(moved)) / 1e6, LatencyUs: report.LatencyOf(h, ps)})
	}
	for i := range res.Devices {
		d := &res.Devices[i]
		var moved int64
		for _, b := range d.Bytes {
			moved += b
		}
		dev(strconv.Itoa(d.Device), d.Requests(), d.Count[trace.Read], d.Count[trace.Write], moved, &d.Latency)
	}
	dev("all", res.Requests, res.Count[trace.Read], res.Count[trace.Write], allMoved, total)
	return s
}

// num formats a table cell with one decimal (µs, MB, MB/s, IOPS).
func num(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// Table is the summary's per-operation table.
func (s *Summary) Table() *report.Table {
	h := append([]string{"op", "requests", "iops", "asked_mb", "moved_mb", "mb_per_s"}, report.LatencyHeader(s.pcts)...)
	t := &report.Table{Title: "replay: per operation (MB = 10⁶ B; asked = as in the trace, moved = rounded out to " +
		strconv.FormatInt(s.BlockBytes, 10) + " B blocks)", Header: h}
	f := num
	for _, o := range s.Ops {
		row := []string{o.Op, strconv.FormatInt(o.Requests, 10), f(o.IOPS), f(float64(o.BytesAsked) / 1e6), f(float64(o.BytesMoved) / 1e6),
			f(o.MBps)}
		t.Append(append(row, o.LatencyUs.Cells(f)...)...)
	}
	return t
}

// DeviceTable is the summary's per-device table (replay-devices.csv).
func (s *Summary) DeviceTable() *report.Table {
	h := append([]string{"device", "requests", "reads", "writes", "iops", "moved_mb", "mb_per_s"}, report.LatencyHeader(s.pcts)...)
	t := &report.Table{Title: "replay: per trace device (moved MB = 10⁶ B after rounding; IOPS and MB/s over the whole replay)", Header: h}
	f := num
	for _, d := range s.Devices {
		row := []string{d.Device, strconv.FormatInt(d.Requests, 10), strconv.FormatInt(d.Reads, 10), strconv.FormatInt(d.Writes, 10),
			f(d.IOPS), f(float64(d.BytesMoved) / 1e6), f(d.MBps)}
		t.Append(append(row, d.LatencyUs.Cells(f)...)...)
	}
	return t
}

// StatsCSV is the SSD's statistics as run's stats.csv (replay-stats.csv).
func (s *Summary) StatsCSV() *report.Table {
	t := &report.Table{Title: "SSD statistics", Header: []string{"statistic", "value"}}
	for _, v := range s.Stats {
		t.Append(v.Name, report.Exact(v.Value))
	}
	return t
}

// WriteJSON writes the summary as indented JSON.
func (s *Summary) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
