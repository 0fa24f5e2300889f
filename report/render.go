package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// DefaultPNGDPI is the resolution PNG plots are rendered at unless SetPNGDPI changes it:
// gonum's own default (vgimg.DefaultDPI), so plots look as they did before the option.
const DefaultPNGDPI = vgimg.DefaultDPI

// MinPNGDPI and MaxPNGDPI bound the PNG resolution: below 24 dots per inch the text is
// unreadable; above 1200 a 7×3.5-inch plot is a 35-megapixel image (over 140 MB in memory).
const (
	MinPNGDPI = 24
	MaxPNGDPI = 1200
)

// pngDPI is the resolution of PNG plots. It is output formatting, never simulation state:
// the command line sets it once (SetPNGDPI) before any plot is written.
var pngDPI = DefaultPNGDPI

// SetPNGDPI sets the resolution, in dots per inch, of every PNG plot written afterwards;
// SVG plots are vector graphics and do not depend on it. It rejects a value outside
// [MinPNGDPI, MaxPNGDPI]. Call it before plotting starts, not while plots are written.
func SetPNGDPI(dpi int) error {
	if dpi < MinPNGDPI || dpi > MaxPNGDPI {
		return fmt.Errorf("plot DPI %d: want %d to %d dots per inch", dpi, MinPNGDPI, MaxPNGDPI)
	}
	pngDPI = dpi
	return nil
}

// PNGDPI returns the resolution PNG plots are written at.
func PNGDPI() int { return pngDPI }

// sidePanel draws something beside the data area (a legend or a colour bar) into c, a
// strip at the plot's right-hand side.
type sidePanel func(c draw.Canvas)

// render writes p to path (.png at the PNG resolution, or .svg), w by h. With a side
// panel, the plot takes the width less sideW and the panel is drawn in the strip to its
// right, so it can never cover data.
func render(p *plot.Plot, path string, w, h, sideW vg.Length, side sidePanel) error {
	var c vg.CanvasWriterTo
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI))}
	case ".svg":
		c = vgsvg.New(w, h)
	default:
		return fmt.Errorf("plot %s: want a .png or .svg file", path)
	}
	dc := draw.New(c)
	if side == nil {
		p.Draw(dc)
	} else {
		p.Draw(draw.Crop(dc, 0, -sideW, 0, 0))
		side(draw.Crop(dc, w-sideW, 0, 0, 0))
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return writeClose(f, c)
}

func writeClose(f *os.File, c io.WriterTo) error {
	_, err := c.WriteTo(f)
	if e := f.Close(); err == nil {
		err = e
	}
	return err
}

// legendPanel returns a side panel holding l, top left in the strip, with a small margin.
func legendPanel(l plot.Legend) sidePanel {
	return func(c draw.Canvas) {
		l.Top, l.Left = true, true
		l.XOffs = vg.Points(4)
		l.YOffs = -vg.Points(20) // level with the top of the data area, below the title
		l.Draw(c)
	}
}

// legendWidth is the width a side strip needs for l's longest entry: the thumbnail, the
// text and margins.
func legendWidth(names []string) vg.Length {
	n := 0
	for _, s := range names {
		n = max(n, len([]rune(s)))
	}
	return vg.Points(float64(n)*5.5 + 40)
}
