package runner

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/energy"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Plots writes the run's figures into dir, each as PNG and SVG: the latency CDF of every
// application, each latency-critical application's response time over time with page
// victimizations shaded, the buffer occupancy and host dirty pages over time, and the SSD's
// power over time stacked by component, the mean busy share per component class, and the
// plots of r.MorePlots.
func (r *Result) Plots(dir string) error {
	var hs []report.Named
	for _, a := range r.Apps {
		hs = append(hs, report.Named{Name: a.App, Hist: a.Latency})
	}
	spans := r.VictimSpans()
	for _, ext := range []string{".png", ".svg"} {
		if err := report.LatencyCDF(filepath.Join(dir, "latency-cdf"+ext), "response time CDF ("+r.PlotTag()+")", hs); err != nil {
			return err
		}
		for _, a := range r.Apps {
			if a.Series == nil || a.App == "ungzip" {
				continue
			}
			l := ResponseLine(a)
			if err := report.TimeSeries(filepath.Join(dir, "response-"+a.App+ext),
				a.App+" response time ("+r.PlotTag()+"), victimizations shaded", "response time (ms)", []report.Line{l}, spans); err != nil {
				return err
			}
		}
		var occ, dirty report.Line
		for _, s := range r.Series {
			switch {
			case strings.HasSuffix(s.Name, ".buffer.occupancy"):
				occ = seriesLine("SSD buffer occupancy (MiB)", s, 4096.0/(1<<20))
			case strings.HasSuffix(s.Name, ".dirty_pages"):
				dirty = seriesLine("host dirty pages (MiB)", s, 4096.0/(1<<20))
			}
		}
		if err := report.TimeSeries(filepath.Join(dir, "buffer"+ext), "buffer occupancy and dirty pages ("+r.PlotTag()+")",
			"MiB", []report.Line{occ, dirty}, spans); err != nil {
			return err
		}
		if lines := r.PowerLines(); lines != nil {
			if err := report.TimeSeries(filepath.Join(dir, "power"+ext), "SSD power by component, stacked ("+r.PlotTag()+")",
				"power (W)", lines, spans); err != nil {
				return err
			}
		}
		classes, busy := r.ClassUtilization()
		if err := report.Bars(filepath.Join(dir, "utilization"+ext), "mean busy share per component class ("+r.PlotTag()+")",
			"busy (%)", classes, []string{r.Label}, [][]float64{busy}); err != nil {
			return err
		}
		if err := r.MorePlots(dir, ext, hs); err != nil {
			return err
		}
	}
	return nil
}

// PowerLines returns the SSD's power trace stacked by component: line i is the sum of the
// first i+1 components' power in watts (energy.Components order), so the last is the
// total and the gap between two lines is one component's share. Nil without a trace.
func (r *Result) PowerLines() []report.Line {
	byName := map[string]*sim.Series{}
	for _, s := range r.Series {
		byName[s.Name] = s
	}
	var lines []report.Line
	var below []float64
	for i, c := range energy.Components {
		s := byName["energy."+strings.ReplaceAll(c, " ", "_")+"_mW"]
		if s == nil {
			return nil
		}
		name := c
		if i > 0 {
			name = "+ " + c
		}
		l := report.Line{Name: name}
		for k, p := range s.Samples {
			y := float64(p.Value) / 1e3
			if k < len(below) {
				y += below[k]
			}
			l.X = append(l.X, p.At.Seconds())
			l.Y = append(l.Y, y)
		}
		below = l.Y
		lines = append(lines, l)
	}
	return lines
}

// VictimSpans returns the page victimizations as shaded spans in seconds.
func (r *Result) VictimSpans() []report.Span {
	var spans []report.Span
	for _, v := range r.Victims {
		end := v.Done
		if end < v.Start {
			end = v.End
		}
		spans = append(spans, report.Span{From: v.Start.Seconds(), To: max(end, v.Start).Seconds()})
	}
	return spans
}

// ResponseLine returns an application's response time over time in milliseconds.
func ResponseLine(a AppResult) report.Line {
	l := report.Line{Name: a.App}
	for _, p := range a.Series.Points() {
		l.X = append(l.X, p.At.Seconds())
		l.Y = append(l.Y, float64(p.Latency)/float64(sim.Millisecond))
	}
	return l
}

func seriesLine(name string, s *sim.Series, scale float64) report.Line {
	l := report.Line{Name: name}
	for _, p := range s.Samples {
		l.X = append(l.X, p.At.Seconds())
		l.Y = append(l.Y, float64(p.Value)*scale)
	}
	return l
}

// ClassUtilization returns each component class (as in UtilizationTables) with the mean
// busy percentage of its resources over the measured window.
func (r *Result) ClassUtilization() (classes []string, busy []float64) {
	u := r.Utilization
	sum := map[string]float64{}
	n := map[string]int{}
	for _, row := range u.Rows {
		c := resourceClass(row[0])
		if n[c] == 0 {
			classes = append(classes, c)
		}
		v, _ := strconv.ParseFloat(strings.TrimSuffix(row[len(row)-1], "%"), 64)
		sum[c] += v
		n[c]++
	}
	for _, c := range classes {
		busy = append(busy, sum[c]/float64(n[c]))
	}
	return classes, busy
}
