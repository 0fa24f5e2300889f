package runner

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/pagecache"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// The engagement of FastDrain's mechanisms in a run (issue 31): how much each was in force,
// for the statistics table, stats.csv and result.json. The counters are the firmware's
// (firmware.Stats, the FTL's foreground counts) and the host's (the NVMe driver's hinted
// writes, the page cache's ratio switches); the time shares are of the measured window.

// ForegroundShare returns the share of the measured window the firmware's evictor spent in
// foreground mode.
func (r *Result) ForegroundShare() float64 {
	return float64(r.ForegroundWindow) / float64(r.window())
}

// HighSetTime returns the time the page cache's high dirty-ratio set (FastDrain's adaptive
// scheduling) was in force within the measured window.
func (r *Result) HighSetTime() sim.Time { return highSetTime(r.Switches, r.Began, r.Ended) }

// HighSetShare returns HighSetTime as a share of the measured window.
func (r *Result) HighSetShare() float64 { return float64(r.HighSetTime()) / float64(r.window()) }

// highSetTime sums, over [from, to), the spans in which the last switch in sw (in time
// order) put the high set in force; before the first switch the low set is.
func highSetTime(sw []pagecache.RatioSwitch, from, to sim.Time) sim.Time {
	var total sim.Time
	high, since := false, from
	for _, s := range sw {
		t := min(max(s.At, from), to)
		if high {
			total += t - since
		}
		high, since = s.High, t
	}
	if high && to > since {
		total += to - since
	}
	return total
}

// share formats d and its share of the measured window.
func (r *Result) share(d sim.Time) string {
	return fmt.Sprintf("%s (%.1f%%)", report.Duration(d), 100*float64(d)/float64(r.window()))
}

// engagementRows returns the statistics table's engagement rows, in order.
func (r *Result) engagementRows() [][2]string {
	f, l := r.Firmware, r.FTL
	return [][2]string{
		{"hinted writes sent (host) / received / acted on", fmt.Sprintf("%d / %d / %d", r.HintedSent, f.HintedWrites, f.HintActedOn)},
		{"foreground episodes started by the hint", fmt.Sprint(f.HintEpisodes)},
		{"time in foreground eviction", r.share(r.ForegroundWindow)},
		{"foreground writes on LSB pages", fmt.Sprintf("%d of %d", l.LSBForFG, l.ForegroundWr)},
		{"foreground writes on LSB after skipping / on CSB-MSB (bounded)", fmt.Sprintf("%d / %d", l.LSBAfterSkip, l.FGBounded)},
		{"foreground: dies passed over for want of an LSB page / fallback rounds", fmt.Sprintf("%d / %d", f.ForegroundSlowDies, f.ForegroundFallbacks)},
		{"completions reporting above-high", fmt.Sprint(f.AboveHigh)},
		{"background pages to idle / busy dies", fmt.Sprintf("%d / %d", f.BackgroundIdle, f.BackgroundBusy)},
		{"host flash reads behind flash work / behind a background program", fmt.Sprintf("%d / %d", f.ReadsBehindArray, f.ReadsBehindBackground)},
		{"host reads that suspended a program or erase", fmt.Sprint(f.ReadSuspends)},
		{"time in the high dirty-ratio set", r.share(r.HighSetTime())},
	}
}

// engagementValues returns the engagement statistics as numbers, each named with its unit
// (stats.csv, StatValues).
func (r *Result) engagementValues() []StatValue {
	f, l := r.Firmware, r.FTL
	us := func(t sim.Time) float64 { return float64(t) / float64(sim.Microsecond) }
	hi := r.HighSetTime()
	return []StatValue{
		{"hinted_writes_sent", float64(r.HintedSent)},
		{"hinted_writes_received", float64(f.HintedWrites)},
		{"hinted_writes_acted_on", float64(f.HintActedOn)},
		{"hint_foreground_episodes", float64(f.HintEpisodes)},
		{"foreground_time_us", us(r.ForegroundWindow)},
		{"foreground_time_share", r.ForegroundShare()},
		{"foreground_writes", float64(l.ForegroundWr)},
		{"foreground_writes_lsb", float64(l.LSBForFG)},
		{"foreground_writes_lsb_after_skip", float64(l.LSBAfterSkip)},
		{"foreground_writes_bounded", float64(l.FGBounded)},
		{"foreground_slow_dies", float64(f.ForegroundSlowDies)},
		{"foreground_fallback_rounds", float64(f.ForegroundFallbacks)},
		{"completions_above_high", float64(f.AboveHigh)},
		{"background_pages_idle_dies", float64(f.BackgroundIdle)},
		{"background_pages_busy_dies", float64(f.BackgroundBusy)},
		{"reads_behind_flash_work", float64(f.ReadsBehindArray)},
		{"reads_behind_background_program", float64(f.ReadsBehindBackground)},
		{"read_suspends", float64(f.ReadSuspends)},
		{"high_ratio_set_time_us", us(hi)},
		{"high_ratio_set_share", r.HighSetShare()},
	}
}
