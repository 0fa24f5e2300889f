package ufliprun

import (
	"encoding/json"
	"io"
	"strconv"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/report"
)

// docFormat is the version tag of uflip's JSON document (docs/outputs.md).
const docFormat = "fastdrain-uflip/1"

// countsOf returns each run's IOIgnore and IOCount per stream (the automatic rule's
// choice when it ran, else the plan's fixed counts of the run's step) and the parameters
// its repetition ran with (its own targets, uflip.Step.RepRun).
func countsOf(plan *uflip.Plan) func(r *uflip.RunStats) (ignore, count int64, run uflip.Run) {
	byLabel := make(map[string]uflip.Step, len(plan.Steps))
	for _, st := range plan.Steps {
		if st.Kind == uflip.StepRun {
			byLabel[st.Label] = st
		}
	}
	return func(r *uflip.RunStats) (int64, int64, uflip.Run) {
		run := byLabel[r.Label].RepRun(r.Rep)
		if a := r.Auto; a != nil {
			return a.IOIgnore, a.IOCount, run
		}
		return run.IOIgnore, run.IOCount, run
	}
}

// patternFields is one pattern of a run: what calibrate needs to replay it.
func patternFields(p uflip.Pattern) report.Fields {
	return report.Fields{{Key: "base", Value: p.Base.String()}, {Key: "io_size_bytes", Value: p.IOSize},
		{Key: "io_shift_bytes", Value: p.IOShift}, {Key: "target_offset_bytes", Value: p.TargetOffset},
		{Key: "target_size_bytes", Value: p.TargetSize}, {Key: "partitions", Value: p.Partitions}, {Key: "incr", Value: p.Incr}}
}

// runFields is one run of the JSON document, times in µs, with the parameters it ran
// with (pattern, second pattern of a mix or null, ratio, parallel degree, pause, burst, and
// fill: the target was written before the run, uflip.Run.Fill).
func runFields(r *uflip.RunStats, ignore, count int64, run uflip.Run) report.Fields {
	f := report.Fields{{Key: "label", Value: r.Label}, {Key: "bench", Value: r.Bench.String()}, {Key: "point", Value: r.Point},
		{Key: "rep", Value: r.Rep}, {Key: "start_us", Value: report.PsToUs(int64(r.Start))}, {Key: "end_us", Value: report.PsToUs(int64(r.End))},
		{Key: "ios", Value: r.IOs}, {Key: "counted", Value: r.Counted}, {Key: "io_ignore", Value: ignore}, {Key: "io_count", Value: count},
		{Key: "mean_us", Value: r.Mean / 1e6}, {Key: "stdev_us", Value: r.StdDev / 1e6}, {Key: "min_us", Value: report.PsToUs(int64(r.Min))},
		{Key: "max_us", Value: report.PsToUs(int64(r.Max))}, {Key: "auto", Value: r.Auto != nil}}
	var prec, conv any // null with fixed counts
	if a := r.Auto; a != nil {
		prec, conv = a.Precision, a.Converged
	}
	var second any // null for a plain run
	if run.Second != nil {
		second = patternFields(*run.Second)
	}
	return append(f, report.Field{Key: "precision_frac", Value: prec}, report.Field{Key: "converged", Value: conv},
		report.Field{Key: "pattern", Value: patternFields(run.Pattern)}, report.Field{Key: "second", Value: second},
		report.Field{Key: "ratio", Value: run.Ratio}, report.Field{Key: "parallel_degree", Value: max(run.ParallelDegree, 1)},
		report.Field{Key: "pause_us", Value: report.PsToUs(int64(run.Pause))}, report.Field{Key: "burst", Value: run.Burst},
		report.Field{Key: "fill", Value: run.Fill})
}

// findingFields is one finding of the JSON document.
func findingFields(fd uflip.Finding) report.Fields {
	vals := make(report.Fields, len(fd.Values))
	for i, v := range fd.Values {
		vals[i] = report.Field{Key: v.Name, Value: v.Value}
	}
	return report.Fields{{Key: "id", Value: fd.ID}, {Key: "claim", Value: fd.Claim}, {Key: "verdict", Value: fd.Verdict.String()},
		{Key: "held", Value: fd.Verdict == uflip.Held}, {Key: "evaluated", Value: fd.Verdict != uflip.NotEvaluated},
		{Key: "values", Value: vals}, {Key: "evidence", Value: fd.Evidence}, {Key: "mechanism", Value: fd.Mechanism}}
}

