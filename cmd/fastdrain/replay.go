package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/replay"
	"github.com/fastdrain-sim/fastdrain/hostos/trace"
	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/fastdrain-sim/fastdrain/runner/replayrun"
	"github.com/spf13/cobra"
)

// replayFlags are the flags of the replay command.
type replayFlags struct {
	cf      cliflags.Config
	fl      replayrun.Flags
	records string
	cliflags.Output
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
	rf.cf.Register(cmd, "fastdrain-small")
	rf.Output.Register(cmd, "replay", "json: replay.json's document; csv: replay.csv's table", "0s:100ms",
		"every table, replay.json and the CSV files")
	rf.fl = replayrun.DefaultFlags()
	f, fl := cmd.Flags(), &rf.fl
	f.StringVar(&fl.TraceFormat, "trace-format", fl.TraceFormat, "trace format: auto, "+strings.Join(replayrun.TraceFormats, ", "))
	f.StringVar(&fl.Mode, "mode", fl.Mode, "timed or afap (as fast as possible)")
	f.StringVar(&fl.TimeScale, "time-scale", fl.TimeScale, "multiply trace times by this ratio, e.g. 1/2 or 0.25")
	f.StringVar(&fl.PastCapacity, "past-capacity", fl.PastCapacity, "addresses past the device: wrap or reject")
	f.IntVar(&fl.QueueDepth, "qd", fl.QueueDepth, fmt.Sprintf("outstanding requests in afap mode, 1 … %d", replay.MaxDepth))
	f.IntVar(&fl.Max, "max", 0, "replay at most this many requests (0 = all)")
	f.BoolVar(&fl.Lenient, "lenient", false, "skip malformed lines with a warning instead of stopping")
	f.BoolVar(&fl.Sort, "sort", false, "sort a trace whose lines are out of time order (reads it twice and holds it in memory, about 56 B a request)")
	f.StringVar(&rf.records, "records", "", "write every request's issue time and latency to this CSV file")
	f.StringVar(&fl.DeviceStride, "device-stride", "", "place trace device d at offset d × this size (default: all devices share offset 0)")
	return cmd
}

// options checks the flags (replayrun.ParseOptions and the output flags); every error
// names its flag.
func (rf *replayFlags) options() (replayrun.Options, error) {
	o, err := replayrun.ParseOptions(rf.fl)
	if oerr := rf.Output.Parse(); oerr != nil {
		if _, terr := trace.ParseFormat(rf.Format); terr == nil {
			oerr = fmt.Errorf("%w (the output format; the trace's format is --trace-format %s)", oerr, rf.Format)
		}
		err = errors.Join(oerr, err)
	}
	o.Percentiles = rf.Percentiles.List
	return o, err
}

func (rf *replayFlags) run(cmd *cobra.Command, path string) error {
	o, err := rf.options()
	if err != nil {
		return err
	}
	if rf.records != "" {
		f, err := os.Create(rf.records)
		if err != nil {
			return fmt.Errorf("--records: %w", err)
		}
		defer f.Close()
		o.Replay.Records = f
	}
	o.Timeline = rf.Timeline.Trace()
	m, err := openMachine(&rf.cf)
	if err != nil {
		return err
	}
	defer m.Close()
	res, err := replayrun.Run(m, path, o)
	if err != nil {
		return err
	}
	if err := rf.Timeline.Write(cmd.ErrOrStderr(), m.Series()); err != nil {
		return err
	}
	if err := res.Empty(); err != nil {
		return err
	}
	res.WriteWarnings(cmd.ErrOrStderr())
	if err := rf.Write(res.WriteText, res.Summary.WriteJSON, res.Summary.Table().WriteCSV); err != nil {
		return err
	}
	return rf.Save(cliflags.FileStem(path)+"-"+rf.cf.Preset, res.WriteDir)
}
