package comparerun

import (
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/report"
)

// Summary is compare's summary.json: one cell per latency-critical application and
// variant, every value a number with its unit in the field name (µs, MB/s, W, J/GB,
// fractions), so scripts need no parsing of the text tables.
type Summary struct {
	Format    string        `json:"format"` // "fastdrain-compare/1"
	Preset    string        `json:"preset"`
	Seconds   float64       `json:"duration_s"`
	Baseline  string        `json:"baseline"` // the variant p99_norm is relative to
	Variants  []string      `json:"variants"`
	Scenarios []string      `json:"scenarios"`
	Cells     []SummaryCell `json:"cells"`
	pcts      report.Percentiles
}

// SummaryCell is one application under one variant.
type SummaryCell struct {
	Scenario         string `json:"scenario"`
	App              string `json:"app"`
	Variant          string `json:"variant"`
	Requests         int64  `json:"requests"`
	report.LatencyUs `json:"-"`
	// P99Norm is p99 over the baseline variant's p99 for the same app (0 if either is empty).
	P99Norm float64 `json:"p99_norm"`
	// CorunnerMBps is Ungzip's write throughput in the same run (10⁶ bytes per second).
	CorunnerMBps float64 `json:"corunner_mb_per_s"`
	// SSD power over the measured window and the highest over the last peak window (0 when
	// energy was not measured), and the energy per GB the host wrote.
	AvgW  float64 `json:"ssd_avg_w"`
	PeakW float64 `json:"ssd_peak_w"`
	JPerG float64 `json:"ssd_j_per_gb_written"`
}

// MarshalJSON writes the cell's members in summaryHeader's order: the latency members are
// named after the --percentiles list.
func (c SummaryCell) MarshalJSON() ([]byte, error) {
	f := report.Fields{{Key: "scenario", Value: c.Scenario}, {Key: "app", Value: c.App}, {Key: "variant", Value: c.Variant},
		{Key: "requests", Value: c.Requests}}
	f = append(f, c.LatencyUs.Fields()...)
	f = append(f, report.Fields{{Key: "p99_norm", Value: c.P99Norm}, {Key: "corunner_mb_per_s", Value: c.CorunnerMBps},
		{Key: "ssd_avg_w", Value: c.AvgW}, {Key: "ssd_peak_w", Value: c.PeakW}, {Key: "ssd_j_per_gb_written", Value: c.JPerG}}...)
	return f.MarshalJSON()
}

// UnmarshalJSON reads a cell MarshalJSON wrote.
func (c *SummaryCell) UnmarshalJSON(b []byte) error {
	type tagged SummaryCell // the tagged members, without this method
	*c = SummaryCell{}
	return report.DecodeWithLatency(b, (*tagged)(c), &c.LatencyUs)
}

// Summary is the comparison's summary (summary.json), the latency members at the
// percentiles ps (nil: report.DefaultPercentiles).
func (cmp *Comparison) Summary(ps report.Percentiles) Summary {
	preset, dur, scenarios, appsRun, variants, cell := cmp.Preset, cmp.Duration(), cmp.Scenarios, cmp.Apps, cmp.Variants, cmp.Cell
	s := Summary{Format: "fastdrain-compare/1", Preset: preset, Seconds: dur.Seconds(), Baseline: variants[0],
		Variants: variants, Scenarios: scenarios, Cells: []SummaryCell{}, pcts: ps}
	for _, a := range appsRun {
		base := cell(a, variants[0]).P99(a)
		for _, v := range variants {
			c := cell(a, v)
			sc := SummaryCell{Scenario: c.Scenario, App: a, Variant: v, LatencyUs: report.EmptyLatency(ps)}
			if c.Result != nil {
				if r := c.Result.App(a); r != nil && r.Latency != nil && r.Latency.Count() > 0 {
					h := r.Latency
					sc.Requests, sc.LatencyUs = r.Requests, report.LatencyOf(h, ps)
					if base > 0 {
						sc.P99Norm = float64(h.Quantile(0.99)) / float64(base)
					}
				}
				if c.Result.App(apps.Ungzip) != nil {
					sc.CorunnerMBps = c.Result.Throughput(apps.Ungzip)
				}
				if e := c.Result.Energy; e != nil {
					sc.AvgW, sc.JPerG = finiteOr0(e.AveragePower()), finiteOr0(e.PerGBWritten())
					if n := len(e.Peaks); n > 0 {
						sc.PeakW = e.Peaks[n-1].Watts
					}
				}
			}
			s.Cells = append(s.Cells, sc)
		}
	}
	return s
}

// WriteJSON writes the summary as indented JSON.
func (s Summary) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Table is the summary's cells as a table of numbers (summary.csv, --format csv).
func (s Summary) Table() *report.Table {
	h := append([]string{"scenario", "app", "variant", "requests"}, report.LatencyHeader(s.pcts)...)
	t := &report.Table{Title: "summary", Header: append(h, "p99_norm", "corunner_mb_per_s", "ssd_avg_w", "ssd_peak_w",
		"ssd_j_per_gb_written")}
	f := report.Exact
	for _, c := range s.Cells {
		row := append([]string{c.Scenario, c.App, c.Variant, strconv.FormatInt(c.Requests, 10)}, c.LatencyUs.Cells(f)...)
		t.Append(append(row, f(c.P99Norm), f(c.CorunnerMBps), f(c.AvgW), f(c.PeakW), f(c.JPerG))...)
	}
	return t
}

// finiteOr0 maps NaN and ±Inf (no bytes written, an empty window) to 0, which JSON can hold.
func finiteOr0(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}
