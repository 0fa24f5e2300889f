package runner

import (
	"strconv"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// The result's CSV files hold numbers, the unit in each column's name (docs/outputs.md):
// apps.csv and stats.csv here, utilization.csv as fractions (Result.UtilizationFrac). The
// text tables (AppTable, StatsTable) format the same values for people.

// num formats a number exactly (shortest decimal that reads back the same).
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// AppCSV is apps.csv: per application its requests, rates and latency statistics in µs
// (the percentiles of r.Percentiles, or report.DefaultPercentiles).
func (r *Result) AppCSV() *report.Table {
	ps := r.Percentiles.Or(report.DefaultPercentiles)
	h := append([]string{"app", "requests", "req_per_s", "mb_per_s", "mean_us", "stdev_us", "min_us"}, ps.Keys("_us")...)
	t := &report.Table{Title: "applications (" + r.Label + ")", Header: append(h, "max_us")}
	secs := r.window().Seconds()
	us := func(ps int64) string { return num(float64(ps) / float64(sim.Microsecond)) }
	for _, a := range r.Apps {
		h := a.Latency
		row := []string{a.App, strconv.FormatInt(a.Requests, 10), num(float64(a.Requests) / secs), num(r.Throughput(a.App)),
			num(h.Mean() / float64(sim.Microsecond)), num(h.Stdev() / float64(sim.Microsecond)), us(h.Min())}
		for _, v := range ps.Quantiles(h) {
			row = append(row, us(v))
		}
		t.Append(append(row, us(h.Max()))...)
	}
	return t
}
