package replayrun

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/replay"
	"github.com/fastdrain-sim/fastdrain/hostos/trace"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// TraceFormats are the --trace-format names besides auto.
var TraceFormats = []string{"disksim", "replayer", "msr", "spc", "blkparse", "vscsi", "vscsi-bin"}

// Flags are the values of fastdrain replay's flags that set how a trace is read and
// replayed, each named after its flag. ParseOptions turns them into Options.
type Flags struct {
	TraceFormat  string // --trace-format: auto or one of TraceFormats
	Mode         string // --mode: timed or afap
	TimeScale    string // --time-scale: a ratio such as 1/2 or 0.25
	PastCapacity string // --past-capacity: wrap or reject
	DeviceStride string // --device-stride: a size, or "" for all devices at offset 0
	QueueDepth   int    // --qd
	Max          int    // --max: at most this many requests (0 = all)
	Lenient      bool   // --lenient
	Sort         bool   // --sort
}

// DefaultFlags returns the flags' defaults.
func DefaultFlags() Flags {
	return Flags{TraceFormat: "auto", Mode: "afap", TimeScale: "1", PastCapacity: "wrap", QueueDepth: 32}
}

// ParseOptions checks the flags and turns them into the trace reader's and the replayer's
// options (Trace, Replay and Sort); every error names its flag and what is wrong.
func ParseOptions(f Flags) (Options, error) {
	var errs []error
	o := Options{Trace: trace.DefaultOptions(), Replay: replay.DefaultOptions(), Sort: f.Sort}
	topt := &o.Trace
	if f.TraceFormat != "auto" {
		tf, err := trace.ParseFormat(f.TraceFormat)
		if err != nil {
			errs = append(errs, fmt.Errorf("--trace-format: %w", err))
		}
		topt.Format = tf
	}
	r, err := trace.ParseRatio(f.TimeScale)
	if err != nil {
		errs = append(errs, fmt.Errorf("--time-scale: %w", err))
	}
	topt.TimeScale = r
	switch f.PastCapacity {
	case "wrap":
		topt.PastCapacity = trace.Wrap
	case "reject":
		topt.PastCapacity = trace.Reject
	default:
		errs = append(errs, fmt.Errorf("--past-capacity %q: want wrap or reject", f.PastCapacity))
	}
	topt.Lenient = f.Lenient
	if f.DeviceStride != "" {
		// Every device of the trace goes to its own region of the one namespace.
		sz, err := sim.ParseSize(f.DeviceStride)
		if err != nil || sz <= 0 {
			errs = append(errs, fmt.Errorf("--device-stride %q: want a size such as 8GiB", f.DeviceStride))
		}
		topt.Devices, topt.DeviceStride = trace.Merged, int64(sz)
	}
	ropt := &o.Replay
	if ropt.Mode, err = replay.ParseMode(f.Mode); err != nil {
		errs = append(errs, fmt.Errorf("--mode: %w", err))
	}
	// The replayer reads a zero depth as its default; on the command line 0 is a mistake.
	if f.QueueDepth < 1 || f.QueueDepth > replay.MaxDepth {
		errs = append(errs, fmt.Errorf("--qd %d: want 1 … %d outstanding requests", f.QueueDepth, replay.MaxDepth))
	}
	if f.Max < 0 {
		errs = append(errs, fmt.Errorf("--max %d: want 0 (all) or a positive count", f.Max))
	}
	ropt.QueueDepth, ropt.MaxRequests = f.QueueDepth, int64(f.Max)
	return o, errors.Join(append(errs, ropt.Validate())...)
}
