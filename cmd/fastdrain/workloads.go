package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
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

func newUflip() *cobra.Command {
	cf := &configFlags{}
	var benches, format, target, out, span string
	var nbrun int64
	var scale int64
	var seed uint64
	cmd := &cobra.Command{
		Use:   "uflip",
		Short: "Run uFLIP micro-benchmarks on a simulated platform or on a real file/device",
		Long: `uflip plans uFLIP's micro-benchmarks (UFLIP.md: granularity, alignment, locality,
partitioning, order, parallelism, mix, pause, bursts) over --span bytes of the device, with
the methodology (device state enforcement, IOIgnore, IOCount, NbRun, pauses between runs,
experiment ordering), runs them through the direct I/O path at one outstanding IO per stream,
and prints mean/min/max/std-dev latency per run; per-run and per-IO CSV go to --out/uflip/.
With --target PATH the same plan runs on a real file or block device with O_DIRECT, so the
model can be compared with a drive.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			spec := uflip.DefaultPlanSpec()
			var errs []error
			if benches != "all" {
				spec.Benches = nil
				for _, b := range splitList(benches) {
					var bb uflip.Bench
					if err := bb.UnmarshalText([]byte(b)); err != nil {
						errs = append(errs, fmt.Errorf("--bench: %w", err))
					}
					spec.Benches = append(spec.Benches, bb)
				}
			}
			if err := spec.Format.UnmarshalText([]byte(format)); err != nil {
				errs = append(errs, fmt.Errorf("--format-device: %w", err))
			}
			if nbrun > 0 {
				spec.NbRun = nbrun
			}
			if scale < 1 {
				errs = append(errs, fmt.Errorf("--io-divisor %d must be at least 1", scale))
			} else {
				spec.IOCount = uflip.BaseCounts{SR: max(1, spec.IOCount.SR/scale), RR: max(1, spec.IOCount.RR/scale),
					SW: max(1, spec.IOCount.SW/scale), RW: max(1, spec.IOCount.RW/scale)}
				spec.IOIgnore = uflip.BaseCounts{RW: spec.IOIgnore.RW / scale}
			}
			sz, err := sim.ParseSize(span)
			if err != nil || sz <= 0 {
				errs = append(errs, fmt.Errorf("--span %q: want a size such as 1GiB", span))
			}
			if err := errors.Join(append(errs, spec.Validate())...); err != nil {
				return err
			}
			var dev uflip.Device
			var eng *sim.Engine
			capacity := int64(sz)
			if target != "" {
				fd, err := uflip.OpenFileDevice(target, uflip.FileOptions{Size: capacity, Create: true})
				if err != nil {
					return fmt.Errorf("--target: %w", err)
				}
				defer fd.Close()
				dev, eng = fd, sim.NewEngine()
			} else {
				// uFLIP issues IOs down to 512 B: give the namespace 512-byte LBAs unless the
				// user chose otherwise (the firmware merges sub-page writes into its 4 KiB
				// mapping units).
				cf.sets = append([]string{"nvme.lba_size=512"}, cf.sets...)
				m, raw, err := simDevice(cf)
				if err != nil {
					return err
				}
				defer m.Eng.Close()
				capacity = min(capacity, raw.Capacity())
				dev, eng = raw, m.Eng
			}
			plan, err := uflip.NewPlan(spec, capacity)
			if err != nil {
				return err
			}
			x := &uflip.Executor{Dev: dev, Seed: seed, RunPause: spec.RunPause}
			var res uflip.Result
			var runErr error
			eng.Spawn("uflip", func(p *sim.Proc) {
				runErr = x.RunPlan(p, plan, &res)
				eng.Stop()
			})
			eng.Run()
			if runErr != nil {
				return runErr
			}
			t := &report.Table{Title: "uFLIP runs", Header: []string{"bench", "run", "rep", "IOs", "mean", "min", "max", "std-dev"}}
			for _, r := range res.Runs {
				t.Append(r.Bench.String(), r.Label, strconv.Itoa(r.Rep), strconv.FormatInt(r.Counted, 10),
					report.Duration(sim.Time(r.Mean)), report.Duration(r.Min), report.Duration(r.Max), report.Duration(sim.Time(r.StdDev)))
			}
			if err := t.WriteText(cmd.OutOrStdout()); err != nil {
				return err
			}
			if out == "" {
				return nil
			}
			dir := filepath.Join(out, "uflip")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			if err := writeWith(filepath.Join(dir, "runs.csv"), func(f *os.File) error { return uflip.WriteRunCSV(f, res.Runs) }); err != nil {
				return err
			}
			return writeWith(filepath.Join(dir, "ios.csv"), func(f *os.File) error { return uflip.WriteIOCSV(f, res.IOs) })
		},
	}
	cf.register(cmd, "fastdrain-small")
	f := cmd.Flags()
	f.StringVar(&benches, "bench", "all", "micro-benchmarks: all, or a list of granularity, alignment, locality, partitioning, order, parallelism, mix, pause, bursts")
	f.StringVar(&format, "format-device", "random", "device state enforcement: random, sequential or none")
	f.StringVar(&span, "span", "1GiB", "bytes of the device the plan covers (and the format writes)")
	f.Int64Var(&nbrun, "nbrun", 0, "runs per point (0 = uFLIP's 3)")
	f.Int64Var(&scale, "io-divisor", 1, "divide uFLIP's IOCount per base by this (quicker, less steady runs)")
	f.Uint64Var(&seed, "seed", 1, "random seed")
	f.StringVar(&target, "target", "", "run on this real file or block device with O_DIRECT instead of the simulator")
	f.StringVar(&out, "out", "results", "output directory (empty: no files)")
	return cmd
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
