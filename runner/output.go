package runner

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/energy"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// ms formats a latency in milliseconds for tables.
func ms(ps int64) string { return report.Duration(sim.Time(ps)) }

// window returns the measured span.
func (r *Result) window() sim.Time { return max(r.Ended-r.Began, 1) }

// Throughput returns the bytes app moved per second of the measured window, in MB/s
// (10^6 B/s), or 0 if it did not run.
func (r *Result) Throughput(app string) float64 {
	a := r.App(app)
	if a == nil {
		return 0
	}
	return float64(a.Bytes) / r.window().Seconds() / 1e6
}

// textPercentiles are the text table's and result.json's percentiles without
// --percentiles: p50, p90, p99, p99.9 (apps.csv adds p99.99, report.DefaultPercentiles).
var textPercentiles = report.Percentiles{50, 90, 99, 99.9}

// AppTable is the per-application latency and throughput table.
func (r *Result) AppTable() *report.Table {
	ps := r.Percentiles.Or(textPercentiles)
	h := append([]string{"app", "requests", "req/s", "MB/s", "mean"}, ps.Labels()...)
	t := &report.Table{Title: "applications (" + r.Label + ")", Header: append(h, "max")}
	failed := false // a column of I/O errors only when the device failed requests
	for _, a := range r.Apps {
		failed = failed || a.IOErrors > 0
	}
	if failed {
		t.Header = append(t.Header, "I/O errors")
	}
	secs := r.window().Seconds()
	for _, a := range r.Apps {
		h := a.Latency
		row := []string{a.App, strconv.FormatInt(a.Requests, 10), fmt.Sprintf("%.1f", float64(a.Requests)/secs),
			fmt.Sprintf("%.1f", r.Throughput(a.App)), ms(int64(h.Mean()))}
		for _, v := range ps.Quantiles(h) {
			row = append(row, ms(v))
		}
		row = append(row, ms(h.Max()))
		if failed {
			row = append(row, strconv.FormatInt(a.IOErrors, 10))
		}
		t.Append(row...)
	}
	return t
}

// resourceClass names the group a resource belongs to in the utilization tables.
func resourceClass(name string) string {
	switch {
	case strings.HasPrefix(name, "host."):
		return "host CPUs"
	case strings.Contains(name, ".pcie"):
		return "PCIe link"
	case strings.Contains(name, ".core["):
		return "controller cores"
	case strings.Contains(name, ".dram"):
		return "controller DRAM"
	case strings.Contains(name, ".die["):
		return "dies"
	case strings.Contains(name, ".ch["):
		return "channel buses"
	}
	return "other"
}

// UtilizationTables splits the utilization table by component class — host CPUs, PCIe
// directions, controller cores, DRAM, channel buses, dies — each with only the activities
// its resources have. Dies are summarised (mean, busiest, idlest) so the table stays
// readable for hundreds of them; every die is in the CSV and JSON outputs.
func (r *Result) UtilizationTables() []*report.Table {
	u := r.Utilization
	var order []string
	rows := map[string][][]string{}
	for _, row := range u.Rows {
		c := resourceClass(row[0])
		if _, ok := rows[c]; !ok {
			order = append(order, c)
		}
		rows[c] = append(rows[c], row)
	}
	var out []*report.Table
	for _, c := range order {
		rs := rows[c]
		// Keep the columns some resource of the class uses.
		keep := []int{0}
		for col := 1; col < len(u.Header)-1; col++ {
			for _, row := range rs {
				if row[col] != "0.0%" {
					keep = append(keep, col)
					break
				}
			}
		}
		keep = append(keep, len(u.Header)-1)
		t := &report.Table{Title: fmt.Sprintf("%s utilization (%s)", c, r.Label)}
		for _, k := range keep {
			t.Header = append(t.Header, u.Header[k])
		}
		pick := func(row []string) []string {
			out := make([]string, 0, len(keep))
			for _, k := range keep {
				out = append(out, row[k])
			}
			return out
		}
		if c != "dies" {
			for _, row := range rs {
				t.Append(pick(row)...)
			}
			out = append(out, t)
			continue
		}
		pct := func(s string) float64 {
			v, _ := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
			return v
		}
		mean := make([]string, len(u.Header))
		mean[0] = fmt.Sprintf("mean of %d dies", len(rs))
		for col := 1; col < len(u.Header); col++ {
			sum := 0.0
			for _, row := range rs {
				sum += pct(row[col])
			}
			mean[col] = fmt.Sprintf("%.1f%%", sum/float64(len(rs)))
		}
		hi, lo := rs[0], rs[0]
		last := len(u.Header) - 1
		for _, row := range rs {
			if pct(row[last]) > pct(hi[last]) {
				hi = row
			}
			if pct(row[last]) < pct(lo[last]) {
				lo = row
			}
		}
		t.Append(pick(mean)...)
		t.Append(pick(append([]string{"busiest " + hi[0]}, hi[1:]...))...)
		t.Append(pick(append([]string{"idlest " + lo[0]}, lo[1:]...))...)
		out = append(out, t)
	}
	return out
}

