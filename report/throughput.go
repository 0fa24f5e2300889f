package report

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Throughput plots rates over simulated time (MB/s per sample interval, one line each),
// with the legend in a strip right of the data so it never covers a line. Lines share the
// y axis, which starts at 0.
func Throughput(path, title string, lines []Line) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "simulated time (s)"
	p.Y.Label.Text = "throughput (MB/s, 10⁶ B/s)"
	p.Add(plotter.NewGrid())
	leg := plot.NewLegend()
	var names []string
	for i, l := range lines {
		pts := make(plotter.XYs, len(l.X))
		for k := range l.X {
			pts[k] = plotter.XY{X: l.X[k], Y: l.Y[k]}
		}
		ln, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		ln.StepStyle = plotter.PostStep
		ln.Color = colour(i)
		if i >= len(palette) {
			ln.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		p.Add(ln)
		leg.Add(l.Name, ln)
		names = append(names, l.Name)
	}
	p.Y.Min = 0
	return render(p, path, 8*vg.Inch, 3.5*vg.Inch, legendWidth(names), legendPanel(leg))
}
