package flashbench

import (
	"fmt"
	"io"
	"strconv"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// TotalOps returns the number of completed operations.
func (r *Result) TotalOps() int64 { return r.Ops[0] + r.Ops[1] + r.Ops[2] }

// IOPS returns completed operations per simulated second.
func (r *Result) IOPS() float64 { return float64(r.TotalOps()) / r.Elapsed.Seconds() }

// Bandwidth returns data bytes moved per simulated second.
func (r *Result) Bandwidth() float64 { return float64(r.Bytes) / r.Elapsed.Seconds() }

// textPercentiles are Summary's and JSON's percentiles without --percentiles: p50 and p99.
var textPercentiles = report.Percentiles{50, 99}

// csvPercentiles are SummaryCSV's without --percentiles: p50, p90, p99 and p99.9.
var csvPercentiles = report.Percentiles{50, 90, 99, 99.9}

// Summary returns the headline table: per operation kind, count, pages, mean, p50, p99
// and max latency.
func (r *Result) Summary() *report.Table {
	ps := r.Percentiles.Or(textPercentiles)
	h := append([]string{"op", "count", "pages", "mean"}, ps.Labels()...)
	t := &report.Table{Title: "operations", Header: append(h, "max")}
	row := func(name string, n, pages int64, h *sim.Histogram) {
		if h.Count() == 0 {
			cells := []string{name, "0", "0"}
			for range len(ps) + 2 {
				cells = append(cells, "-")
			}
			t.Append(cells...)
			return
		}
		cells := []string{name, fmt.Sprint(n), fmt.Sprint(pages), report.Duration(sim.Time(int64(h.Mean())))}
		for _, v := range ps.Quantiles(h) {
			cells = append(cells, report.Duration(sim.Time(v)))
		}
		t.Append(append(cells, report.Duration(sim.Time(h.Max())))...)
	}
	for k := channel.Read; k <= channel.Erase; k++ {
		row(k.String(), r.Ops[k], r.Pages[k], r.Latency[k])
	}
	row("all", r.TotalOps(), r.Pages[0]+r.Pages[1]+r.Pages[2], r.All)
	return t
}

// ChannelTable returns the per-channel bus utilization by activity.
func (r *Result) ChannelTable() *report.Table {
	return report.UtilizationTable("channel bus utilization", r.channelBuses(), nil, r.Elapsed)
}

// DieTable returns the per-die array utilization by activity.
func (r *Result) DieTable() *report.Table {
	return report.UtilizationTable("die utilization", r.dieArrays(), nil, r.Elapsed)
}

// channelBuses returns every channel's bus resource.
func (r *Result) channelBuses() []*sim.Resource {
	var res []*sim.Resource
	for _, ch := range r.Channels {
		res = append(res, ch.Bus())
	}
	return res
}

// dieArrays returns every die's array resource, channel by channel.
func (r *Result) dieArrays() []*sim.Resource {
	var res []*sim.Resource
	for _, ch := range r.Channels {
		for i := 0; i < ch.NumDies(); i++ {
			res = append(res, ch.Die(i).Array())
		}
	}
	return res
}

// fractionRows turns a table of UtilizationFractions into one JSON object per row: the
// resource's name, then each share as a number (the cells are the shortest exact decimals,
// so the numbers are the fractions themselves).
func fractionRows(t *report.Table) []report.Fields {
	rows := make([]report.Fields, 0, len(t.Rows))
	for _, row := range t.Rows {
		f := report.Fields{{Key: t.Header[0], Value: row[0]}}
		for i := 1; i < len(row); i++ {
			v, _ := strconv.ParseFloat(row[i], 64)
			f = append(f, report.Field{Key: t.Header[i], Value: v})
		}
		rows = append(rows, f)
	}
	return rows
}

// WriteText writes the configuration line, the headline numbers and the three tables.
func (r *Result) WriteText(w io.Writer) error {
	c := r.Config
	d := c.Channel.Die
	mp := "single-plane"
	if c.MultiPlane {
		mp = "multi-plane"
	}
	fmt.Fprintf(w, "flashbench: %d channels × %d dies × %d planes × %d blocks × %d pages of %d B, %v, %v mode %d (%d MT/s), %v arbitration\n",
		c.Channels, c.Channel.Dies, d.Planes, d.BlocksPerPlane, d.PagesPerBlock, d.PageSize, d.Cell,
		c.Channel.ONFI.Interface, c.Channel.ONFI.Mode, c.Channel.ONFI.MTps(), c.Channel.Policy)
	fmt.Fprintf(w, "stream: QD %d, %d ops, mix read/program/erase %d/%d/%d, %s, seed %d\n",
		c.QueueDepth, c.Ops, c.ReadWeight, c.ProgramWeight, c.EraseWeight, mp, c.Seed)
	fmt.Fprintf(w, "simulated %s in %d events: %.0f IOPS, %.1f MB/s\n\n",
		report.Duration(r.Elapsed), r.Events, r.IOPS(), r.Bandwidth()/1e6)
	for _, t := range []*report.Table{r.Summary(), r.ChannelTable(), r.DieTable()} {
		if err := t.WriteText(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}

// JSONResult is the machine-readable form of a Result.
type JSONResult struct {
	ElapsedPS   int64                  `json:"elapsed_ps"`
	Events      uint64                 `json:"events"`
	IOPS        float64                `json:"iops"`
	BytesPerSec float64                `json:"bytes_per_second"`
	Ops         map[string]JSONOpStats `json:"ops"`
	// Utilization holds, under "channels" and "dies", one object per resource: its name
	// ("resource") and the share of the run each activity kept it busy as a fraction of the
	// elapsed time ("<activity>_frac", 0 … 1, then "busy_frac"), as utilization.csv does.
	Utilization map[string][]report.Fields `json:"utilization"`
}

// JSONOpStats is the count and latency of one operation kind, latencies in picoseconds:
// count, pages, mean_ps, a pXX_ps per percentile (p50_ps, p99_ps without --percentiles) and
// max_ps.
type JSONOpStats struct {
	Count       int64
	Pages       int64
	MeanPS      float64
	Percentiles report.Percentiles
	PPS         []int64 // at each of Percentiles
	MaxPS       int64
}

// MarshalJSON writes the members in order, the percentiles named after the list.
func (o JSONOpStats) MarshalJSON() ([]byte, error) {
	f := report.Fields{{Key: "count", Value: o.Count}, {Key: "pages", Value: o.Pages}, {Key: "mean_ps", Value: o.MeanPS}}
	for i, k := range o.Percentiles.Keys("_ps") {
		f = append(f, report.Field{Key: k, Value: o.PPS[i]})
	}
	return append(f, report.Field{Key: "max_ps", Value: o.MaxPS}).MarshalJSON()
}

// JSON returns the machine-readable form of the result.
func (r *Result) JSON() JSONResult {
	j := JSONResult{ElapsedPS: int64(r.Elapsed), Events: r.Events, IOPS: r.IOPS(), BytesPerSec: r.Bandwidth(),
		Ops: map[string]JSONOpStats{}, Utilization: map[string][]report.Fields{
			"channels": fractionRows(report.UtilizationFractions("channel bus utilization", r.channelBuses(), nil, r.Elapsed)),
			"dies":     fractionRows(report.UtilizationFractions("die utilization", r.dieArrays(), nil, r.Elapsed))}}
	for k := channel.Read; k <= channel.Erase; k++ {
		h := r.Latency[k]
		ps := r.Percentiles.Or(textPercentiles)
		j.Ops[k.String()] = JSONOpStats{Count: r.Ops[k], Pages: r.Pages[k], MeanPS: h.Mean(),
			Percentiles: ps, PPS: ps.Quantiles(h), MaxPS: h.Max()}
	}
	return j
}

// SummaryCSV is Summary as numbers for files: per operation kind the count, pages and
// latency in µs (mean, stdev, min, p50, p90, p99, p99.9, max); an empty kind has zeros.
func (r *Result) SummaryCSV() *report.Table {
	ps := r.Percentiles.Or(csvPercentiles)
	h := append([]string{"op", "count", "pages", "mean_us", "stdev_us", "min_us"}, ps.Keys("_us")...)
	t := &report.Table{Title: "operations", Header: append(h, "max_us")}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	us := func(ps int64) string { return f(float64(ps) / float64(sim.Microsecond)) }
	row := func(name string, n, pages int64, h *sim.Histogram) {
		cells := []string{name, strconv.FormatInt(n, 10), strconv.FormatInt(pages, 10), f(h.Mean() / float64(sim.Microsecond)),
			f(h.Stdev() / float64(sim.Microsecond)), us(h.Min())}
		for _, v := range ps.Quantiles(h) {
			cells = append(cells, us(v))
		}
		t.Append(append(cells, us(h.Max()))...)
	}
	for k := channel.Read; k <= channel.Erase; k++ {
		row(k.String(), r.Ops[k], r.Pages[k], r.Latency[k])
	}
	row("all", r.TotalOps(), r.Pages[0]+r.Pages[1]+r.Pages[2], r.All)
	return t
}
