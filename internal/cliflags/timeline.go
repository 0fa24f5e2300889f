package cliflags

import (
	"fmt"
	"io"

	"github.com/fastdrain-sim/fastdrain/internal/listflag"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
)

// Timeline are the --timeline flags every simulating command shares (run, replay, fio,
// flashbench).
type Timeline struct {
	path, window, tracks, skip string
	max                        int
	trace                      *report.Timeline // built by Output.Parse
}

// Register adds --timeline and --timeline-* to cmd, window being --timeline-window's default.
func (tf *Timeline) Register(cmd *cobra.Command, window string) {
	f := cmd.Flags()
	f.StringVar(&tf.path, "timeline", "", "write a Perfetto/Chrome trace-event JSON of the resources to this file (gzip when it ends in .gz)")
	f.StringVar(&tf.window, "timeline-window", window, "simulated time window of the timeline, FROM:TO")
	f.StringVar(&tf.tracks, "timeline-tracks", "", "keep only tracks whose name contains one of these comma-separated substrings; -S excludes S (e.g. ch[0],-die[)")
	f.StringVar(&tf.skip, "timeline-skip", "refresh", "activities left out of the timeline, comma-separated (empty: none); DRAM refresh is about half of a DRAM track otherwise")
	f.IntVar(&tf.max, "timeline-max", 2_000_000, "most intervals, command slices and flow arrows recorded; past it the file is marked truncated and a warning says where")
}

// build makes the timeline the flags ask for (none without --timeline); Output.Parse
// calls it, so a bad --timeline-* is reported with the other flags.
func (tf *Timeline) build() error {
	tf.trace = nil
	if tf.path == "" {
		return nil
	}
	from, to, err := report.ParseWindow(tf.window)
	if err != nil {
		return fmt.Errorf("--timeline-window %q: %w", tf.window, err)
	}
	if tf.max < 1 {
		return fmt.Errorf("--timeline-max %d: want a positive count of intervals", tf.max)
	}
	tf.trace = report.NewTimeline(from, to)
	tf.trace.MaxEvents, tf.trace.Tracks, tf.trace.Skip = tf.max, listflag.Split(tf.tracks), listflag.Split(tf.skip)
	return nil
}

// Trace returns the timeline to record the run into, or nil without --timeline (after
// Output.Parse).
func (tf *Timeline) Trace() *report.Timeline { return tf.trace }

// Write saves the timeline with the run's sampled series as counter tracks, and warns on
// stderr when the cap truncated it or the filter kept nothing; without --timeline it does
// nothing.
func (tf *Timeline) Write(stderr io.Writer, counters []*sim.Series) error {
	tl := tf.trace
	if tl == nil {
		return nil
	}
	tl.AddCounters(counters...)
	if tl.NumTracks() == 0 && tl.Spans() == 0 { // a filter may keep only the command slot tracks
		fmt.Fprintf(stderr, "warning: --timeline-tracks %q kept no track\n", tf.tracks)
	}
	if tl.Dropped > 0 {
		fmt.Fprintf(stderr, "warning: the timeline reached --timeline-max %d intervals at %s; %d later intervals were not recorded (the file marks the point; narrow --timeline-window or --timeline-tracks)\n",
			tf.max, report.Duration(tl.TruncatedAt), tl.Dropped)
	}
	return tl.Save(tf.path)
}
