package ufliprun

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// powerLossTable is what d's power cut did and what recovery found (runner's table).
func (d *Device) powerLossTable() *report.Table {
	return (&runner.Result{Label: d.Name, PowerLoss: d.PowerLoss, Recovery: d.Recovery}).PowerLossTable()
}

// runTable is one row per run (with the automatic rule's choice when it is on).
func runTable(d *Device, auto bool) *report.Table {
	t := &report.Table{Title: "uFLIP runs", Header: []string{"bench", "run", "rep", "IOs", "mean", "min", "max", "std-dev"}}
	if d.Name != "" {
		t.Title += " on " + d.Name
	}
	if auto {
		t.Header = append(t.Header, "IOIgnore", "IOCount", "±95%", "converged")
	}
	for _, r := range d.Runs {
		row := []string{r.Bench.String(), r.Label, strconv.Itoa(r.Rep), strconv.FormatInt(r.Counted, 10),
			report.Duration(sim.Time(r.Mean)), report.Duration(r.Min), report.Duration(r.Max), report.Duration(sim.Time(r.StdDev))}
		if auto {
			if a := r.Auto; a != nil {
				row = append(row, strconv.FormatInt(a.IOIgnore, 10), strconv.FormatInt(a.IOCount, 10),
					strconv.FormatFloat(100*a.Precision, 'f', 1, 64)+"%", strconv.FormatBool(a.Converged))
			} else {
				row = append(row, "", "", "", "")
			}
		}
		t.Append(row...)
	}
	return t
}

// writeFindings writes each finding's verdict, claim and numbers, and for each finding
// not held the mechanism of the model that decides it.
func writeFindings(w io.Writer, name string, fs []uflip.Finding) error {
	var b strings.Builder
	fmt.Fprintf(&b, "uFLIP findings on %s\n", name)
	for _, f := range fs {
		fmt.Fprintf(&b, "  [%s] %s: %s\n      numbers: %s\n", f.Verdict, f.ID, f.Claim, f.Evidence)
		if f.Verdict == uflip.NotHeld {
			fmt.Fprintf(&b, "      mechanism: %s\n", f.Mechanism)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// calibrationTable is the per-micro-benchmark ratio of a's means to b's.
func calibrationTable(a, b *Device) *report.Table {
	t := &report.Table{Title: fmt.Sprintf("uFLIP calibration: %s / %s", a.Name, b.Name),
		Header: []string{"bench", "base", "points", "mean " + a.Name, "mean " + b.Name, "ratio"}}
	for _, r := range uflip.Calibrate(a.Points, b.Points) {
		t.Append(r.Bench.String(), r.Base, strconv.Itoa(r.Points), report.Duration(sim.Time(r.MeanA)),
			report.Duration(sim.Time(r.MeanB)), strconv.FormatFloat(r.Ratio, 'f', 3, 64))
	}
	return t
}