// deviceFields is one device of the JSON document: its runs, the firmware's and (for
// a hybrid mapping) the FTL's counters of a simulated device, its statistics as run reports
// them (ssd_stats, runner.Result.StatValues), and its findings.
func deviceFields(d *Device, counts func(*uflip.RunStats) (int64, int64, uflip.Run), findings bool) report.Fields {
	runs := make([]report.Fields, len(d.Runs))
	for i := range d.Runs {
		ig, n, run := counts(&d.Runs[i])
		runs[i] = runFields(&d.Runs[i], ig, n, run)
	}
	f := report.Fields{{Key: "name", Value: d.Name}, {Key: "simulated", Value: d.M != nil}, {Key: "runs", Value: runs}}
	if d.M != nil {
		st := d.M.SSD.FW.Stats
		f = append(f, report.Field{Key: "firmware", Value: report.Fields{{Key: "pages_written", Value: st.WritePages},
			{Key: "writes_stalled", Value: st.Stalls}, {Key: "write_stall_time_us", Value: report.PsToUs(int64(st.StallTime))},
			{Key: "evictions_foreground_pages", Value: st.ForegroundEvictions}, {Key: "evictions_background_pages", Value: st.BackgroundEvictions},
			{Key: "gc_runs", Value: st.GCRuns}, {Key: "gc_pages_moved", Value: st.GCPagesMoved}}})
		if fl := d.M.SSD.FW.FTL(); fl.Hybrid() {
			fs := fl.Stats
			f = append(f, report.Field{Key: "ftl", Value: report.Fields{{Key: "mapping", Value: fl.Config().Mapping},
				{Key: "switch_merges", Value: fs.SwitchMerges}, {Key: "partial_merges", Value: fs.PartialMerges},
				{Key: "full_merges", Value: fs.FullMerges}, {Key: "merge_copies_pages", Value: fs.MergeCopies}, {Key: "erases", Value: fs.Erases}}})
		}
		f = append(f, report.Field{Key: "ssd_stats", Value: d.ssd().StatValues()})
	}
	if d.PowerLoss != nil {
		f = append(f, report.Field{Key: "power_loss", Value: d.powerLossTable()})
	}
	if findings {
		fs := make([]report.Fields, len(d.Findings))
		for i, fd := range d.Findings {
			fs[i] = findingFields(fd)
		}
		f = append(f, report.Field{Key: "findings", Value: fs})
	}
	return f
}

// WriteJSON writes the whole result as one JSON document (uflip.json): the plan's
// settings, every device's runs (and findings with Findings) and the calibration rows
// against the first device.
func (s *Suite) WriteJSON(w io.Writer) error {
	plan, devs := s.Plan, s.Devices
	spec := plan.Spec
	var auto any // null with uFLIP's fixed counts
	if spec.Auto.On() {
		auto = report.Fields{{Key: "rel_err_frac", Value: spec.Auto.RelErr}, {Key: "min_ios", Value: spec.Auto.Min},
			{Key: "min_bytes", Value: spec.Auto.MinBytes}, {Key: "cap_ios", Value: max(spec.IOCount.SR, spec.IOCount.RR, spec.IOCount.SW, spec.IOCount.RW)}}
	}
	counts := countsOf(plan)
	ds := make([]report.Fields, len(devs))
	for i, d := range devs {
		ds[i] = deviceFields(d, counts, s.Findings)
	}
	cal := []report.Fields{}
	for _, d := range devs[1:] {
		for _, r := range uflip.Calibrate(devs[0].Points, d.Points) {
			cal = append(cal, report.Fields{{Key: "device_a", Value: devs[0].Name}, {Key: "device_b", Value: d.Name},
				{Key: "bench", Value: r.Bench.String()}, {Key: "base", Value: r.Base}, {Key: "points", Value: r.Points},
				{Key: "mean_a_us", Value: r.MeanA / 1e6}, {Key: "mean_b_us", Value: r.MeanB / 1e6}, {Key: "a_per_b", Value: r.Ratio}})
		}
	}
	doc := report.Fields{{Key: "format", Value: docFormat}, {Key: "capacity_bytes", Value: plan.Capacity},
		{Key: "io_size_bytes", Value: spec.IOSize}, {Key: "nb_run", Value: spec.NbRun}, {Key: "seed", Value: s.Seed},
		{Key: "run_pause_us", Value: report.PsToUs(int64(spec.RunPause))}, {Key: "settle", Value: spec.Settle.String()},
		{Key: "format_device", Value: spec.Format.String()},
		{Key: "auto", Value: auto}, {Key: "devices", Value: ds}, {Key: "calibration", Value: cal}}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// csvHeader is uflip.csv's header: one row per run of every device, times in µs;
// precision_frac and converged (1 or 0) are empty with fixed counts.
var csvHeader = []string{"device", "bench", "run", "point", "rep", "ios", "counted", "io_ignore", "io_count",
	"mean_us", "stdev_us", "min_us", "max_us", "start_us", "end_us", "precision_frac", "converged"}

// CSV is one row per run of every device, numbers only (the device, bench and run label
// name the row): uflip.csv.
func (s *Suite) CSV() *report.Table {
	t := &report.Table{Title: "uFLIP runs", Header: csvHeader}
	counts := countsOf(s.Plan)
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, d := range s.Devices {
		for i := range d.Runs {
			r := &d.Runs[i]
			ig, n, _ := counts(r)
			prec, conv := "", ""
			if a := r.Auto; a != nil {
				prec, conv = report.Exact(a.Precision), "0"
				if a.Converged {
					conv = "1"
				}
			}
			t.Append(d.Name, r.Bench.String(), r.Label, strconv.Itoa(r.Point), strconv.Itoa(r.Rep), i64(r.IOs), i64(r.Counted),
				i64(ig), i64(n), report.Exact(r.Mean/1e6), report.Exact(r.StdDev/1e6), report.Exact(report.PsToUs(int64(r.Min))), report.Exact(report.PsToUs(int64(r.Max))),
				report.Exact(report.PsToUs(int64(r.Start))), report.Exact(report.PsToUs(int64(r.End))), prec, conv)
		}
	}
	return t
}
