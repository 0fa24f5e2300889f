package report

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Band is one device's curve on a uFLIP micro-benchmark plot: the mean response time at
// each value of the varied parameter with the min/max band around it (as the uFLIP paper
// draws its figures). The slices have equal lengths; X ascends.
type Band struct {
	Name            string
	X, Mean, Lo, Hi []float64
}

// BandPlot draws one curve with a translucent min/max band per device. logX and logY
// choose log axes (values must then be positive; a non-positive value is an error).
func BandPlot(path, title, xlabel, ylabel string, logX, logY bool, bands []Band) error {
	p := newPlot(title, xlabel, ylabel)
	p.Legend.Left = false
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	for i, b := range bands {
		n := len(b.X)
		if len(b.Mean) != n || len(b.Lo) != n || len(b.Hi) != n {
			return fmt.Errorf("plot %s: %s has %d x values but %d means, %d lows, %d highs", path, b.Name, n, len(b.Mean), len(b.Lo), len(b.Hi))
		}
		if n == 0 {
			continue
		}
		for k := range n {
			if (logX && b.X[k] <= 0) || (logY && b.Lo[k] <= 0) {
				return fmt.Errorf("plot %s: %s has a non-positive value on a log axis at point %d", path, b.Name, k)
			}
		}
		poly := make(plotter.XYs, 0, 2*n)
		for k := range n {
			poly = append(poly, plotter.XY{X: b.X[k], Y: b.Hi[k]})
		}
		for k := n - 1; k >= 0; k-- {
			poly = append(poly, plotter.XY{X: b.X[k], Y: b.Lo[k]})
		}
		if n > 1 {
			band, err := plotter.NewPolygon(poly)
			if err != nil {
				return err
			}
			r, g, bl, _ := colour(i).RGBA()
			band.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(bl >> 8), A: 50}
			band.LineStyle.Width = 0
			band.LineStyle.Color = color.Transparent
			p.Add(band)
		}
		pts := make(plotter.XYs, n)
		for k := range n {
			pts[k] = plotter.XY{X: b.X[k], Y: b.Mean[k]}
		}
		ln, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		ln.Color, sc.Color = colour(i), colour(i)
		ln.Width = vg.Points(1.5)
		sc.Shape = draw.CircleGlyph{}
		p.Add(ln, sc)
		p.Legend.Add(b.Name+" (mean, min–max band)", ln, sc)
	}
	return save(p, path, 6*vg.Inch, 4*vg.Inch)
}

// Trace is one device's per-IO response times of a run (index order) and its start-up
// length: the first Ignore IOs are marked as the start-up phase.
type Trace struct {
	Name   string
	Y      []float64
	Ignore int
}

// IOTrace plots per-IO response time against IO number, one series of points per device,
// with each device's start-up phase shaded and bounded by a dashed line, as the uFLIP paper
// shows its start-up and running phases. logY chooses a log response-time axis.
func IOTrace(path, title, ylabel string, logY bool, traces []Trace) error {
	p := newPlot(title, "IO number", ylabel)
	p.Legend.Left = false
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	lo, hi := 0.0, 0.0
	first := true
	for _, t := range traces {
		for _, y := range t.Y {
			if logY && y <= 0 {
				return fmt.Errorf("plot %s: %s has a non-positive response time on a log axis", path, t.Name)
			}
			if first || y < lo {
				lo = y
			}
			if first || y > hi {
				hi = y
			}
			first = false
		}
	}
	for i, t := range traces {
		if t.Ignore > 0 && len(t.Y) > 0 {
			r, g, b, _ := colour(i).RGBA()
			poly, err := plotter.NewPolygon(plotter.XYs{{X: 0, Y: lo}, {X: float64(t.Ignore), Y: lo},
				{X: float64(t.Ignore), Y: hi}, {X: 0, Y: hi}})
			if err != nil {
				return err
			}
			poly.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 40}
			poly.LineStyle.Width = 0
			poly.LineStyle.Color = color.Transparent
			p.Add(poly)
			edge, err := plotter.NewLine(plotter.XYs{{X: float64(t.Ignore), Y: lo}, {X: float64(t.Ignore), Y: hi}})
			if err != nil {
				return err
			}
			edge.Color = colour(i)
			edge.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			p.Add(edge)
		}
		pts := make(plotter.XYs, len(t.Y))
		for k, y := range t.Y {
			pts[k] = plotter.XY{X: float64(k), Y: y}
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		sc.Color = colour(i)
		sc.Radius = vg.Points(1.2)
		p.Add(sc)
		name := t.Name
		if t.Ignore > 0 {
			name = fmt.Sprintf("%s (start-up: first %d IOs)", t.Name, t.Ignore)
		}
		p.Legend.Add(name, sc)
	}
	return save(p, path, 7*vg.Inch, 3.5*vg.Inch)
}
