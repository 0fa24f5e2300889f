package report

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Grid is a heat map's data: Values[i][k] is row i's value over column k, the interval
// [Start+k·Width, Start+(k+1)·Width) in seconds. Rows are drawn bottom to top in order.
type Grid struct {
	Rows   []string
	Start  float64
	Width  float64
	Values [][]float64
}

// gridXYZ adapts a Grid to gonum's GridXYZ: column k is centred on its interval's middle,
// row i on y = i (so nominal row labels sit on it).
type gridXYZ struct{ g *Grid }

func (x gridXYZ) Dims() (c, r int)   { return len(x.g.Values[0]), len(x.g.Values) }
func (x gridXYZ) Z(c, r int) float64 { return x.g.Values[r][c] }
func (x gridXYZ) X(c int) float64    { return x.g.Start + (float64(c)+0.5)*x.g.Width }
func (x gridXYZ) Y(r int) float64    { return float64(r) }

// checkGrid returns g's column count, or what is wrong with its shape.
func checkGrid(g *Grid) (int, error) {
	if len(g.Rows) == 0 || len(g.Rows) != len(g.Values) {
		return 0, fmt.Errorf("heat map: %d row names for %d rows", len(g.Rows), len(g.Values))
	}
	if g.Width <= 0 {
		return 0, fmt.Errorf("heat map: interval width %g s must be positive", g.Width)
	}
	n := len(g.Values[0])
	if n < 2 {
		return 0, fmt.Errorf("heat map: %d intervals, want at least 2", n)
	}
	for i, r := range g.Values {
		if len(r) != n {
			return 0, fmt.Errorf("heat map: row %s has %d intervals, row %s %d", g.Rows[i], len(r), g.Rows[0], n)
		}
	}
	return n, nil
}

// UtilizationHeatMap plots busy shares (0 to 1) over simulated time: one row per resource
// or group of resources, one column per sample interval, colour from dark (idle) to light,
// with the colour scale in a strip right of the data. The scale runs from 0 to the
// smallest of 0.01, 0.02, 0.05, 0.1, 0.2, 0.5 and 1 that holds every value (ScaleTop), so a
// lightly loaded array is not a black rectangle; shares above 1 (none from busy-time
// accounting) would be drawn as 1. The plot grows taller with the rows so every row keeps
// its label.
func UtilizationHeatMap(path, title, ylabel string, g Grid) error {
	n, err := checkGrid(&g)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	top := ScaleTop(g.Values)
	cm := moreland.Kindlmann()
	cm.SetMin(0)
	cm.SetMax(top)
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "simulated time (s)"
	p.Y.Label.Text = ylabel
	h := plotter.NewHeatMap(gridXYZ{&g}, cm.Palette(101))
	h.Min, h.Max = 0, top
	h.Overflow = cm.Palette(101).Colors()[100]
	p.Add(h)
	p.NominalY(g.Rows...)
	// Axis limits a hair outside the cells, so rounding never drops an edge cell.
	end := g.Start + float64(n)*g.Width
	p.X.Min, p.X.Max = g.Start-1e-9*end, end*(1+1e-9)
	p.Y.Min, p.Y.Max = -0.5-1e-6, float64(len(g.Rows))-0.5+1e-6
	height := max(3.5*vg.Inch, vg.Length(len(g.Rows))*0.14*vg.Inch+1.5*vg.Inch)
	side := func(c draw.Canvas) {
		bar := plot.New()
		bar.HideX()
		bar.Y.Label.Text = fmt.Sprintf("busy share (0 to %g)", top)
		bar.Y.Padding = 0
		bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
		bar.Draw(draw.Crop(c, vg.Points(6), -vg.Points(6), 0, -vg.Points(20)))
	}
	return render(p, path, 8*vg.Inch, height, vg.Points(70), side)
}

// ScaleTop returns the top of a heat map's colour scale for values: the smallest of 0.01,
// 0.02, 0.05, 0.1, 0.2, 0.5 and 1 at or above the largest value (1 for anything larger).
func ScaleTop(values [][]float64) float64 {
	m := 0.0
	for _, r := range values {
		for _, v := range r {
			m = max(m, v)
		}
	}
	for _, top := range []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5} {
		if m <= top {
			return top
		}
	}
	return 1
}
