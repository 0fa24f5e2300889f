package main

import (
	"fmt"
	"strconv"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
)

// engagementTable lists, per app and variant, how much FastDrain's mechanisms were in
// force in the run (runner's engagement statistics, issue 31): hinted writes received and
// acted on, the share of the run in foreground eviction, the foreground writes that landed
// on LSB pages, completions reporting above-high, background pages to idle and busy dies,
// host reads that suspended a program or erase, ratio switches and the share of the run in
// the high dirty-ratio set.
func engagementTable(appsRun, variants []string, cell func(app, v string) runner.Cell) *report.Table {
	t := &report.Table{Title: "engagement of the mechanisms per variant (shares of the measured run)",
		Header: []string{"app", "variant", "hinted recv / acted", "foreground", "fg writes on LSB", "above-high",
			"bg idle / busy dies", "read suspends", "ratio switches", "high set"}}
	for _, a := range appsRun {
		for _, v := range variants {
			r := cell(a, v).Result
			if r == nil {
				continue
			}
			f, l := r.Firmware, r.FTL
			lsb := "-"
			if l.ForegroundWr > 0 {
				lsb = fmt.Sprintf("%.1f%%", 100*float64(l.LSBForFG)/float64(l.ForegroundWr))
			}
			t.Append(a, v, fmt.Sprintf("%d / %d", f.HintedWrites, f.HintActedOn), fmt.Sprintf("%.1f%%", 100*r.ForegroundShare()),
				lsb, strconv.FormatInt(f.AboveHigh, 10), fmt.Sprintf("%d / %d", f.BackgroundIdle, f.BackgroundBusy),
				strconv.FormatInt(f.ReadSuspends, 10), strconv.Itoa(len(r.Switches)),
				fmt.Sprintf("%.1f%%", 100*r.HighSetShare()))
		}
	}
	return t
}

// engagementCSV is engagement.csv: the same per app and variant as numbers (counts, and
// shares as fractions of the measured run).
func engagementCSV(appsRun, variants []string, cell func(app, v string) runner.Cell) *report.Table {
	t := &report.Table{Title: "engagement", Header: []string{"app", "variant", "hinted_writes_received",
		"hinted_writes_acted_on", "foreground_share", "foreground_writes", "foreground_writes_lsb",
		"completions_above_high", "background_pages_idle_dies", "background_pages_busy_dies", "read_suspends",
		"ratio_switches", "high_set_share"}}
	for _, a := range appsRun {
		for _, v := range variants {
			r := cell(a, v).Result
			if r == nil {
				continue
			}
			f, l := r.Firmware, r.FTL
			i := func(n int64) string { return strconv.FormatInt(n, 10) }
			t.Append(a, v, i(f.HintedWrites), i(f.HintActedOn), exact(r.ForegroundShare()), i(l.ForegroundWr),
				i(l.LSBForFG), i(f.AboveHigh), i(f.BackgroundIdle), i(f.BackgroundBusy), i(f.ReadSuspends),
				strconv.Itoa(len(r.Switches)), exact(r.HighSetShare()))
		}
	}
	return t
}
