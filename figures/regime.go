package figures

import (
	"fmt"
	"math"
	"strings"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
)

// at returns a view of the set whose default runs are the runs of point label, so that
// the figures' code computes every claim at that point.
func (s *Set) at(label string) *Set {
	v := &Set{Options: s.Options, runs: map[key]*runner.Result{}}
	for k, r := range s.runs {
		if k.extra == label {
			v.runs[key{scenario: k.scenario, variant: k.variant}] = r
		}
	}
	return v
}

// claims returns every claim the paper's figures make from the set's default runs.
func (s *Set) claims() []Claim {
	var out []Claim
	for _, f := range []func() *Figure{s.fig1a, s.fig1b, s.fig2b, s.fig3a, s.fig3b, s.fig5, s.fig6a, s.fig6b} {
		if fig := f(); fig != nil {
			out = append(out, fig.Claims...)
		}
	}
	return out
}

// verdictCell is a claim's verdict at one point, short: "✓ 77 %", "✗ 10 %", "n.e." (its mechanism
// never engaged), "tie", "-" (not run).
func verdictCell(c Claim) string {
	switch {
	case c.Missing || math.IsNaN(c.Measured):
		return "-"
	case c.NotEngaged != "":
		return "n.e."
	case c.Tie:
		return "tie"
	case c.OK():
		return "✓ " + c.MeasuredText()
	}
	return "✗ " + c.MeasuredText()
}

// sensitivity is the regime map (issue 20 item 10): every claim's verdict at the default and
// at each sensitivity point, one row a setting, and for each claim a plot of its measured
// value over the settings beside the paper's, titled with the settings where it holds.
// Reporting, not tuning: the default runs stay what the other figures show.
func (s *Set) sensitivity() *Figure {
	var pts []point
	for _, p := range s.points {
		if p.sweep != "" {
			pts = append(pts, p)
		}
	}
	if len(pts) == 0 {
		return nil
	}
	def := s.claims()
	if len(def) == 0 {
		return nil
	}
	d := newDual("Regime map: each claim's verdict per setting (✓ holds, ✗ does not, n.e. mechanism not engaged)")
	d.textCol("sweep", "sweep")
	d.textCol("setting", "setting")
	for _, c := range def {
		// Numerically, each claim is two columns: its measured value (in its unit) and
		// its verdict as text.
		d.col(c.ID, c.ID+"_measured_"+unitName(c.Unit), c.ID+"_verdict")
		d.textCols[len(d.textCols)-1] = true
	}
	labels := []string{"default"}
	rows := [][]Claim{def}
	row := func(sweep, setting string, cs []Claim) {
		cells := []cell{str(sweep), str(setting)}
		byID := map[string]Claim{}
		for _, c := range cs {
			byID[c.ID] = c
		}
		for _, c := range def {
			if x, ok := byID[c.ID]; ok {
				cells = append(cells, cell{verdictCell(x), []string{num(x.measured()), x.Outcome()}})
			} else {
				cells = append(cells, cell{"-", []string{"", "not run"}})
			}
		}
		d.append(cells...)
	}
	row("", "default", def)
	for _, p := range pts {
		cs := s.at(p.label).claims()
		row(p.sweep, p.short, cs)
		labels = append(labels, p.short)
		rows = append(rows, cs)
	}
	fig := newFigure("sensitivity", d)
	fig.plot = func(dir, ext string) error {
		for i, c := range def {
			measured := make([]float64, len(rows))
			paper := make([]float64, len(rows))
			var holds []string
			for j, cs := range rows {
				paper[j] = c.Paper
				for _, x := range cs {
					if x.ID != c.ID {
						continue
					}
					if !math.IsNaN(x.Measured) && !x.Missing {
						measured[j] = x.Measured
					}
					if x.NotEngaged == "" && !x.Tie && x.OK() {
						holds = append(holds, labels[j])
					}
				}
			}
			if len(holds) == 0 {
				holds = []string{"nowhere"}
			}
			title := c.ID + ": " + c.Text + " (" + s.tag() + ")\n" + wrap("holds at: "+strings.Join(holds, ", "), 90)
			if err := report.Bars(fmt.Sprintf("%s/sensitivity-%02d-%s%s", dir, i+1, c.ID, ext), title, c.Unit,
				labels, []string{"measured", "paper"}, [][]float64{measured, paper}); err != nil {
				return err
			}
		}
		return nil
	}
	return fig
}

// wrap breaks s into lines of at most width bytes at ", " boundaries (a plot title).
func wrap(s string, width int) string {
	var b strings.Builder
	line := 0
	for i, part := range strings.Split(s, ", ") {
		if i > 0 {
			if line+2+len(part) > width {
				b.WriteString(",\n")
				line = 0
			} else {
				b.WriteString(", ")
				line += 2
			}
		}
		b.WriteString(part)
		line += len(part)
	}
	return b.String()
}
