package runner

import (
	"path/filepath"

	"github.com/fastdrain-sim/fastdrain/report"
)

// MorePlots writes, with extension ext (.png or .svg), the utilization heat maps of the
// channel buses (heatmap-channels) and the dies (heatmap-dies: one row per die up to
// MaxDieRows dies, else one per channel), the host's and each application's throughput
// over time (throughput) and the latency tail of every application in hs (tail). A heat
// map needs two sample intervals (a shorter run has none) and merges adjacent intervals
// past MaxHeatColumns.
func (r *Result) MorePlots(dir, ext string, hs []report.Named) error {
	for _, hm := range []struct {
		file, title, ylabel string
		rows                []BusyRow
	}{
		{"heatmap-channels", "channel bus busy share per sample interval (" + r.PlotTag() + ")", "channel bus", r.ChannelBusy},
		{"heatmap-dies", "die busy share per sample interval (" + r.PlotTag() + ")", "die", r.DieBusy},
	} {
		g, ok := BusyGrid(hm.rows, MaxHeatColumns)
		if !ok {
			continue
		}
		if len(hm.rows) > 0 && hm.rows[0].Members > 1 {
			hm.ylabel = "dies of a channel (mean)"
		}
		if err := report.UtilizationHeatMap(filepath.Join(dir, hm.file+ext), hm.title, hm.ylabel, g); err != nil {
			return err
		}
	}
	var lines []report.Line
	for _, t := range r.Traffic {
		if l := RateLine(t); len(l.X) > 0 {
			lines = append(lines, l)
		}
	}
	if lines != nil {
		if err := report.Throughput(filepath.Join(dir, "throughput"+ext), "throughput per sample interval ("+r.PlotTag()+")", lines); err != nil {
			return err
		}
	}
	return report.LatencyTail(filepath.Join(dir, "tail"+ext), "response time tail: share of requests ≥ latency ("+r.PlotTag()+")", hs)
}
