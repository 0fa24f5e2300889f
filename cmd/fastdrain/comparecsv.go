package main

import (
	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// compare's p99.csv, mean.csv, corunner.csv and energy.csv: the text tables' values as
// numbers, one row per application (or its scenario) and a column per variant and quantity,
// the unit in the column name: VARIANT_p99_us, VARIANT_p99_norm, VARIANT_mean_us,
// VARIANT_p99_per_mean, VARIANT_corunner_mb_per_s, VARIANT_ssd_avg_w, VARIANT_ssd_peak_w,
// VARIANT_ssd_j_per_gb_written. A cell the text table shows as "-" (the app or the
// co-runner did not run, no energy account) is empty.

// optNum formats v exactly, or "" when ok is false.
func optNum(v float64, ok bool) string {
	if !ok {
		return ""
	}
	return exact(v)
}

// p99CSV is p99.csv: per app its scenario, the p99 under each variant (µs) and each
// non-baseline variant's p99 over the baseline's.
func p99CSV(appsRun, variants []string, cell func(app, v string) runner.Cell) *report.Table {
	h := []string{"app", "scenario"}
	for _, v := range variants {
		h = append(h, v+"_p99_us")
	}
	for _, v := range variants[1:] {
		h = append(h, v+"_p99_norm")
	}
	t := &report.Table{Title: "p99 response time per variant", Header: h}
	for _, a := range appsRun {
		row := []string{a, cell(a, variants[0]).Scenario}
		var ps []int64
		for _, v := range variants {
			p := cell(a, v).P99(a)
			ps = append(ps, p)
			row = append(row, optNum(psToUs(p), p >= 0))
		}
		for i := range variants[1:] {
			row = append(row, optNum(float64(ps[i+1])/float64(ps[0]), ps[0] > 0 && ps[i+1] >= 0))
		}
		t.Append(row...)
	}
	return t
}

// meanCSV is mean.csv: per app the mean response time under each variant (µs) and p99
// over the mean (as meanTable: the mean taken as at least 1 ps).
func meanCSV(appsRun, variants []string, cell func(app, v string) runner.Cell) *report.Table {
	h := []string{"app"}
	for _, v := range variants {
		h = append(h, v+"_mean_us", v+"_p99_per_mean")
	}
	t := &report.Table{Title: "mean response time and p99/mean per variant", Header: h}
	for _, a := range appsRun {
		row := []string{a}
		for _, v := range variants {
			r := cell(a, v).Result.App(a)
			m := r.Latency.Mean()
			row = append(row, exact(m/float64(sim.Microsecond)), exact(float64(r.Latency.Quantile(0.99))/max(m, 1)))
		}
		t.Append(row...)
	}
	return t
}

// corunnerCSV is corunner.csv: per app's scenario Ungzip's write throughput under each
// variant (10⁶ B/s).
func corunnerCSV(appsRun, variants []string, cell func(app, v string) runner.Cell) *report.Table {
	h := []string{"scenario"}
	for _, v := range variants {
		h = append(h, v+"_corunner_mb_per_s")
	}
	t := &report.Table{Title: "co-runner (ungzip) write throughput per variant", Header: h}
	for _, a := range appsRun {
		row := []string{cell(a, variants[0]).Scenario}
		for _, v := range variants {
			r := cell(a, v).Result
			ok := r != nil && r.App(apps.Ungzip) != nil
			var mbps float64
			if ok {
				mbps = r.Throughput(apps.Ungzip)
			}
			row = append(row, optNum(mbps, ok))
		}
		t.Append(row...)
	}
	return t
}

// energyCSV is energy.csv: per app's scenario the SSD's average power, its highest power
// over the last peak window (W) and its energy per GB written (J/GB) under each variant.
func energyCSV(appsRun, variants []string, cell func(app, v string) runner.Cell) *report.Table {
	h := []string{"scenario"}
	for _, v := range variants {
		h = append(h, v+"_ssd_avg_w", v+"_ssd_peak_w", v+"_ssd_j_per_gb_written")
	}
	t := &report.Table{Title: "SSD average power, peak power and energy per GB written per variant", Header: h}
	for _, a := range appsRun {
		row := []string{cell(a, variants[0]).Scenario}
		for _, v := range variants {
			r := cell(a, v).Result
			if r == nil || r.Energy == nil {
				row = append(row, "", "", "")
				continue
			}
			e := r.Energy
			n := len(e.Peaks)
			var peak float64
			if n > 0 {
				peak = e.Peaks[n-1].Watts
			}
			row = append(row, exact(e.AveragePower()), optNum(peak, n > 0), exact(e.PerGBWritten()))
		}
		t.Append(row...)
	}
	return t
}
