package main

import (
	"fmt"
	"path/filepath"

	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/fastdrain-sim/fastdrain/runner"
)

// countEventsUsage is the help of --count-events.
const countEventsUsage = "count the engine events of the run by layer, handler and kind, and the work booked on each processor, per host I/O (docs/performance.md, the event budget): a table after the statistics (on standard error with --format json or csv) and events.csv"

// writeEventCounts prints the --count-events table of ios host I/Os where status lines go
// (standard output with --format text, else standard error) and saves it as events.csv
// under the command's output directory; it does nothing when events were not counted (nil).
func writeEventCounts(o cliflags.Output, events *runner.EventCounts, ios int64) error {
	if events == nil {
		return nil
	}
	t := events.Table(ios)
	w := o.Status()
	fmt.Fprintln(w)
	if err := t.Text().WriteText(w); err != nil {
		return err
	}
	if dir := o.Dir(); dir != "" {
		return t.Numbers().SaveCSV(filepath.Join(dir, "events.csv"))
	}
	return nil
}