// WriteText writes the run's tables.
func (r *Result) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s on %s: scenario %s, measured %s (events %d)\n\n", r.Label, r.Config.Name,
		r.Scenario.Name, report.Duration(r.window()), r.Events)
	tables := append([]*report.Table{r.AppTable(), r.StatsTable()}, r.UtilizationTables()...)
	if e := r.EnergyTable(); e != nil {
		tables = append(tables, e)
	}
	if pl := r.PowerLossTable(); pl != nil {
		tables = append(tables, pl)
	}
	for _, t := range tables {
		if err := t.WriteText(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	WriteNotes(w, r.Label, r.Notes())
	return nil
}

// WriteNotes writes notes (sentences about a run's faults, Result.Notes) under the title
// "faults (label)", followed by a blank line; nothing if there are none.
func WriteNotes(w io.Writer, label string, notes []string) {
	if len(notes) == 0 {
		return
	}
	fmt.Fprintf(w, "faults (%s)\n", label)
	for _, n := range notes {
		fmt.Fprintf(w, "- %s\n", n)
	}
	fmt.Fprintln(w)
}

// jsonResult is the machine-readable result; times are picoseconds.
type jsonResult struct {
	Label       string          `json:"label"`
	Platform    string          `json:"platform"`
	Scenario    string          `json:"scenario"`
	BeganPS     int64           `json:"began_ps"`
	EndedPS     int64           `json:"ended_ps"`
	Events      uint64          `json:"events"`
	Apps        []jsonApp       `json:"apps"`
	Stats       *report.Table   `json:"stats"`
	Utilization *report.Table   `json:"utilization"`
	Victims     []jsonVictim    `json:"victimizations"`
	FlashUsed   int64           `json:"flash_pages_used"`
	FlashWasted int64           `json:"flash_pages_wasted"`
	Switches    []jsonSwitch    `json:"ratio_switches"`
	Modes       []jsonModeEvent `json:"buffer_mode_changes"`
	Energy      *jsonEnergy     `json:"energy,omitempty"`
	PowerLoss   *report.Table   `json:"power_loss,omitempty"`
	Health      *jsonHealth     `json:"health,omitempty"`
	Notes       []string        `json:"fault_notes,omitempty"`
}

// jsonHealth is the drive's health with a fault model (Result.Health): its spare pool,
// read-only mode and SMART / Health log fields; times are picoseconds.
type jsonHealth struct {
	SparePool       int    `json:"spare_blocks_a_die"`
	SpareLeft       int    `json:"least_spare_left"`
	AvailableSpare  int    `json:"available_spare_percent"`
	Threshold       int    `json:"available_spare_threshold_percent"`
	ReadOnly        bool   `json:"read_only"`
	ReadOnlyAtPS    int64  `json:"read_only_at_ps,omitempty"`
	ReadOnlyDie     int    `json:"read_only_die,omitempty"`
	ReadOnlyReason  string `json:"read_only_reason,omitempty"`
	CriticalWarning uint8  `json:"critical_warning"`
	MediaErrors     uint64 `json:"media_errors"`
	RefusedWrites   int64  `json:"refused_writes"`
	FailedReads     int64  `json:"failed_reads"`
}

// jsonEnergy is the energy account: joules per component and activity, the peaks and the
// energy per host command and per GB written.
type jsonEnergy struct {
	Rows          []jsonEnergyRow `json:"rows"`
	TotalJ        float64         `json:"total_j"`
	AverageW      float64         `json:"average_w"`
	Peaks         []jsonPeak      `json:"peaks"`
	Commands      int64           `json:"host_commands"`
	WriteBytes    int64           `json:"host_write_bytes"`
	PerCommandJ   float64         `json:"j_per_host_command"`
	PerGBWrittenJ float64         `json:"j_per_gb_written"`
}

type jsonEnergyRow struct {
	Component string  `json:"component"`
	Activity  string  `json:"activity"`
	J         float64 `json:"j"`
	AverageW  float64 `json:"average_w"`
}

type jsonPeak struct {
	WindowPS int64   `json:"window_ps"`
	W        float64 `json:"w"`
	EndPS    int64   `json:"end_ps"`
}

// jsonApp is one application in result.json: app, requests, bytes, mean_ps, a pXX_ps per
// percentile (p50, p90, p99, p999 without --percentiles) and max_ps.
type jsonApp struct {
	App      string
	Requests int64
	Bytes    int64
	MeanPS   float64
	Pcts     report.Percentiles
	PPS      []int64 // at each of Pcts
	MaxPS    int64
	IOErrors int64 // requests failed by the device (written only when some were)
}

// MarshalJSON writes the members in order, the percentiles named after the list.
func (a jsonApp) MarshalJSON() ([]byte, error) {
	f := report.Fields{{Key: "app", Value: a.App}, {Key: "requests", Value: a.Requests}, {Key: "bytes", Value: a.Bytes},
		{Key: "mean_ps", Value: a.MeanPS}}
	for i, k := range a.Pcts.Keys("_ps") {
		f = append(f, report.Field{Key: k, Value: a.PPS[i]})
	}
	f = append(f, report.Field{Key: "max_ps", Value: a.MaxPS})
	if a.IOErrors > 0 {
		f = append(f, report.Field{Key: "io_errors", Value: a.IOErrors})
	}
	return f.MarshalJSON()
}

type jsonVictim struct {
	StartPS int64  `json:"start_ps"`
	DonePS  int64  `json:"done_ps"`
	Pages   int64  `json:"pages"`
	Reason  string `json:"reason"`
}

type jsonSwitch struct {
	AtPS int64  `json:"at_ps"`
	Set  string `json:"set"`
}

type jsonModeEvent struct {
	AtPS       int64 `json:"at_ps"`
	Foreground bool  `json:"foreground"`
	Occupancy  int   `json:"occupancy"`
	Predicted  int64 `json:"predicted"`
}

// JSON returns the machine-readable form.
func (r *Result) JSON() any {
	j := jsonResult{Label: r.Label, Platform: r.Config.Name, Scenario: r.Scenario.Name,
		BeganPS: int64(r.Began), EndedPS: int64(r.Ended), Events: r.Events,
		Stats: r.StatsTable(), Utilization: r.Utilization, FlashUsed: r.FlashUsed, FlashWasted: r.FlashWasted,
		Apps: []jsonApp{}, Victims: []jsonVictim{}, Switches: []jsonSwitch{}, Modes: []jsonModeEvent{},
		PowerLoss: r.PowerLossTable(), Notes: r.Notes()}
	if h := r.Health; h != nil {
		j.Health = &jsonHealth{SparePool: h.SparePool, SpareLeft: h.SpareLeft, AvailableSpare: h.AvailableSpare,
			Threshold: h.Threshold, ReadOnly: h.ReadOnly, CriticalWarning: h.Log.CriticalWarning,
			MediaErrors: h.Log.MediaErrors, RefusedWrites: r.Faults.RefusedWrites, FailedReads: r.Faults.FailedReads}
		if h.ReadOnly {
			j.Health.ReadOnlyAtPS, j.Health.ReadOnlyDie, j.Health.ReadOnlyReason = int64(h.ReadOnlyAt), h.ReadOnlyDie, h.ReadOnlyReason
		}
	}
	for _, a := range r.Apps {
		h := a.Latency
		ps := r.Percentiles.Or(textPercentiles)
		j.Apps = append(j.Apps, jsonApp{a.App, a.Requests, a.Bytes, h.Mean(), ps, ps.Quantiles(h), h.Max(), a.IOErrors})
	}
	for _, v := range r.Victims {
		j.Victims = append(j.Victims, jsonVictim{int64(v.Start), int64(v.Done), int64(v.Pages), fmt.Sprint(v.Reason)})
	}
	for _, s := range r.Switches {
		j.Switches = append(j.Switches, jsonSwitch{int64(s.At), fmt.Sprintf("%d/%d", s.Ratio, s.BackgroundRatio)})
	}
	for _, m := range r.ModeChanges {
		j.Modes = append(j.Modes, jsonModeEvent{int64(m.At), m.Foreground, m.Occupancy, m.Predicted})
	}
	if a := r.Energy; a != nil {
		e := &jsonEnergy{TotalJ: a.Total(), AverageW: a.AveragePower(), Commands: a.Commands, WriteBytes: a.WriteBytes,
			PerCommandJ: a.PerCommand(), PerGBWrittenJ: a.PerGBWritten(), Peaks: []jsonPeak{}}
		for i, row := range energy.Rows() {
			if !a.Shown(i) {
				continue
			}
			e.Rows = append(e.Rows, jsonEnergyRow{row.Component, row.Activity, a.J[i], a.J[i] / a.Seconds()})
		}
		for _, p := range a.Peaks {
			e.Peaks = append(e.Peaks, jsonPeak{int64(p.Window), p.Watts, int64(p.End)})
		}
		j.Energy = e
	}
	return j
}

// EnergyTable is the SSD's energy per component and activity over the measured window,
// with its peaks and the energy per host command and per GB written (nil without one).
func (r *Result) EnergyTable() *report.Table {
	if r.Energy == nil {
		return nil
	}
	return r.Energy.Table("energy (" + r.Label + ")")
}

// utilizationCSV is utilization.csv: the fractions, or the percent table of a result made
// before they were kept.
func (r *Result) utilizationCSV() *report.Table {
	if r.UtilizationFrac != nil {
		return r.UtilizationFrac
	}
	return r.Utilization
}

// WriteDir writes the resolved configuration, the result as JSON, the tables as CSV, the
// time series as CSV, and the plots into dir (created if needed).
func (r *Result) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	cfg, err := r.Config.Resolved()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), cfg, 0o644); err != nil {
		return err
	}
	if err := report.WriteFile(filepath.Join(dir, "result.json"), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r.JSON())
	}); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		t    *report.Table
	}{{"apps.csv", r.AppCSV()}, {"stats.csv", r.StatsCSV()}, {"utilization.csv", r.utilizationCSV()}, {"energy.csv", r.EnergyTable()}} {
		if f.t == nil {
			continue
		}
		if err := f.t.SaveCSV(filepath.Join(dir, f.name)); err != nil {
			return err
		}
	}
	if err := report.WriteFile(filepath.Join(dir, "series.csv"), r.writeSeriesCSV); err != nil {
		return err
	}
	return r.Plots(dir)
}

