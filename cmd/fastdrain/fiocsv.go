package main

import (
	"slices"
	"strconv"

	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/report"
)

// fioCSV is the results as numbers (--format csv, --out's fio.csv): one row per job and
// direction with IOs, as the text table (merged with the first job's group_reporting). It is
// this project's table, not fio's terse format (docs/fio.md): bytes, IOPS and MB/s over the
// job's measured span (MeasureStart to its last completion, as fio.json's bw and iops), the
// latency in µs at the percentiles of fioCSVPercentiles.
func fioCSV(jobs []fio.Job, res []fio.JobResult) *report.Table {
	ps := fioCSVPercentiles(jobs)
	h := []string{"job", "dir", "ios", "io_bytes", "runtime_us", "iops", "mb_per_s"}
	t := &report.Table{Title: "fio jobs", Header: append(h, report.LatencyHeader(ps)...)}
	for _, r := range fioGroups(jobs, res) {
		span := max(r.End-r.MeasureStart, 1)
		secs := span.Seconds()
		for _, d := range fioDirs(&r) {
			row := []string{r.Name, d.name, strconv.FormatInt(d.s.IOs, 10), strconv.FormatInt(d.s.Bytes, 10),
				report.Exact(report.PsToUs(int64(span))), report.Exact(float64(d.s.IOs) / secs), report.Exact(float64(d.s.Bytes) / secs / 1e6)}
			t.Append(append(row, report.LatencyOf(&d.s.Lat, ps).Cells(report.Exact)...)...)
		}
	}
	return t
}

// fioCSVPercentiles are the CSV's percentiles: the jobs' common percentile_list (every
// job's with --percentiles), sorted without repeats, else report.DefaultPercentiles, the
// machine-readable outputs' default.
func fioCSVPercentiles(jobs []fio.Job) report.Percentiles {
	first := jobs[0].Percentiles
	for _, j := range jobs[1:] {
		if !slices.Equal(j.Percentiles, first) {
			return report.DefaultPercentiles
		}
	}
	if first == nil {
		return report.DefaultPercentiles
	}
	ps := slices.Clone(report.Percentiles(first))
	slices.Sort(ps)
	return slices.Compact(ps)
}
