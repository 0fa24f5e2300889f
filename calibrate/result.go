package calibrate

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"github.com/fastdrain-sim/fastdrain/report"
)

// fmtUs formats a latency in µs as people read it.
func fmtUs(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.3gs", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.4gms", v/1e3)
	}
	return fmt.Sprintf("%.4gus", v)
}

// relErr returns (fitted − measured) / measured.
func relErr(fitted, measured float64) float64 { return (fitted - measured) / measured }

// PointTable is the error table: one row per measured point, with the measured mean, the
// base preset's and the fitted configuration's simulated means, and the fit's error.
func (r *Result) PointTable(s *Set) *report.ValueTable {
	t := &report.ValueTable{Title: "calibration: each measured point against the fitted model", NumTitle: "calibrate points",
		Columns: []report.Column{{Text: "point", Name: "point"}, {Text: "pattern", Name: "pattern"},
			{Text: "measured", Name: "measured_us"}, {Text: "base", Name: "base_us"}, {Text: "fitted", Name: "fitted_us"},
			{Text: "error", Name: "error_frac"}}}
	for i, p := range s.Points {
		e := relErr(r.Simulated[i], p.Measured)
		t.AddRow(report.Label(p.Name), report.Label(p.Pattern), report.Num(p.Measured, fmtUs(p.Measured)),
			report.Num(r.BaseSim[i], fmtUs(r.BaseSim[i])), report.Num(r.Simulated[i], fmtUs(r.Simulated[i])),
			report.Num(e, fmt.Sprintf("%+.1f%%", 100*e)))
	}
	return t
}

// ParamTable is the parameter table: each parameter's base and fitted value, whether the
// measurements identify it, its sensitivity and the patterns that identify it.
func (r *Result) ParamTable() *report.ValueTable {
	t := &report.ValueTable{Title: "calibration: parameters", NumTitle: "calibrate parameters",
		Columns: []report.Column{{Text: "parameter", Name: "parameter"}, {Text: "base", Name: "base"}, {Text: "fitted", Name: "fitted"},
			{Text: "identified", Name: "identified"}, {Text: "sensitivity", Name: "sensitivity_frac"}, {Text: "identified by", Name: "identified_by"}}}
	for _, e := range r.Estimates {
		id, by := "no: left at base", "-"
		if e.Identifiable {
			id = "yes"
		}
		if len(e.By) > 0 {
			by = strings.Join(e.By, "; ")
		}
		sens := math.Exp(e.Sensitivity) - 1
		t.AddRow(report.Label(e.Param.Name), report.Num(e.Base, e.Param.Format(e.Base)), report.Num(e.Value, e.Param.Format(e.Value)),
			report.Label(id), report.Num(sens, fmt.Sprintf("%.1f%%", 100*sens)), report.Label(by))
	}
	return t
}

// Summary is the fit's outcome in a few lines: the errors before and after, the largest
// point errors, and what was not fitted.
func (r *Result) Summary(s *Set) string {
	var b strings.Builder
	worst, wi := 0.0, 0
	var sum float64
	for i, p := range s.Points {
		e := math.Abs(relErr(r.Simulated[i], p.Measured))
		sum += e
		if e > worst {
			worst, wi = e, i
		}
	}
	fmt.Fprintf(&b, "%d points from %s; %d configurations simulated\n", len(s.Points), strings.Join(s.Files, ", "), r.Evaluations)
	fmt.Fprintf(&b, "rms log error: base %.3f, fitted %.3f; mean |error| %.1f %%, largest %.1f %% (%s)\n",
		r.BaseError, r.Error, 100*sum/float64(len(s.Points)), 100*worst, s.Points[wi].Name)
	var left []string
	for _, e := range r.Estimates {
		if !e.Identifiable {
			left = append(left, e.Param.Name)
		}
	}
	if len(left) > 0 {
		fmt.Fprintf(&b, "not identifiable from these measurements, left at the base: %s\n", strings.Join(left, ", "))
	}
	b.WriteString("never fitted (see docs/calibrate.md):\n")
	for _, u := range Unfitted {
		fmt.Fprintf(&b, "  %s\n", u)
	}
	return b.String()
}

// YAML returns the fitted configuration as a complete configuration file (every key,
// sorted, as config show prints it) named name, with a header saying what was fitted from
// what and what was left at the base.
func (r *Result) YAML(s *Set, base, name string) ([]byte, error) {
	c := r.Config
	c.Name = name
	c.Description = fmt.Sprintf("%s fitted by fastdrain calibrate to %s", base, strings.Join(s.Files, ", "))
	body, err := c.Resolved()
	if err != nil {
		return nil, err
	}
	var h bytes.Buffer
	fmt.Fprintf(&h, "# fastdrain calibrate: preset %s fitted to %s (%d points).\n", base, strings.Join(s.Files, ", "), len(s.Points))
	fmt.Fprintf(&h, "# rms log error %.3f (the base preset's: %.3f). Use: fastdrain run --config FILE.\n", r.Error, r.BaseError)
	for _, e := range r.Estimates {
		if e.Identifiable {
			fmt.Fprintf(&h, "#   fitted %s = %s (base %s), identified by %s\n", e.Param.Name, e.Param.Format(e.Value),
				e.Param.Format(e.Base), strings.Join(e.By, "; "))
		} else {
			fmt.Fprintf(&h, "#   left at base %s = %s: no measured point moves %.0f %% when it changes\n", e.Param.Name,
				e.Param.Format(e.Base), 100*Identifiable)
		}
	}
	for _, u := range Unfitted {
		fmt.Fprintf(&h, "#   never fitted: %s\n", u)
	}
	return append(h.Bytes(), body...), nil
}
