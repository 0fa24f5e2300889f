package ufliprun

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Plots draws uFLIP's figures into dir: one band plot per micro-benchmark and base (a mix
// per pair) with every device overlaid, and the per-IO trace of the traced run.
func (s *Suite) Plots(dir string) error {
	devs, traceLabel := s.Devices, s.TraceLabel
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	type key struct {
		bench uflip.Bench
		base  string
	}
	var order []key
	bands := map[key][]report.Band{}
	for di, d := range devs {
		for _, p := range d.Points {
			if p.Counted == 0 {
				continue
			}
			base := p.Base.String()
			if p.Second != nil {
				base += "-" + p.Second.String()
			}
			k := key{p.Bench, base}
			bs, ok := bands[k]
			if !ok {
				order = append(order, k)
			}
			for len(bs) <= di {
				bs = append(bs, report.Band{Name: devs[len(bs)].Name})
			}
			b := &bs[di]
			b.X = append(b.X, p.X)
			ms := float64(sim.Millisecond)
			b.Mean, b.Lo, b.Hi = append(b.Mean, p.Mean/ms), append(b.Lo, float64(p.Min)/ms), append(b.Hi, float64(p.Max)/ms)
			bands[k] = bs
		}
	}
	for _, k := range order {
		logX := k.bench != uflip.BenchAlignment && k.bench != uflip.BenchOrder && k.bench != uflip.BenchMix
		name := fmt.Sprintf("%s-%s.png", k.bench, k.base)
		title := fmt.Sprintf("uFLIP %s, %s", k.bench, k.base)
		if err := report.BandPlot(filepath.Join(dir, name), title, uflip.XLabel(k.bench), "response time (ms, log scale)",
			logX, true, bands[k]); err != nil {
			return err
		}
	}
	var traces []report.Trace
	for _, d := range devs {
		tr := report.Trace{Name: d.Name}
		for _, r := range d.Trace {
			tr.Y = append(tr.Y, float64(r.Latency)/float64(sim.Millisecond))
			if r.Ignored {
				tr.Ignore++
			}
		}
		traces = append(traces, tr)
	}
	file := "trace-" + strings.NewReplacer("/", "_", "=", "").Replace(traceLabel) + ".png"
	return report.IOTrace(filepath.Join(dir, file), "uFLIP per-IO response time: "+traceLabel,
		"response time (ms, log scale)", true, traces)
}