// writeSeriesCSV writes every sampled series in long form: series, time_ps, value.
func (r *Result) writeSeriesCSV(w io.Writer) error {
	t := &report.Table{Header: []string{"series", "time_ps", "value"}}
	for _, s := range r.Series {
		for _, p := range s.Samples {
			t.Rows = append(t.Rows, []string{s.Name, strconv.FormatInt(int64(p.At), 10), strconv.FormatInt(p.Value, 10)})
		}
	}
	return t.WriteCSV(w)
}

// PowerLossTable is what a scripted power cut did and what recovery found (nil without a
// cut): docs/reliability.md, "Power loss and recovery".
func (r *Result) PowerLossTable() *report.Table {
	pl, rec := r.PowerLoss, r.Recovery
	if pl == nil || rec == nil {
		return nil
	}
	t := &report.Table{Title: "power loss (" + r.Label + ")", Header: []string{"statistic", "value"}}
	add := func(k string, v any) { t.Append(k, fmt.Sprint(v)) }
	add("cut at", report.Duration(pl.At))
	add("power-loss protection", pl.Protected)
	add("dirty / evicting pages at the cut", fmt.Sprintf("%d / %d", pl.Dirty, pl.Evicting))
	add("pages flushed after the cut", pl.Flushed)
	add("pages lost", pl.Lost)
	add("drain", pl.Outcome())
	add("hold-up used", report.Duration(pl.DrainTime()))
	add("recovery: pages scanned / records / logical pages mapped", fmt.Sprintf("%d / %d / %d", rec.Scanned, rec.Records, rec.Mapped))
	add("recovery: scan time (simulated)", report.Duration(rec.Time))
	add("recovery: scan time (closed form, tR only)", report.Duration(rec.Estimate))
	return t
}
