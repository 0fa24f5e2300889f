package report

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// TailPoints returns h's complementary CDF as points (latency in ms, fraction of samples
// at least that latency), exact at every non-empty bucket's lower edge: the first point is
// (Min, 1), then for each further non-empty bucket [lo, hi] the fraction of samples ≥ lo,
// the samples in it and every bucket above over the count. The last point is the top
// bucket's share, never 0, so every point sits on a log axis. Nil for an empty histogram.
func TailPoints(h *sim.Histogram) plotter.XYs {
	n := h.Count()
	if n == 0 {
		return nil
	}
	d := h.Data()
	var pts plotter.XYs
	left := n // samples in this bucket and above
	for _, b := range d.Buckets {
		lo := max(b[0], d.Min)
		pts = append(pts, plotter.XY{X: float64(lo) / float64(sim.Millisecond), Y: float64(left) / float64(n)})
		left -= uint64(b[2])
	}
	return pts
}

// LatencyTail plots each histogram's complementary CDF on log-log axes: latency in ms on x,
// 1 − p (the fraction of requests at least that slow) on y, so the p99 is where a curve
// crosses 10⁻² and the p99.9 where it crosses 10⁻³. The legend is in a strip right of the
// data. A zero latency (the first point of a histogram whose minimum is 0) cannot sit on a
// log axis: it is drawn at half the curve's smallest positive latency; a histogram of
// zeros alone is left out.
func LatencyTail(path, title string, hs []Named) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "latency (ms, log scale)"
	p.Y.Label.Text = "1 − p (log scale)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	leg := plot.NewLegend()
	var names []string
	drawn := false
	for i, h := range hs {
		pts := TailPoints(h.Hist)
		if pts == nil {
			continue
		}
		if pts[0].X == 0 {
			if len(pts) == 1 {
				continue
			}
			pts[0].X = pts[1].X / 2
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		l.StepStyle = plotter.PostStep
		l.Color = colour(i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		leg.Add(h.Name, l)
		names = append(names, h.Name)
		drawn = true
	}
	if !drawn {
		// Log axes need a positive range: show an empty 1 µs to 1 s by 10⁻⁴ to 1 frame.
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 1e-3, 1e3, 1e-4, 1
	}
	return render(p, path, 7*vg.Inch, 4*vg.Inch, legendWidth(names), legendPanel(leg))
}
