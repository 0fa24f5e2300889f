package runner

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Cell is one (scenario, variant) result of a comparison.
type Cell struct {
	Scenario string
	Variant  string
	Result   *Result
}

// P99 returns the p99 response time (ps) of app in the cell, or -1 if it did not run.
func (c Cell) P99(app string) int64 {
	if c.Result == nil {
		return -1
	}
	a := c.Result.App(app)
	if a == nil || a.Latency.Count() == 0 {
		return -1
	}
	return a.Latency.Quantile(0.99)
}

// P99Table builds the comparison table the paper's Fig. 5 plots: for each latency-critical
// app (in its co-location scenario) the p99 response time under each variant, and each
// variant's p99 normalized to the first variant's.
func P99Table(title string, apps []string, variants []string, cell func(app, variant string) Cell) *report.Table {
	h := []string{"app"}
	for _, v := range variants {
		h = append(h, v+" p99")
	}
	for _, v := range variants[1:] {
		h = append(h, v+"/"+variants[0])
	}
	t := &report.Table{Title: title, Header: h}
	for _, a := range apps {
		row := []string{a}
		var ps []int64
		for _, v := range variants {
			p := cell(a, v).P99(a)
			ps = append(ps, p)
			if p < 0 {
				row = append(row, "-")
			} else {
				row = append(row, report.Duration(sim.Time(p)))
			}
		}
		for i := range variants[1:] {
			if ps[0] <= 0 || ps[i+1] < 0 {
				row = append(row, "-")
			} else {
				row = append(row, fmt.Sprintf("%.2f", float64(ps[i+1])/float64(ps[0])))
			}
		}
		t.Append(row...)
	}
	return t
}
