package fiorun

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Table is the text table of the results, merged when the first job has group_reporting.
func (r *Result) Table() *report.Table {
	ps := commonPercentiles(r.Jobs, defaultText)
	h := append([]string{"job", "dir", "IOs", "IOPS", "MB/s", "mean"}, ps.Labels()...)
	t := &report.Table{Title: "fio jobs", Header: append(h, "max")}
	for _, g := range fio.Groups(r.Jobs, r.Results) {
		secs := max(g.End-g.MeasureStart, 1).Seconds()
		for _, d := range dirs(&g) {
			h := &d.s.Lat
			row := []string{g.Name, d.name, fmt.Sprint(d.s.IOs), fmt.Sprintf("%.0f", float64(d.s.IOs)/secs),
				fmt.Sprintf("%.1f", float64(d.s.Bytes)/secs/1e6), report.Duration(sim.Time(int64(h.Mean())))}
			for _, v := range ps.Quantiles(h) {
				row = append(row, report.Duration(sim.Time(v)))
			}
			t.Append(append(row, report.Duration(sim.Time(h.Max())))...)
		}
	}
	return t
}

// CSV is the results as numbers (--format csv, --out's fio.csv): one row per job and
// direction with IOs, as the text table (merged with the first job's group_reporting). It is
// this project's table, not fio's terse format (docs/fio.md): bytes, IOPS and MB/s over the
// job's measured span (MeasureStart to its last completion, as fio.json's bw and iops), the
// latency in µs at the jobs' common percentile_list, else report.DefaultPercentiles.
func (r *Result) CSV() *report.Table {
	ps := commonPercentiles(r.Jobs, report.DefaultPercentiles)
	h := []string{"job", "dir", "ios", "io_bytes", "runtime_us", "iops", "mb_per_s"}
	t := &report.Table{Title: "fio jobs", Header: append(h, report.LatencyHeader(ps)...)}
	x := report.Exact
	for _, g := range fio.Groups(r.Jobs, r.Results) {
		span := max(g.End-g.MeasureStart, 1)
		secs := span.Seconds()
		for _, d := range dirs(&g) {
			row := []string{g.Name, d.name, strconv.FormatInt(d.s.IOs, 10), strconv.FormatInt(d.s.Bytes, 10),
				x(report.PsToUs(int64(span))), x(float64(d.s.IOs) / secs), x(float64(d.s.Bytes) / secs / 1e6)}
			t.Append(append(row, report.LatencyOf(&d.s.Lat, ps).Cells(x)...)...)
		}
	}
	return t
}

// dir is one direction's statistics of a job's result.
type dir struct {
	name string
	s    *fio.DirStats
}

// dirs returns the directions of r that did any I/O: read, write, trim, flush in that order.
func dirs(r *fio.JobResult) []dir {
	var ds []dir
	for _, d := range [...]dir{{"read", &r.Read}, {"write", &r.Write}, {"trim", &r.Trim}, {"flush", &r.Flush}} {
		if d.s.IOs > 0 {
			ds = append(ds, d)
		}
	}
	return ds
}

// commonPercentiles are a table's percentiles: the jobs' percentile_list when every job has
// the same one (--percentiles sets them all), sorted without repeats (percentile_list keeps
// fio's order and repeats; a table's columns are sorted), else def.
func commonPercentiles(jobs []fio.Job, def report.Percentiles) report.Percentiles {
	first := jobs[0].Percentiles
	for _, j := range jobs[1:] {
		if !slices.Equal(j.Percentiles, first) {
			return def
		}
	}
	if first == nil {
		return def
	}
	ps := slices.Clone(report.Percentiles(first))
	slices.Sort(ps)
	return slices.Compact(ps)
}

// defaultText are the text table's percentiles without a common percentile_list.
var defaultText = report.Percentiles{50, 99}
