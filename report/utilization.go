package report

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// UtilizationTable builds a table of how busy each resource was between start and end, one
// row per resource and one column per activity (in the order activities first appear across
// the resources), plus the total busy share. start holds each resource's snapshot at the
// beginning of the window, in the same order as res; nil means the window starts at time 0
// with nothing recorded. Values are percentages of the window with one decimal.
func UtilizationTable(title string, res []*sim.Resource, start []sim.Snapshot, end sim.Time) *Table {
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
	t := &Table{Title: title, Header: append(append([]string{"resource"}, acts...), "busy")}
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
			row = append(row, Percent(v))
		}
		row = append(row, Percent(1-u[0]))
		t.Append(row...)
	}
	return t
}

// Percent formats a fraction as a percentage with one decimal ("37.5%").
func Percent(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }
