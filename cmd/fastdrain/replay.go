package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/replay"
	"github.com/fastdrain-sim/fastdrain/hostos/trace"
	"github.com/fastdrain-sim/fastdrain/runner/replayrun"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
)

// traceFormats are the --trace-format names besides auto.
var traceFormats = []string{"disksim", "replayer", "msr", "spc", "blkparse", "vscsi", "vscsi-bin"}

// replayFlags are the flags of the replay command.
type replayFlags struct {
	cf                           configFlags
	traceFormat, mode, timeScale string
	past, records, stride        string
	qd, maxReq                   int
	lenient, sort                bool
	outputFlags
}

func newReplay() *cobra.Command {
	rf := &replayFlags{}
	cmd := &cobra.Command{
		Use:   "replay TRACE",
		Short: "Replay a block trace on a simulated platform",
		Long: `replay reads a block trace (DiskSim ASCII, the replayer/heimdall ASCII, MSR Cambridge CSV,
UMass SPC, blkparse text, the vSCSI CSV or the binary vSCSI v1/v2 records the CloudPhysics
traces are published in; the format is detected unless --trace-format names
it) and issues its requests to the simulated raw block device, timed (at the trace's times,
scaled by --time-scale) or as fast as possible at --qd. It prints, per operation, requests,
IOPS, the bytes the trace asked for and the bytes moved after rounding each request out to
the device's 4 KiB blocks (both named), MB/s, and latency mean, p50, p90, p99, p99.9 and max;
--format json or csv prints the same as numbers with units in the field names, and
--out/replay/ gets replay.json and replay.csv (unless --no-files). The same numbers per device
of the trace (MSR disk, SPC ASU, blkparse device) follow, and the simulated SSD's statistics
as run reports them (replay-devices.csv, replay-stats.csv); --percentiles changes the
percentiles of every output. Addresses past the device are wrapped (counted,
with a warning) or rejected (--past-capacity). An empty trace is an error.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return rf.run(cmd, args[0]) },
	}
	rf.cf.register(cmd, "fastdrain-small")
	rf.outputFlags.register(cmd, "replay", "json: replay.json's document; csv: replay.csv's table", "0s:100ms",
		"every table, replay.json and the CSV files")
	f := cmd.Flags()
	f.StringVar(&rf.traceFormat, "trace-format", "auto", "trace format: auto, "+strings.Join(traceFormats, ", "))
	f.StringVar(&rf.mode, "mode", "afap", "timed or afap (as fast as possible)")
	f.StringVar(&rf.timeScale, "time-scale", "1", "multiply trace times by this ratio, e.g. 1/2 or 0.25")
	f.StringVar(&rf.past, "past-capacity", "wrap", "addresses past the device: wrap or reject")
	f.IntVar(&rf.qd, "qd", 32, fmt.Sprintf("outstanding requests in afap mode, 1 … %d", replay.MaxDepth))
	f.IntVar(&rf.maxReq, "max", 0, "replay at most this many requests (0 = all)")
	f.BoolVar(&rf.lenient, "lenient", false, "skip malformed lines with a warning instead of stopping")
	f.BoolVar(&rf.sort, "sort", false, "sort a trace whose lines are out of time order (reads it twice and holds it in memory, about 56 B a request)")
	f.StringVar(&rf.records, "records", "", "write every request's issue time and latency to this CSV file")
	f.StringVar(&rf.stride, "device-stride", "", "place trace device d at offset d × this size (default: all devices share offset 0)")
	return cmd
}

// options checks the flags and turns them into the trace reader's and the replayer's
// options; every error names its flag.
func (rf *replayFlags) options() (trace.Options, replay.Options, error) {
	var errs []error
	topt := trace.DefaultOptions()
	if rf.traceFormat != "auto" {
		f, err := trace.ParseFormat(rf.traceFormat)
		if err != nil {
			errs = append(errs, fmt.Errorf("--trace-format: %w", err))
		}
		topt.Format = f
	}
	if err := rf.outputFlags.parse(); err != nil {
		if _, terr := trace.ParseFormat(rf.format); terr == nil {
			err = fmt.Errorf("%w (the output format; the trace's format is --trace-format %s)", err, rf.format)
		}
		errs = append(errs, err)
	}
	r, err := trace.ParseRatio(rf.timeScale)
	if err != nil {
		errs = append(errs, fmt.Errorf("--time-scale: %w", err))
	}
	topt.TimeScale = r
	switch rf.past {
	case "wrap":
		topt.PastCapacity = trace.Wrap
	case "reject":
		topt.PastCapacity = trace.Reject
	default:
		errs = append(errs, fmt.Errorf("--past-capacity %q: want wrap or reject", rf.past))
	}
	topt.Lenient = rf.lenient
	if rf.stride != "" {
		// Every device of the trace goes to its own region of the one namespace.
		sz, err := sim.ParseSize(rf.stride)
		if err != nil || sz <= 0 {
			errs = append(errs, fmt.Errorf("--device-stride %q: want a size such as 8GiB", rf.stride))
		}
		topt.Devices, topt.DeviceStride = trace.Merged, int64(sz)
	}
	ropt := replay.DefaultOptions()
	if ropt.Mode, err = replay.ParseMode(rf.mode); err != nil {
		errs = append(errs, fmt.Errorf("--mode: %w", err))
	}
	// The replayer reads a zero depth as its default; on the command line 0 is a mistake.
	if rf.qd < 1 || rf.qd > replay.MaxDepth {
		errs = append(errs, fmt.Errorf("--qd %d: want 1 … %d outstanding requests", rf.qd, replay.MaxDepth))
	}
	if rf.maxReq < 0 {
		errs = append(errs, fmt.Errorf("--max %d: want 0 (all) or a positive count", rf.maxReq))
	}
	ropt.QueueDepth, ropt.MaxRequests = rf.qd, int64(rf.maxReq)
	return topt, ropt, errors.Join(append(errs, ropt.Validate())...)
}

func (rf *replayFlags) run(cmd *cobra.Command, path string) error {
	topt, ropt, err := rf.options()
	if err != nil {
		return err
	}
	if rf.records != "" {
		f, err := os.Create(rf.records)
		if err != nil {
			return fmt.Errorf("--records: %w", err)
		}
		defer f.Close()
		ropt.Records = f
	}
	tl, err := rf.tl.build()
	if err != nil {
		return err
	}
	m, err := openMachine(&rf.cf)
	if err != nil {
		return err
	}
	defer m.Close()
	res, err := replayrun.Run(m, path, replayrun.Options{Trace: topt, Replay: ropt, Sort: rf.sort, Timeline: tl, Percentiles: rf.pcts.list})
	if err != nil {
		return err
	}
	if err := rf.tl.write(tl, cmd.ErrOrStderr(), m.Series()); err != nil {
		return err
	}
	if err := res.Empty(); err != nil {
		return err
	}
	res.WriteWarnings(cmd.ErrOrStderr())
	if err := rf.write(res.WriteText, res.Summary.WriteJSON, res.Summary.Table().WriteCSV); err != nil {
		return err
	}
	dir, err := rf.runDir(fileStem(path) + "-" + rf.cf.preset)
	if err != nil || dir == "" {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "results written to %s\n", dir)
	return res.WriteDir(dir)
}
