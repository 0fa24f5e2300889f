package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/replay"
	"github.com/fastdrain-sim/fastdrain/hostos/trace"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
)

// simDevice builds the machine of cf and returns it with its raw block device.
func simDevice(cf *configFlags) (*platforms.Machine, *hostos.RawDevice, error) {
	c, err := cf.load()
	if err != nil {
		return nil, nil, err
	}
	m, err := platforms.Build(c)
	if err != nil {
		return nil, nil, err
	}
	capacity := m.SSD.FW.LogicalPages() * int64(c.Firmware.PageSize)
	dev, err := hostos.NewRawDevice(m.Host, capacity)
	if err != nil {
		return nil, nil, err
	}
	return m, dev, nil
}

func writeWith(path string, fill func(*os.File) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fill(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func newReplay() *cobra.Command {
	cf := &configFlags{}
	var format, mode, timeScale, past, records, stride string
	var qd, maxReq int
	var lenient bool
	cmd := &cobra.Command{
		Use:   "replay TRACE",
		Short: "Replay a block trace on a simulated platform",
		Long: `replay reads a block trace (DiskSim ASCII, the replayer/heimdall ASCII, MSR Cambridge CSV,
UMass SPC, blkparse text or the vSCSI CSV; the format is detected unless --format names it)
and issues its requests to the simulated raw block device, timed (at the trace's times,
scaled by --time-scale) or as fast as possible at --qd, and prints latency per operation.
Addresses past the device are wrapped or rejected (--past-capacity).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var errs []error
			topt := trace.DefaultOptions()
			if format != "auto" {
				f, err := trace.ParseFormat(format)
				if err != nil {
					errs = append(errs, fmt.Errorf("--format: %w", err))
				}
				topt.Format = f
			}
			r, err := trace.ParseRatio(timeScale)
			if err != nil {
				errs = append(errs, fmt.Errorf("--time-scale: %w", err))
			}
			topt.TimeScale = r
			switch past {
			case "wrap":
				topt.PastCapacity = trace.Wrap
			case "reject":
				topt.PastCapacity = trace.Reject
			default:
				errs = append(errs, fmt.Errorf("--past-capacity %q: want wrap or reject", past))
			}
			topt.Lenient = lenient
			if stride != "" {
				// Every device of the trace goes to its own region of the one namespace.
				sz, err := sim.ParseSize(stride)
				if err != nil || sz <= 0 {
					errs = append(errs, fmt.Errorf("--device-stride %q: want a size such as 8GiB", stride))
				}
				topt.Devices, topt.DeviceStride = trace.Merged, int64(sz)
			}
			ropt := replay.DefaultOptions()
			if ropt.Mode, err = replay.ParseMode(mode); err != nil {
				errs = append(errs, fmt.Errorf("--mode: %w", err))
			}
			ropt.QueueDepth, ropt.MaxRequests = qd, int64(maxReq)
			if records != "" {
				f, err := os.Create(records)
				if err != nil {
					errs = append(errs, fmt.Errorf("--records: %w", err))
				} else {
					defer f.Close()
					ropt.Records = f
				}
			}
			if err := errors.Join(append(errs, ropt.Validate())...); err != nil {
				return err
			}
			m, dev, err := simDevice(cf)
			if err != nil {
				return err
			}
			defer m.Eng.Close()
			var res *replay.Result
			var st trace.Stats
			var runErr error
			m.Eng.Spawn("replay", func(p *sim.Proc) {
				res, st, runErr = replay.RunFile(p, dev, args[0], replay.FitOptions(topt, dev), ropt)
				m.Eng.Stop()
			})
			m.Eng.Run()
			if runErr != nil {
				return runErr
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "%s: %d lines, %d requests (%d reads, %d writes), %d skipped; replayed %d in %s simulated\n",
				args[0], st.Lines, st.Requests, st.Reads, st.Writes, st.Skipped, res.Requests, report.Duration(res.LastCompletion-res.Start))
			for _, w := range st.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
			}
			t := &report.Table{Title: "replay latency", Header: []string{"op", "requests", "MB", "mean", "p50", "p99", "max"}}
			for op := 0; op < len(res.Count); op++ {
				h := &res.Latency[op]
				if h.Count() == 0 {
					continue
				}
				t.Append(trace.Op(op).String(), strconv.FormatInt(res.Count[op], 10), fmt.Sprintf("%.1f", float64(res.Bytes[op])/1e6),
					report.Duration(sim.Time(int64(h.Mean()))), report.Duration(sim.Time(h.Quantile(0.5))),
					report.Duration(sim.Time(h.Quantile(0.99))), report.Duration(sim.Time(h.Max())))
			}
			if res.Late > 0 {
				fmt.Fprintf(out, "%d requests issued late (device saturated)\n", res.Late)
			}
			return t.WriteText(out)
		},
	}
	cf.register(cmd, "fastdrain-small")
	f := cmd.Flags()
	f.StringVar(&format, "format", "auto", "trace format: auto, "+strings.Join([]string{"disksim", "replayer", "msr", "spc", "blkparse", "vscsi"}, ", "))
	f.StringVar(&mode, "mode", "afap", "timed or afap (as fast as possible)")
	f.StringVar(&timeScale, "time-scale", "1", "multiply trace times by this ratio, e.g. 1/2 or 0.25")
	f.StringVar(&past, "past-capacity", "wrap", "addresses past the device: wrap or reject")
	f.IntVar(&qd, "qd", 32, "outstanding requests in afap mode")
	f.IntVar(&maxReq, "max", 0, "replay at most this many requests (0 = all)")
	f.BoolVar(&lenient, "lenient", false, "skip malformed lines with a warning instead of stopping")
	f.StringVar(&records, "records", "", "write every request's issue time and latency to this CSV file")
	f.StringVar(&stride, "device-stride", "", "place trace device d at offset d × this size (default: all devices share offset 0)")
	return cmd
}
