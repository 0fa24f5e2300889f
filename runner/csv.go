package runner

import (
	"strconv"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// The result's CSV files hold numbers, the unit in each column's name (docs/outputs.md):
// apps.csv and stats.csv here, utilization.csv as fractions (Result.UtilizationFrac). The
// text tables (AppTable, StatsTable) format the same values for people.

// num formats a number exactly (shortest decimal that reads back the same).
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// AppCSV is apps.csv: per application its requests, rates and latency statistics in µs
// (the percentiles of r.Percentiles, or report.DefaultPercentiles).
func (r *Result) AppCSV() *report.Table {
	ps := r.Percentiles.Or(report.DefaultPercentiles)
	h := append([]string{"app", "requests", "req_per_s", "mb_per_s", "mean_us", "stdev_us", "min_us"}, ps.Keys("_us")...)
	t := &report.Table{Title: "applications (" + r.Label + ")", Header: append(h, "max_us")}
	secs := r.window().Seconds()
	us := func(ps int64) string { return num(float64(ps) / float64(sim.Microsecond)) }
	for _, a := range r.Apps {
		h := a.Latency
		row := []string{a.App, strconv.FormatInt(a.Requests, 10), num(float64(a.Requests) / secs), num(r.Throughput(a.App)),
			num(h.Mean() / float64(sim.Microsecond)), num(h.Stdev() / float64(sim.Microsecond)), us(h.Min())}
		for _, v := range ps.Quantiles(h) {
			row = append(row, us(v))
		}
		t.Append(append(row, us(h.Max()))...)
	}
	return t
}

// StatValue is one statistic of the run, named with its unit.
type StatValue struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// StatValues returns the run's statistics as numbers, each named with its unit (the same
// as StatsTable, one value a name).
func (r *Result) StatValues() []StatValue {
	f, b, l, c := r.Firmware, r.Buffer, r.FTL, r.Cache
	us := func(t sim.Time) float64 { return float64(t) / float64(sim.Microsecond) }
	return append([]StatValue{
		{"buffer_capacity_pages", float64(r.BufferPages)},
		{"buffer_peak_occupancy_pages", float64(b.PeakOccupancy)},
		{"buffer_read_hits", float64(b.ReadHits)},
		{"buffer_read_misses", float64(b.ReadMisses)},
		{"evictions_foreground_pages", float64(f.ForegroundEvictions)},
		{"evictions_background_pages", float64(f.BackgroundEvictions)},
		{"writes_stalled", float64(f.Stalls)},
		{"write_stall_time_us", us(f.StallTime)},
		{"fastdrain_mode_switches", float64(len(r.ModeChanges))},
		{"flash_reads_host_pages", float64(f.FlashReads)},
		{"unwritten_read_pages", float64(f.Unmapped)},
		{"pages_programmed_lsb", float64(l.Programmed[0])},
		{"pages_programmed_csb", float64(l.Programmed[1])},
		{"pages_programmed_msb", float64(l.Programmed[2])},
		{"pages_wasted", float64(r.FlashWasted)},
		{"waf", l.WAF()},
		{"gc_runs", float64(f.GCRuns)},
		{"gc_pages_moved", float64(f.GCPagesMoved)},
		{"erases", float64(l.Erases)},
		{"page_victimizations", float64(len(r.Victims))},
		{"pages_written_back", float64(c.PagesWrittenBack)},
		{"writer_throttle_time_us", us(c.ThrottleTime)},
		{"writer_throttle_pauses", float64(c.ThrottlePauses)},
		{"dirty_ratio_switches", float64(len(r.Switches))},
		{"simulated_events", float64(r.Events)},
	}, r.faultValues()...)
}

// faultValues are the fault model's statistics for stats.csv, after the others; none
// without a fault model, so its file is unchanged.
func (r *Result) faultValues() []StatValue {
	h, x := r.Health, r.Faults
	if h == nil {
		return nil
	}
	b2f := func(b bool) float64 {
		if b {
			return 1
		}
		return 0
	}
	return []StatValue{
		{"program_failures", float64(x.ProgramFailures)}, {"erase_failures", float64(x.EraseFailures)},
		{"factory_bad_blocks", float64(x.FactoryBad)}, {"grown_bad_blocks", float64(x.RetiredBlocks)},
		{"pages_reprogrammed", float64(x.Reprograms)}, {"pages_moved_out_of_bad_blocks", float64(x.RetireMoves)},
		{"pages_unplaced", float64(x.Unplaced)}, {"read_retry_steps", float64(x.ReadRetries)},
		{"uncorrectable_page_reads", float64(x.Uncorrectable)}, {"failed_host_reads", float64(x.FailedReads)},
		{"refused_writes", float64(x.RefusedWrites)}, {"spare_blocks_a_die", float64(h.SparePool)},
		{"least_spare_left", float64(h.SpareLeft)}, {"available_spare_percent", float64(h.AvailableSpare)},
		{"critical_warning", float64(h.Log.CriticalWarning)}, {"read_only", b2f(h.ReadOnly)},
		{"read_only_at_us", float64(h.ReadOnlyAt) / float64(sim.Microsecond)}, // 0 while writable
	}
}

// StatsCSV is stats.csv: StatValues as "statistic,value".
func (r *Result) StatsCSV() *report.Table {
	t := &report.Table{Title: "statistics (" + r.Label + ")", Header: []string{"statistic", "value"}}
	for _, s := range r.StatValues() {
		t.Append(s.Name, num(s.Value))
	}
	return t
}
