package report

import (
	"fmt"
	"strconv"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// UtilizationTable builds a table of how busy each resource was between start and end, one
// row per resource and one column per activity (in the order activities first appear across
// the resources), plus the total busy share. start holds each resource's snapshot at the
// beginning of the window, in the same order as res; nil means the window starts at time 0
// with nothing recorded. Values are percentages of the window with one decimal.
func UtilizationTable(title string, res []*sim.Resource, start []sim.Snapshot, end sim.Time) *Table {
	return utilization(title, res, start, end, Percent, "")
}

// UtilizationFractions is UtilizationTable for files: each share a fraction of the window
// (0 … 1, shortest exact decimal), the columns named "<activity>_frac" and "busy_frac".
func UtilizationFractions(title string, res []*sim.Resource, start []sim.Snapshot, end sim.Time) *Table {
	return utilization(title, res, start, end, func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }, "_frac")
}

// utilization builds the table with cell formatting each share and suffix naming the
// share columns.
func utilization(title string, res []*sim.Resource, start []sim.Snapshot, end sim.Time, cell func(float64) string, suffix string) *Table {
	var acts []string
	seen := map[string]bool{}
	for _, r := range res {
		for _, a := range r.Activities()[1:] {
			if !seen[a] {
				seen[a] = true
				acts = append(acts, a)
			}
		}
	}
	t := &Table{Title: title, Header: []string{"resource"}}
	for _, a := range acts {
		t.Header = append(t.Header, a+suffix)
	}
	t.Header = append(t.Header, "busy"+suffix)
	for i, r := range res {
		from := sim.Snapshot{Busy: make([]sim.Time, len(r.Activities()))}
		if start != nil {
			from = start[i]
		}
		u := sim.Utilization(from, r.Snapshot(end))
		names := r.Activities()
		row := make([]string, 0, len(t.Header))
		row = append(row, r.Name())
		for _, a := range acts {
			v := 0.0
			for id, n := range names {
				if n == a && id > 0 {
					v = u[id]
				}
			}
			row = append(row, cell(v))
		}
		row = append(row, cell(1-u[0]))
		t.Append(row...)
	}
	return t
}

// Percent formats a fraction as a percentage with one decimal ("37.5%").
func Percent(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }
