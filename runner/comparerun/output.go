package comparerun

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
)

// tableFiles are the CSV files of Tables, in order.
var tableFiles = []string{"p99.csv", "mean.csv", "corunner.csv", "energy.csv", "engagement.csv"}

// Tables are the comparison tables, each built once and rendered as the text table and as
// its CSV file (tableFiles).
func (c *Comparison) Tables() []*report.ValueTable {
	return []*report.ValueTable{
		runner.P99Table("p99 response time per variant (each app co-located with ungzip)", c.Apps, c.Variants, c.Cell),
		runner.MeanTable(c.Apps, c.Variants, c.Cell), runner.CorunnerTable(c.Apps, c.Variants, c.Cell),
		runner.EnergyTable(c.Apps, c.Variants, c.Cell), runner.EngagementTable(c.Apps, c.Variants, c.Cell)}
}

// PowerLossTable is what the power cut did to each run (nil unless a cut stopped every run).
func (c *Comparison) PowerLossTable() *report.Table {
	if cs := c.powerLossCells(); cs != nil {
		return powerLossCompareTable(cs)
	}
	return nil
}

// WriteText writes the comparison for people: a heading line, the comparison tables and
// the power-loss table.
func (c *Comparison) WriteText(out io.Writer) error {
	fmt.Fprintf(out, "FastDrain comparison on %s: %d scenarios × %d variants, %s simulated each\n\n",
		c.Preset, len(c.Scenarios), len(c.Variants), report.Duration(c.Duration()))
	var text []*report.Table
	for _, t := range c.Tables() {
		text = append(text, t.Text())
	}
	if plTab := c.PowerLossTable(); plTab != nil {
		text = append(text, plTab)
	}
	for _, t := range text {
		if err := t.WriteText(out); err != nil {
			return err
		}
		fmt.Fprintln(out)
	}
	return nil
}

// WriteVerdict writes the lines that follow the tables (the package's WriteVerdict).
func (c *Comparison) WriteVerdict(w io.Writer) error {
	return WriteVerdict(w, c.Apps, c.Variants, c.Cell)
}

// WriteDir writes everything under dir: each run's outputs (runner.Result.WriteDir, at
// the percentiles ps, and meta's files) in SCENARIO/VARIANT/, the tables' CSV files,
// summary.json and summary.csv, the power-loss table and plots, and p99.png/.svg.
func (c *Comparison) WriteDir(dir string, ps report.Percentiles, meta func(dir string, o runner.Options) error) error {
	for i, r := range c.Results {
		r.Percentiles = ps
		d := filepath.Join(dir, c.Options[i].Workload.Scenario.Name, c.Options[i].Label)
		if err := r.WriteDir(d); err != nil {
			return err
		}
		if err := meta(d, c.Options[i]); err != nil {
			return err
		}
	}
	for i, t := range c.Tables() {
		if err := t.Numbers().SaveCSV(filepath.Join(dir, tableFiles[i])); err != nil {
			return err
		}
	}
	sum := c.Summary(ps)
	if err := report.WriteFile(filepath.Join(dir, "summary.json"), sum.WriteJSON); err != nil {
		return err
	}
	if err := sum.Table().SaveCSV(filepath.Join(dir, "summary.csv")); err != nil {
		return err
	}
	tag := fmt.Sprintf("%s, %s", c.Preset, c.Duration())
	if cs := c.powerLossCells(); cs != nil {
		if err := powerLossCompareTable(cs).SaveCSV(filepath.Join(dir, "power-loss.csv")); err != nil {
			return err
		}
		if err := writePowerLossPlots(dir, tag, c.Scenarios, c.Variants, cs); err != nil {
			return err
		}
	}
	return c.writeP99Bars(dir, tag)
}

// writeP99Bars writes p99.png and p99.svg: each app's p99 under each variant normalized to
// the baseline's.
func (c *Comparison) writeP99Bars(dir, tag string) error {
	var norm [][]float64
	for _, v := range c.Variants {
		var row []float64
		for _, a := range c.Apps {
			b, x := c.Cell(a, c.Variants[0]).P99(a), c.Cell(a, v).P99(a)
			if b > 0 && x >= 0 {
				row = append(row, float64(x)/float64(b))
			} else {
				row = append(row, 0)
			}
		}
		norm = append(norm, row)
	}
	for _, ext := range []string{".png", ".svg"} {
		if err := report.Bars(filepath.Join(dir, "p99"+ext), fmt.Sprintf("p99 response time normalized to %s (%s)", c.Variants[0], tag),
			"normalized p99", c.Apps, c.Variants, norm); err != nil {
			return err
		}
	}
	return nil
}
