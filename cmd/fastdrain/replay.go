package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/replay"
	"github.com/fastdrain-sim/fastdrain/hostos/trace"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
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
	m, dev, err := simDevice(&rf.cf)
	if err != nil {
		return err
	}
	defer m.Eng.Close()
	smp := traceMachine(m, tl)
	fit := replay.FitOptions(topt, dev)
	var src replay.Source
	var st trace.Stats
	var format trace.Format
	var rd *trace.Reader
	if rf.sort {
		// The whole trace, read twice and sorted by time (trace.ReadSorted).
		reqs, sst, f, err := trace.ReadSorted(path, fit)
		if err != nil {
			return err
		}
		src, st, format = replay.FromSlice(reqs), sst, f
	} else {
		tf, err := os.Open(path)
		if err != nil {
			return err
		}
		defer tf.Close()
		if rd, err = trace.NewReader(tf, path, fit); err != nil {
			return err
		}
		src = rd
	}
	var rp *replay.Replay
	var runErr error
	before := m.SSD.FW.Stats
	wasted0 := m.SSD.FW.FTL().Stats.Wasted
	m.Eng.Spawn("replay", func(p *sim.Proc) {
		if rp, runErr = replay.Start(p.Engine(), dev, src, ropt); runErr == nil {
			rp.Wait(p)
			runErr = rp.Err()
		}
		m.Eng.Stop()
	})
	m.Eng.Run()
	if runErr != nil {
		return runErr
	}
	pl, rec, err := runner.CutOutcome(m)
	if err != nil {
		return err
	}
	if pl != nil {
		rp.Stop() // the cut stopped the replay: report what completed before it
	}
	res := rp.Result()
	if rd != nil {
		st, format = rd.Stats(), rd.Format()
	}
	if smp != nil {
		if err := rf.tl.write(tl, cmd.ErrOrStderr(), smp.Series()); err != nil {
			return err
		}
	}
	if st.Requests == 0 {
		return fmt.Errorf("%s: no requests in the trace (%d lines: %d ignored by design, %d malformed and skipped)",
			path, st.Lines, st.Ignored, st.Skipped)
	}
	ssd := runner.MachineStats(m, "replay", wasted0)
	ssd.PowerLoss, ssd.Recovery = pl, rec
	sum := newReplaySummary(path, format, fit, st, res, rf.pcts.list, ssd)
	sum.UnwrittenReadPages = warnUnwritten(cmd.ErrOrStderr(), "", m.SSD.FW.Stats, before)
	stderr := cmd.ErrOrStderr()
	for _, w := range st.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	if st.WarningsDropped > 0 {
		fmt.Fprintf(stderr, "warning: %d more malformed lines skipped\n", st.WarningsDropped)
	}
	if st.Wrapped > 0 {
		fmt.Fprintf(stderr, "warning: %d of %d requests were past the device's %s and wrapped around it (--past-capacity reject refuses them)\n",
			st.Wrapped, st.Requests, mb(fit.Capacity))
	}
	if st.Rounded > 0 {
		fmt.Fprintf(stderr, "note: %d requests were rounded out to %d B blocks: %s asked, %s moved\n",
			st.Rounded, fit.SectorSize, mb(st.ReadBytesAsked+st.WriteBytesAsked), mb(st.ReadBytes+st.WriteBytes))
	}
	err = rf.write(func(out io.Writer) error {
		fmt.Fprintf(out, "%s (%s): %d lines, %d requests (%d reads, %d writes, %d trims, %d flushes), %d skipped; replayed %d in %s simulated, %.0f IOPS\n",
			path, sum.TraceFormat, st.Lines, st.Requests, st.Reads, st.Writes, st.Trims, st.Flushes, st.Skipped,
			res.Requests, report.Duration(res.LastCompletion-res.Start), sum.IOPS)
		if res.Late > 0 {
			fmt.Fprintf(out, "%d requests issued late (device saturated)\n", res.Late)
		}
		if pl != nil {
			fmt.Fprintf(out, "%s; the replay's results are of the requests completed before it; %d requests in flight at the cut never completed\n",
				runner.CutLine(pl), res.Unfinished)
		}
		err := sum.table().WriteText(out)
		if err == nil && len(sum.Devices) > 2 { // more than one device and the "all" row
			fmt.Fprintln(out)
			err = sum.deviceTable().WriteText(out)
		}
		if err == nil {
			fmt.Fprintln(out)
			err = sum.statsTable.WriteText(out)
		}
		if err == nil && sum.PowerLoss != nil {
			fmt.Fprintln(out)
			err = sum.PowerLoss.WriteText(out)
		}
		if notes := replayNotes(res, ssd); err == nil && len(notes) > 0 {
			fmt.Fprintln(out)
			runner.WriteNotes(out, "replay", notes)
		}
		return err
	}, sum.writeJSON, sum.table().WriteCSV)
	if err != nil {
		return err
	}
	dir, err := rf.runDir(fileStem(path) + "-" + rf.cf.preset)
	if err != nil || dir == "" {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "results written to %s\n", dir)
	if err := report.WriteFile(filepath.Join(dir, "replay.json"), sum.writeJSON); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		t    *report.Table
	}{{"replay.csv", sum.table()}, {"replay-devices.csv", sum.deviceTable()}, {"replay-stats.csv", sum.statsCSV()}} {
		if err := f.t.SaveCSV(filepath.Join(dir, f.name)); err != nil {
			return err
		}
	}
	return nil
}

// mb formats bytes as decimal megabytes (10⁶ B) with one decimal.
func mb(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/1e6) }
