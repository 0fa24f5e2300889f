package main

import (
	"fmt"
	"strconv"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
)

// engagement is one run's engagement of FastDrain's mechanisms, as compare shows it
// (runner's engagement statistics, issue 31): hinted writes received and acted on, the
// share of the run in foreground eviction, the foreground writes and those that landed on
// LSB pages, completions reporting above-high, background pages to idle and busy dies,
// host reads that suspended a program or erase, ratio switches and the share of the run in
// the high dirty-ratio set.
type engagement struct {
	hinted, acted, fgWrites, fgLSB, aboveHigh, bgIdle, bgBusy, suspends int64
	fgShare, highShare                                                  float64
	switches                                                            int
}

// engagementOf reads r's engagement.
func engagementOf(r *runner.Result) engagement {
	f, l := r.Firmware, r.FTL
	return engagement{hinted: f.HintedWrites, acted: f.HintActedOn, fgWrites: l.ForegroundWr, fgLSB: l.LSBForFG,
		aboveHigh: f.AboveHigh, bgIdle: f.BackgroundIdle, bgBusy: f.BackgroundBusy, suspends: f.ReadSuspends,
		fgShare: r.ForegroundShare(), highShare: r.HighSetShare(), switches: len(r.Switches)}
}

// engagementRows calls row for each app and variant that ran, in order.
func engagementRows(appsRun, variants []string, cell func(app, v string) runner.Cell, row func(a, v string, e engagement)) {
	for _, a := range appsRun {
		for _, v := range variants {
			if r := cell(a, v).Result; r != nil {
				row(a, v, engagementOf(r))
			}
		}
	}
}

// engagementTable is compare's text table of engagement per app and variant (shares as
// percentages of the measured run).
func engagementTable(appsRun, variants []string, cell func(app, v string) runner.Cell) *report.Table {
	t := &report.Table{Title: "engagement of the mechanisms per variant (shares of the measured run)",
		Header: []string{"app", "variant", "hinted recv / acted", "foreground", "fg writes on LSB", "above-high",
			"bg idle / busy dies", "read suspends", "ratio switches", "high set"}}
	pct := func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
	engagementRows(appsRun, variants, cell, func(a, v string, e engagement) {
		lsb := "-"
		if e.fgWrites > 0 {
			lsb = pct(float64(e.fgLSB) / float64(e.fgWrites))
		}
		t.Append(a, v, fmt.Sprintf("%d / %d", e.hinted, e.acted), pct(e.fgShare), lsb, strconv.FormatInt(e.aboveHigh, 10),
			fmt.Sprintf("%d / %d", e.bgIdle, e.bgBusy), strconv.FormatInt(e.suspends, 10), strconv.Itoa(e.switches),
			pct(e.highShare))
	})
	return t
}

// engagementCSV is engagement.csv: the same per app and variant as numbers (counts, and
// shares as fractions of the measured run).
func engagementCSV(appsRun, variants []string, cell func(app, v string) runner.Cell) *report.Table {
	t := &report.Table{Title: "engagement", Header: []string{"app", "variant", "hinted_writes_received",
		"hinted_writes_acted_on", "foreground_share", "foreground_writes", "foreground_writes_lsb",
		"completions_above_high", "background_pages_idle_dies", "background_pages_busy_dies", "read_suspends",
		"ratio_switches", "high_set_share"}}
	i := func(n int64) string { return strconv.FormatInt(n, 10) }
	engagementRows(appsRun, variants, cell, func(a, v string, e engagement) {
		t.Append(a, v, i(e.hinted), i(e.acted), exact(e.fgShare), i(e.fgWrites), i(e.fgLSB), i(e.aboveHigh), i(e.bgIdle),
			i(e.bgBusy), i(e.suspends), strconv.Itoa(e.switches), exact(e.highShare))
	})
	return t
}
