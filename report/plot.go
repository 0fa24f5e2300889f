package report

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
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

// dashPatterns tell lines apart where they coincide: line i of a plot is drawn with pattern
// i (solid, long dashes, dots, dash-dot), later lines over earlier ones, so two identical
// curves show as one solid line broken by the other's dashes in its own colour.
var dashPatterns = [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(1.5), vg.Points(2.5)},
	{vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2)}}

func dashes(i int) []vg.Length { return dashPatterns[i%len(dashPatterns)] }

// save writes p to path; the extension (.png or .svg) picks the format (PNG at the PNG
// resolution, render). The legend is drawn in a strip to the right of the plot, never over
// the data.
func save(p *plot.Plot, path string, w, h vg.Length) error {
	leg := p.Legend
	p.Legend = plot.NewLegend()
	defer func() { p.Legend = leg }()
	lw := legendStrip(&leg, w, h)
	if lw == 0 {
		return render(p, path, w, h, 0, nil)
	}
	return render(p, path, w, h, lw, func(c draw.Canvas) {
		leg.Top, leg.Left = true, true
		leg.Draw(draw.Crop(c, legendPad, -legendPad, 0, -3*legendPad))
	})
}

// legendPad is the space between the plot and its legend strip.
const legendPad = vg.Length(8)

// legendStrip is the width of the strip legend l needs on a w × h plot (0 when it is
// empty), measured with l's own fonts.
func legendStrip(l *plot.Legend, w, h vg.Length) vg.Length {
	return legendStripOn(l, draw.New(vgimg.New(w, h)))
}

// legendStripOn is legendStrip measured on the canvas dc.
func legendStripOn(l *plot.Legend, dc draw.Canvas) vg.Length {
	r := l.Rectangle(dc)
	if r.Max.Y-r.Min.Y <= 0 {
		return 0
	}
	return r.Max.X - r.Min.X + 2*legendPad
}

// drawLegend draws l at the top of the strip at dc's right edge.
func drawLegend(l *plot.Legend, dc draw.Canvas) {
	lw := legendStripOn(l, dc)
	if lw == 0 {
		return
	}
	l.Top, l.Left = true, true
	l.Draw(draw.Crop(dc, dc.Max.X-dc.Min.X-lw+legendPad, -legendPad, 0, -3*legendPad))
}

// newCanvas returns a PNG (at the PNG resolution) or SVG canvas by path's extension, for
// plots drawn in several parts (TimeSeriesPanels); writeCanvas saves it.
func newCanvas(path string, w, h vg.Length) (vg.CanvasWriterTo, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI))}, nil
	case ".svg":
		return vgsvg.New(w, h), nil
	}
	return nil, fmt.Errorf("plot %s: want a .png or .svg file", path)
}

func writeCanvas(c vg.CanvasWriterTo, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return writeClose(f, c)
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
	if err := addLines(p, lines, spans, 0); err != nil {
		return err
	}
	return save(p, path, 7*vg.Inch, 3.5*vg.Inch)
}

// Bars plots groups of bars: one group per label, one bar per series within a group.
func Bars(path, title, ylabel string, labels []string, series []string, values [][]float64) error {
	p := newPlot(title, "", ylabel)
	// A group is at most 60 pt wide, less when many groups share the 8-inch plot.
	group := min(60, 400/float64(max(1, len(labels))))
	w := vg.Points(group / float64(max(1, len(series))))
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
	top, bottom := 0.0, 0.0
	for _, vs := range values {
		for _, v := range vs {
			top, bottom = max(top, v), min(bottom, v)
		}
	}
	p.Y.Min, p.Y.Max = bottom*1.05, top*1.05
	p.NominalX(labels...)
	p.X.Tick.Label.Rotation = 0.3
	p.X.Tick.Label.XAlign = draw.XRight
	return save(p, path, 8*vg.Inch, 4*vg.Inch)
}

// Panel is one panel of a stacked time-series plot: its lines and Y-axis label.
type Panel struct {
	YLabel string
	Lines  []Line
}

// TimeSeriesPanels plots panels stacked over one simulated-time axis (the paper's Fig. 1b:
// response time above, flushed dirty pages below), each with the spans shaded and its
// legend to its right.
func TimeSeriesPanels(path, title string, panels []Panel, spans []Span) error {
	const w, h = 7 * vg.Inch, 5 * vg.Inch
	c, err := newCanvas(path, w, h)
	if err != nil {
		return err
	}
	dc := draw.New(c)
	plots := make([][]*plot.Plot, len(panels))
	legends := make([]plot.Legend, len(panels))
	var lw vg.Length
	xmax := 0.0
	for _, pn := range panels {
		for _, l := range pn.Lines {
			for _, x := range l.X {
				xmax = max(xmax, x)
			}
		}
	}
	for i, pn := range panels {
		t := ""
		if i == 0 {
			t = title
		}
		x := ""
		if i == len(panels)-1 {
			x = "simulated time (s)"
		}
		p := newPlot(t, x, pn.YLabel)
		if err := addLines(p, pn.Lines, spans, i); err != nil {
			return err
		}
		p.X.Min, p.X.Max = 0, xmax
		legends[i] = p.Legend
		p.Legend = plot.NewLegend()
		lw = max(lw, legendStripOn(&legends[i], dc))
		plots[i] = []*plot.Plot{p}
	}
	tiles := draw.Tiles{Rows: len(panels), Cols: 1, PadY: vg.Points(4)}
	area := draw.Crop(dc, 0, -lw, 0, 0)
	cs := plot.Align(plots, tiles, area)
	for i := range plots {
		plots[i][0].Draw(cs[i][0])
		strip := draw.Crop(dc, 0, 0, cs[i][0].Min.Y-dc.Min.Y, cs[i][0].Max.Y-dc.Max.Y)
		drawLegend(&legends[i], strip)
	}
	return writeCanvas(c, path)
}

// addLines shades the spans up to the lines' highest value and adds the lines, line k in
// colour first+k and dash pattern k, each with its legend entry.
func addLines(p *plot.Plot, lines []Line, spans []Span, first int) error {
	ymax := 0.0
	for _, l := range lines {
		for _, y := range l.Y {
			ymax = max(ymax, y)
		}
	}
	if err := shade(p, spans, ymax); err != nil {
		return err
	}
	for k, l := range lines {
		pts := make(plotter.XYs, len(l.X))
		for j := range l.X {
			pts[j] = plotter.XY{X: l.X[j], Y: l.Y[j]}
		}
		ln, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		ln.Color = colour(first + k)
		ln.Dashes = dashes(k)
		p.Add(ln)
		p.Legend.Add(l.Name, ln)
	}
	return nil
}

// shade adds the spans as translucent bands from 0 to ymax.
func shade(p *plot.Plot, spans []Span, ymax float64) error {
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
	return nil
}
