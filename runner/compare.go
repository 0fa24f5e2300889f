package runner

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
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

// The comparison tables of compare: each is built once as a report.ValueTable and rendered
// as the text table and as its CSV file (p99.csv, mean.csv, corunner.csv, energy.csv), the
// unit in each column's name: VARIANT_p99_us, VARIANT_p99_norm, VARIANT_mean_us,
// VARIANT_p99_per_mean, VARIANT_corunner_mb_per_s, VARIANT_ssd_avg_w, VARIANT_ssd_peak_w,
// VARIANT_ssd_j_per_gb_written. A cell with no value (the app or the co-runner did not
// run, no energy account) is "-" in the text and empty in the CSV.

// CellFunc returns the cell of app (in its co-location scenario) under variant.
type CellFunc func(app, variant string) Cell

// P99Table builds the comparison table the paper's Fig. 5 plots: for each latency-critical
// app (in its co-location scenario) the p99 response time under each variant, and each
// variant's p99 normalized to the first variant's; the numbers add each app's scenario.
func P99Table(title string, appNames []string, variants []string, cell CellFunc) *report.ValueTable {
	t := &report.ValueTable{Title: title, NumTitle: "p99 response time per variant",
		Columns: []report.Column{{Text: "app", Name: "app"}, {Name: "scenario"}}}
	for _, v := range variants {
		t.Columns = append(t.Columns, report.Column{Text: v + " p99", Name: v + "_p99_us"})
	}
	for _, v := range variants[1:] {
		t.Columns = append(t.Columns, report.Column{Text: v + "/" + variants[0], Name: v + "_p99_norm"})
	}
	for _, a := range appNames {
		row := []report.Cell{report.Label(a), report.Label(cell(a, variants[0]).Scenario)}
		var ps []int64
		for _, v := range variants {
			p := cell(a, v).P99(a)
			ps = append(ps, p)
			row = append(row, optCell(p >= 0, float64(p)/float64(sim.Microsecond), report.Duration(sim.Time(p))))
		}
		for i := range variants[1:] {
			r := float64(ps[i+1]) / float64(ps[0])
			row = append(row, optCell(ps[0] > 0 && ps[i+1] >= 0, r, fmt.Sprintf("%.2f", r)))
		}
		t.AddRow(row...)
	}
	return t
}

// optCell is a number cell when ok, else an empty one.
func optCell(ok bool, v float64, text string) report.Cell {
	if !ok {
		return report.None()
	}
	return report.Num(v, text)
}

// MeanTable lists the mean response time per app and variant, and p99 over the mean (the
// mean taken as at least 1 ps).
func MeanTable(appNames, variants []string, cell CellFunc) *report.ValueTable {
	t := &report.ValueTable{Title: "mean response time and p99/mean per variant", Columns: []report.Column{{Text: "app", Name: "app"}}}
	for _, v := range variants {
		t.Columns = append(t.Columns, report.Column{Text: v + " mean", Name: v + "_mean_us"},
			report.Column{Text: v + " p99/mean", Name: v + "_p99_per_mean"})
	}
	for _, a := range appNames {
		row := []report.Cell{report.Label(a)}
		for _, v := range variants {
			r := cell(a, v).Result.App(a)
			m := r.Latency.Mean()
			q := float64(r.Latency.Quantile(0.99)) / max(m, 1)
			row = append(row, report.Num(m/float64(sim.Microsecond), report.Duration(sim.Time(int64(m)))),
				report.Num(q, fmt.Sprintf("%.1f", q)))
		}
		t.AddRow(row...)
	}
	return t
}

// CorunnerTable lists the write throughput of Ungzip, the co-runner, in each app's scenario
// under each variant (10⁶ B/s). Ungzip is closed-loop (it waits for its input reads and for
// balance_dirty_pages), so a variant that drains faster lets it write more, and that extra
// write-back is load the latency-critical app sees: p99s are comparable only with this in view.
func CorunnerTable(appNames, variants []string, cell CellFunc) *report.ValueTable {
	t := &report.ValueTable{Title: "co-runner (ungzip) write throughput per variant, MB/s",
		NumTitle: "co-runner (ungzip) write throughput per variant", Columns: []report.Column{{Text: "scenario", Name: "scenario"}}}
	for _, v := range variants {
		t.Columns = append(t.Columns, report.Column{Text: v, Name: v + "_corunner_mb_per_s"})
	}
	for _, a := range appNames {
		row := []report.Cell{report.Label(cell(a, variants[0]).Scenario)}
		for _, v := range variants {
			r := cell(a, v).Result
			ok := r != nil && r.App(apps.Ungzip) != nil
			var mbps float64
			if ok {
				mbps = r.Throughput(apps.Ungzip)
			}
			row = append(row, optCell(ok, mbps, fmt.Sprintf("%.1f", mbps)))
		}
		t.AddRow(row...)
	}
	return t
}

// EnergyTable lists the SSD's average power, its highest power over the last peak window
// (10 ms by default) and its energy per GB the host wrote, in each app's scenario under each
// variant (docs/energy.md): what a variant's latency costs in watts.
func EnergyTable(appNames, variants []string, cell CellFunc) *report.ValueTable {
	t := &report.ValueTable{Title: "SSD average power, peak power and energy per GB written per variant",
		Columns: []report.Column{{Text: "scenario", Name: "scenario"}}}
	for _, v := range variants {
		t.Columns = append(t.Columns, report.Column{Text: v + " W", Name: v + "_ssd_avg_w"},
			report.Column{Text: v + " peak W", Name: v + "_ssd_peak_w"}, report.Column{Text: v + " J/GB", Name: v + "_ssd_j_per_gb_written"})
	}
	for _, a := range appNames {
		row := []report.Cell{report.Label(cell(a, variants[0]).Scenario)}
		for _, v := range variants {
			r := cell(a, v).Result
			if r == nil || r.Energy == nil {
				row = append(row, report.None(), report.None(), report.None())
				continue
			}
			e := r.Energy
			n := len(e.Peaks)
			var peak float64
			if n > 0 {
				peak = e.Peaks[n-1].Watts
			}
			avg, jgb := e.AveragePower(), e.PerGBWritten()
			row = append(row, report.Num(avg, fmt.Sprintf("%.2f", avg)), optCell(n > 0, peak, fmt.Sprintf("%.2f", peak)),
				report.Num(jgb, fmt.Sprintf("%.1f", jgb)))
		}
		t.AddRow(row...)
	}
	return t
}
