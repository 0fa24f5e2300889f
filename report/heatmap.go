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

func (x gridXYZ) Dims() (c, r int)    { return len(x.g.Values[0]), len(x.g.Values) }
func (x gridXYZ) Z(c, r int) float64  { return x.g.Values[r][c] }
func (x gridXYZ) X(c int) float64     { return x.g.Start + (float64(c)+0.5)*x.g.Width }
func (x gridXYZ) Y(r int) float64     { return float64(r) }
func (x gridXYZ) Min() float64        { return 0 }
func (x gridXYZ) Max() float64        { return 1 }
func (x gridXYZ) check() (int, error) { return checkGrid(x.g) }

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
// or group of resources, one column per sample interval, colour from dark (idle) to light
// (busy all the interval), with the colour scale in a strip right of the data. The plot
// grows taller with the rows so every row keeps its label.
func UtilizationHeatMap(path, title, ylabel string, g Grid) error {
	n, err := gridXYZ{&g}.check()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	cm := moreland.Kindlmann()
	cm.SetMin(0)
	cm.SetMax(1)
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "simulated time (s)"
	p.Y.Label.Text = ylabel
	h := plotter.NewHeatMap(gridXYZ{&g}, cm.Palette(101))
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
		bar.Y.Label.Text = "busy share"
		bar.Y.Padding = 0
		bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
		bar.Draw(draw.Crop(c, vg.Points(6), -vg.Points(6), 0, -vg.Points(20)))
	}
	return render(p, path, 8*vg.Inch, height, vg.Points(70), side)
}
