package report

import (
	"image/color"

	"github.com/fastdrain-sim/fastdrain/sim"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Named pairs a label with a histogram (for CDFs) in a fixed order.
type Named struct {
	Name string
	Hist *sim.Histogram
}

// Line is one curve of a time-series plot: X in seconds, Y in the plot's unit.
type Line struct {
	Name string
	X, Y []float64
}

// Span is a shaded interval on a time-series plot (e.g. a page victimization), in seconds.
type Span struct{ From, To float64 }

// palette is a colour-blind-safe set (Okabe & Ito).
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255}, color.RGBA{213, 94, 0, 255}, color.RGBA{0, 158, 115, 255},
	color.RGBA{204, 121, 167, 255}, color.RGBA{230, 159, 0, 255}, color.RGBA{86, 180, 233, 255},
	color.RGBA{0, 0, 0, 255}, color.RGBA{240, 228, 66, 255},
}

func colour(i int) color.Color { return palette[i%len(palette)] }

// save writes p to path; the extension (.png or .svg) picks the format (PNG at PNGDPI).
func save(p *plot.Plot, path string, w, h vg.Length) error {
	return render(p, path, w, h, 0, nil)
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	return p
}

// cdfQuantiles are the probabilities a CDF curve is drawn at: dense in the body and into
// the tail, so p99 and p99.9 are visible.
var cdfQuantiles = func() []float64 {
	var q []float64
	for i := 0; i <= 90; i++ {
		q = append(q, float64(i)/100)
	}
	return append(q, 0.92, 0.94, 0.96, 0.97, 0.98, 0.99, 0.995, 0.999, 0.9995, 0.9999, 1)
}()

// LatencyCDF plots the latency distribution of each histogram (milliseconds on a log axis).
func LatencyCDF(path, title string, hs []Named) error {
	p := newPlot(title, "latency (ms, log scale)", "fraction of requests ≤ latency")
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	for i, h := range hs {
		if h.Hist.Count() == 0 {
			continue
		}
		var pts plotter.XYs
		for _, q := range cdfQuantiles {
			v := float64(h.Hist.Quantile(q)) / float64(sim.Millisecond)
			pts = append(pts, plotter.XY{X: max(v, 1e-4), Y: q})
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		l.Color = colour(i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(h.Name, l)
	}
	return save(p, path, 6*vg.Inch, 4*vg.Inch)
}

// TimeSeries plots lines over simulated time with optional shaded spans.
func TimeSeries(path, title, ylabel string, lines []Line, spans []Span) error {
	p := newPlot(title, "simulated time (s)", ylabel)
	p.Legend.Left = false
	ymax := 0.0
	for _, l := range lines {
		for _, y := range l.Y {
			ymax = max(ymax, y)
		}
	}
	for _, s := range spans {
		poly, err := plotter.NewPolygon(plotter.XYs{{X: s.From, Y: 0}, {X: s.To, Y: 0}, {X: s.To, Y: ymax}, {X: s.From, Y: ymax}})
		if err != nil {
			return err
		}
		poly.Color = color.NRGBA{R: 255, G: 190, B: 110, A: 90} // non-premultiplied: a light translucent band
		poly.LineStyle.Width = 0
		poly.LineStyle.Color = color.Transparent
		p.Add(poly)
	}
	for i, l := range lines {
		pts := make(plotter.XYs, len(l.X))
		for k := range l.X {
			pts[k] = plotter.XY{X: l.X[k], Y: l.Y[k]}
		}
		ln, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		ln.Color = colour(i)
		p.Add(ln)
		p.Legend.Add(l.Name, ln)
	}
	return save(p, path, 7*vg.Inch, 3.5*vg.Inch)
}

// Bars plots groups of bars: one group per label, one bar per series within a group.
func Bars(path, title, ylabel string, labels []string, series []string, values [][]float64) error {
	p := newPlot(title, "", ylabel)
	w := vg.Points(float64(60) / float64(max(1, len(series))))
	for i, name := range series {
		vs := make(plotter.Values, len(labels))
		for k := range labels {
			vs[k] = values[i][k]
		}
		b, err := plotter.NewBarChart(vs, w)
		if err != nil {
			return err
		}
		b.Color = colour(i)
		b.LineStyle.Width = 0
		b.Offset = w * vg.Length(float64(i)-float64(len(series)-1)/2)
		p.Add(b)
		p.Legend.Add(name, b)
	}
	top := 0.0
	for _, vs := range values {
		for _, v := range vs {
			top = max(top, v)
		}
	}
	p.Y.Min, p.Y.Max = 0, top*1.3 // headroom for the legend above the bars
	p.Legend.Left = false
	p.NominalX(labels...)
	p.X.Tick.Label.Rotation = 0.3
	p.X.Tick.Label.XAlign = draw.XRight
	return save(p, path, 8*vg.Inch, 4*vg.Inch)
}
