package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/fastdrain-sim/fastdrain/internal/listflag"
	"github.com/fastdrain-sim/fastdrain/runner/ufliprun"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
)

// uflipOptions are the uflip command's flags.
type uflipOptions struct {
	cf                   *cliflags.Config
	pf                   ufliprun.PlanFlags
	target, vs, traceRun string
	seed                 uint64
	plots, force         bool
	cliflags.Output
}

func newUflip() *cobra.Command {
	o := &uflipOptions{cf: &cliflags.Config{}}
	cmd := &cobra.Command{
		Use:   "uflip",
		Short: "Run uFLIP micro-benchmarks on a simulated platform or on a real file/device",
		Long: `uflip plans uFLIP's micro-benchmarks (docs/sources.md §12: granularity, alignment, locality,
partitioning, order, parallelism, mix, pause, bursts; and readback, not uFLIP's: reads of
a target written just before, which a write buffer serves, for fastdrain calibrate) over
--span bytes of the device, with
the methodology (device state enforcement, IOIgnore, IOCount, NbRun, pauses between runs,
experiment ordering), runs them through the direct I/O path at one outstanding IO per stream,
and prints mean/min/max/std-dev latency per run; per-run and per-IO CSV (and, with
--findings, findings.txt) go to a new directory --out/uflip/DEVICES/ (the device names
joined by -vs-; -2, -3, … added when that exists), with uflip.json (the settings, every run
with its IOIgnore/IOCount and precision, the findings with their numbers, the calibration,
and a simulated device's statistics as run reports them) and uflip.csv (one row of numbers
per run). --format json or csv prints that document or table instead of the text tables
(docs/outputs.md).
With --target PATH the same plan runs on a real file or block device with O_DIRECT, so the
model can be compared with a drive.

--auto REL chooses IOIgnore (MSER-5) and IOCount (until the 95 % batch-means confidence
interval of the running-phase mean is within ±REL, at most --auto-cap IOs) for every run.
--findings checks uFLIP's published findings on each device and names the model mechanism
behind every finding that does not hold. --vs PRESETS runs the same plan on more presets;
with two or more devices a calibration table gives, per micro-benchmark, the ratio of the
first device's mean to each other's. --plots draws uFLIP's figures (one per micro-benchmark
and base, devices overlaid, and a per-IO trace with its start-up phase) in its plots/.
See docs/uflip.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.pf.SpanSet, o.pf.DeviceFormatSet = cmd.Flags().Changed("span"), cmd.Flags().Changed("format-device")
			return o.run(cmd.OutOrStdout())
		},
	}
	o.register(cmd)
	return cmd
}

// register declares the uflip flags on cmd.
func (o *uflipOptions) register(cmd *cobra.Command) {
	pf := &o.pf
	o.cf.Register(cmd, "fastdrain-small")
	o.Output.Register(cmd, "uflip", "json: uflip.json's document; csv: uflip.csv's table; the device state is --format-device",
		"0s:100ms", "")
	o.Refuse("percentiles", "uFLIP's methodology reports each run's mean, minimum, maximum and standard deviation")
	o.Refuse("timeline", "a plan runs on one or more devices for simulated minutes; trace a workload with fastdrain run, replay or fio --timeline")
	f := cmd.Flags()
	f.StringVar(&pf.Benches, "bench", "all", "micro-benchmarks: all (uFLIP's nine), or a list of granularity, alignment, locality, partitioning, order, parallelism, mix, pause, bursts, readback (not uFLIP's: docs/calibrate.md) (with --findings, all means the six the checks read)")
	f.StringVar(&pf.DeviceFormat, "format-device", "random", "device state enforcement: random, sequential or none (default the plan's, else random)")
	f.StringVar(&pf.Span, "span", "1GiB", "bytes of the device the plan covers (and the format writes)")
	f.StringVar(&pf.Settle, "settle", "", "between runs: pause (uFLIP's) or flush (flush what a run wrote, then pause); default the plan's, pause")
	f.StringVar(&pf.RunPause, "run-pause", "", "idle time between runs, e.g. 100ms (default the plan's, uFLIP's 100 ms)")
	f.Int64Var(&pf.NbRun, "nbrun", 0, "runs per point (0 = uFLIP's 3)")
	f.Int64Var(&pf.IODivisor, "io-divisor", 1, "divide uFLIP's IOCount per base by this (quicker, less steady runs; not used with --auto)")
	f.Float64Var(&pf.Auto, "auto", 0, "choose IOIgnore and IOCount per run until the running-phase mean is within ±this relative error (e.g. 0.05); 0 = uFLIP's fixed counts")
	f.Int64Var(&pf.AutoMin, "auto-min", uflip.DefaultConverge().Min, "with --auto: IOs before the first convergence check (at least 100)")
	f.StringVar(&pf.AutoMinBytes, "auto-min-bytes", "auto", "with --auto: no convergence check before a run has written this much (the minimum run length); auto: the plan's auto.min_bytes, else twice the largest write buffer of the simulated devices (0 on a --target alone)")
	f.Int64Var(&pf.AutoCap, "auto-cap", 5116, "with --auto: at most this many IOs per run and stream (default uFLIP's largest IOCount, RW's)")
	f.Uint64Var(&o.seed, "seed", 1, "random seed")
	f.StringVar(&o.target, "target", "", "run on this real file or block device with O_DIRECT instead of the simulator (it is written over)")
	f.BoolVar(&o.force, "force", false, "let --target write over an existing non-empty file or a block device")
	f.StringVar(&o.vs, "vs", "", "also run the plan on these presets (comma-separated), for overlaid plots and the calibration table")
	f.BoolVar(&pf.Findings, "findings", false, "check uFLIP's findings on each device")
	f.BoolVar(&o.plots, "plots", false, "draw uFLIP's figures into --out/uflip/plots")
	f.StringVar(&o.traceRun, "trace-run", "", "run label whose per-IO trace is plotted (default: the RW run at the default IO size)")
	f.StringVar(&pf.PlanFile, "plan", "", "YAML plan spec over uFLIP's defaults (PlanSpec keys: io_size, io_count, partitions, …); the flags above override it")
}

// spec builds the plan spec from the flags (ufliprun.PlanFromFlags), reporting every bad flag.
func (o *uflipOptions) spec() (uflip.PlanSpec, int64, error) {
	spec, span, err := ufliprun.PlanFromFlags(o.pf)
	errs := []error{err}
	if err := o.Output.Parse(); err != nil {
		if o.Format != "text" && o.Format != "json" && o.Format != "csv" {
			err = fmt.Errorf("%w (the device state enforcement is --format-device)", err)
		}
		errs = append(errs, err)
	}
	if o.plots && o.Output.Dir() == "" {
		errs = append(errs, errors.New("--plots draws into --out/uflip/plots: give --out a directory, without --no-files"))
	}
	return spec, span, errors.Join(errs...)
}

// devices opens the target or builds the preset, then the --vs presets (ufliprun.Devices).
func (o *uflipOptions) devices() ([]*ufliprun.Device, error) {
	sz, _ := sim.ParseSize(o.pf.Span)
	return ufliprun.Devices{Target: o.target, Size: int64(sz), Force: o.force, Preset: o.cf.Preset, Vs: listflag.Split(o.vs),
		Variant: o.cf.Variant, Files: o.cf.Files, Sets: o.cf.Sets}.Open()
}

// suite plans the run on devs (ufliprun.PlanFlags.NewPlan): the traced run and the
// output directory.
func (o *uflipOptions) suite(spec uflip.PlanSpec, span int64, devs []*ufliprun.Device) (*ufliprun.Suite, error) {
	var names []string
	for _, d := range devs {
		names = append(names, d.Name)
	}
	var err error
	s := &ufliprun.Suite{Devices: devs, Seed: o.seed, Findings: o.pf.Findings}
	if s.Plan, err = o.pf.NewPlan(spec, span, devs); err != nil {
		return nil, err
	}
	if s.TraceLabel, err = ufliprun.TraceLabel(s.Plan, o.traceRun); err != nil {
		return nil, err
	}
	s.Base, err = o.RunDir(strings.Join(names, "-vs-"))
	return s, err
}

func (o *uflipOptions) run(stdout io.Writer) error {
	w := stdout // the text tables
	if o.Format != "text" {
		w = io.Discard
	}
	spec, span, err := o.spec()
	if err != nil {
		return err
	}
	devs, err := o.devices()
	if err != nil {
		return err
	}
	defer func() {
		for _, d := range devs {
			d.Close()
		}
	}()
	s, err := o.suite(spec, span, devs)
	if err != nil {
		return err
	}
	if err := s.Run(w); err != nil {
		return err
	}
	// The text tables went out as each device finished (w); JSON and CSV go out whole.
	if err := o.Write(nil, s.WriteJSON, s.CSV().WriteCSV); err != nil {
		return err
	}
	if o.plots {
		return s.Plots(filepath.Join(s.Base, "plots"))
	}
	return nil
}
