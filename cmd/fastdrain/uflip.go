package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/runner/ufliprun"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
)

// findingBenches are the micro-benchmarks the finding checks read (uflip.Findings); a
// --findings run without --bench runs just these.
var findingBenches = []uflip.Bench{uflip.BenchGranularity, uflip.BenchAlignment, uflip.BenchLocality,
	uflip.BenchPartitioning, uflip.BenchParallelism, uflip.BenchPause}

// uflipOptions are the uflip command's flags.
type uflipOptions struct {
	cf                                  *configFlags
	benches, deviceFormat, target, span string
	settle, runPause, autoMinBytes      string
	vs, traceRun, planFile              string
	nbrun, scale, autoMin, autoCap      int64
	auto                                float64
	seed                                uint64
	findings, plots, force              bool
	spanSet                             bool // --span was given (not its default)
	outputFlags
}

func newUflip() *cobra.Command {
	o := &uflipOptions{cf: &configFlags{}}
	cmd := &cobra.Command{
		Use:   "uflip",
		Short: "Run uFLIP micro-benchmarks on a simulated platform or on a real file/device",
		Long: `uflip plans uFLIP's micro-benchmarks (docs/sources.md §12: granularity, alignment, locality,
partitioning, order, parallelism, mix, pause, bursts) over --span bytes of the device, with
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
			o.spanSet = cmd.Flags().Changed("span")
			return o.run(cmd.OutOrStdout())
		},
	}
	o.cf.register(cmd, "fastdrain-small")
	o.outputFlags.register(cmd, "uflip", "json: uflip.json's document; csv: uflip.csv's table; the device state is --format-device",
		"0s:100ms", "")
	o.refuse("percentiles", "uFLIP's methodology reports each run's mean, minimum, maximum and standard deviation")
	o.refuse("timeline", "a plan runs on one or more devices for simulated minutes; trace a workload with fastdrain run, replay or fio --timeline")
	f := cmd.Flags()
	f.StringVar(&o.benches, "bench", "all", "micro-benchmarks: all, or a list of granularity, alignment, locality, partitioning, order, parallelism, mix, pause, bursts (with --findings, all means the six the checks read)")
	f.StringVar(&o.deviceFormat, "format-device", "random", "device state enforcement: random, sequential or none (default the plan's, else random)")
	f.StringVar(&o.span, "span", "1GiB", "bytes of the device the plan covers (and the format writes)")
	f.StringVar(&o.settle, "settle", "", "between runs: pause (uFLIP's) or flush (flush what a run wrote, then pause); default the plan's, pause")
	f.StringVar(&o.runPause, "run-pause", "", "idle time between runs, e.g. 100ms (default the plan's, uFLIP's 100 ms)")
	f.Int64Var(&o.nbrun, "nbrun", 0, "runs per point (0 = uFLIP's 3)")
	f.Int64Var(&o.scale, "io-divisor", 1, "divide uFLIP's IOCount per base by this (quicker, less steady runs; not used with --auto)")
	f.Float64Var(&o.auto, "auto", 0, "choose IOIgnore and IOCount per run until the running-phase mean is within ±this relative error (e.g. 0.05); 0 = uFLIP's fixed counts")
	f.Int64Var(&o.autoMin, "auto-min", uflip.DefaultConverge().Min, "with --auto: IOs before the first convergence check (at least 100)")
	f.StringVar(&o.autoMinBytes, "auto-min-bytes", "auto", "with --auto: no convergence check before a run has written this much (the minimum run length); auto: the plan's auto.min_bytes, else twice the largest write buffer of the simulated devices (0 on a --target alone)")
	f.Int64Var(&o.autoCap, "auto-cap", 5116, "with --auto: at most this many IOs per run and stream (default uFLIP's largest IOCount, RW's)")
	f.Uint64Var(&o.seed, "seed", 1, "random seed")
	f.StringVar(&o.target, "target", "", "run on this real file or block device with O_DIRECT instead of the simulator (it is written over)")
	f.BoolVar(&o.force, "force", false, "let --target write over an existing non-empty file or a block device")
	f.StringVar(&o.vs, "vs", "", "also run the plan on these presets (comma-separated), for overlaid plots and the calibration table")
	f.BoolVar(&o.findings, "findings", false, "check uFLIP's findings on each device")
	f.BoolVar(&o.plots, "plots", false, "draw uFLIP's figures into --out/uflip/plots")
	f.StringVar(&o.traceRun, "trace-run", "", "run label whose per-IO trace is plotted (default: the RW run at the default IO size)")
	f.StringVar(&o.planFile, "plan", "", "YAML plan spec over uFLIP's defaults (PlanSpec keys: io_size, io_count, partitions, …); the flags above override it")
	return cmd
}

// spec builds the plan spec from the flags, reporting every bad flag.
func (o *uflipOptions) spec() (uflip.PlanSpec, int64, error) {
	spec := uflip.DefaultPlanSpec()
	var errs []error
	if o.planFile != "" {
		if err := loadPlanSpec(o.planFile, &spec); err != nil {
			return spec, 0, err
		}
	}
	switch {
	case o.benches == "all" && o.planFile != "":
		// the plan file's benches
	case o.benches == "all" && o.findings:
		spec.Benches = append([]uflip.Bench(nil), findingBenches...)
	case o.benches != "all":
		spec.Benches = nil
		for _, b := range splitList(o.benches) {
			var bb uflip.Bench
			if err := bb.UnmarshalText([]byte(b)); err != nil {
				errs = append(errs, fmt.Errorf("--bench: %w", err))
			}
			spec.Benches = append(spec.Benches, bb)
		}
	}
	// A plan file's format stands unless --format-device is given.
	if o.planFile == "" || o.cmd.Flags().Changed("format-device") {
		if err := spec.Format.UnmarshalText([]byte(o.deviceFormat)); err != nil {
			errs = append(errs, fmt.Errorf("--format-device: %w", err))
		}
	}
	errs = append(errs, o.counts(&spec)...)
	if err := o.outputFlags.parse(); err != nil {
		if o.format != "text" && o.format != "json" && o.format != "csv" {
			err = fmt.Errorf("%w (the device state enforcement is --format-device)", err)
		}
		errs = append(errs, err)
	}
	if o.plots && o.outputFlags.dir() == "" {
		errs = append(errs, errors.New("--plots draws into --out/uflip/plots: give --out a directory, without --no-files"))
	}
	sz, err := sim.ParseSize(o.span)
	if err != nil || sz <= 0 {
		errs = append(errs, fmt.Errorf("--span %q: want a size such as 1GiB", o.span))
	}
	if err := errors.Join(errs...); err != nil {
		return spec, 0, err
	}
	return spec, int64(sz), spec.Validate()
}

// counts applies the run flags to spec: --nbrun, --settle, --run-pause, and --io-divisor
// or, with --auto, the automatic rule and its cap.
func (o *uflipOptions) counts(spec *uflip.PlanSpec) []error {
	var errs []error
	if o.nbrun > 0 {
		spec.NbRun = o.nbrun
	}
	if o.settle != "" {
		if err := spec.Settle.UnmarshalText([]byte(o.settle)); err != nil {
			errs = append(errs, fmt.Errorf("--settle: %w", err))
		}
	}
	if o.runPause != "" {
		d, err := sim.ParseTime(o.runPause)
		if err != nil || d < 0 {
			errs = append(errs, fmt.Errorf("--run-pause %q: want a duration such as 100ms", o.runPause))
		}
		spec.RunPause = d
	}
	if o.scale < 1 {
		errs = append(errs, fmt.Errorf("--io-divisor %d must be at least 1", o.scale))
	} else {
		ufliprun.DivideCounts(spec, o.scale)
	}
	if o.auto != 0 {
		spec.Auto = uflip.Converge{RelErr: o.auto, Min: o.autoMin}
		if err := spec.Auto.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("--auto/--auto-min: %w", err))
		}
		if o.autoCap < o.autoMin {
			errs = append(errs, fmt.Errorf("--auto-cap %d is below --auto-min %d", o.autoCap, o.autoMin))
		}
		ufliprun.CapCounts(spec, o.autoCap)
	}
	return errs
}

// minRunBytes returns --auto-min-bytes: a size, or for auto twice the largest write buffer of
// the simulated devices (the longest buffered-backlog plateau, hostos/uflip/converge.go).
func (o *uflipOptions) minRunBytes(devs []*ufliprun.Device) (int64, error) {
	if o.autoMinBytes != "auto" {
		sz, err := sim.ParseSize(o.autoMinBytes)
		if err != nil || sz < 0 {
			return 0, fmt.Errorf("--auto-min-bytes %q: want auto or a size such as 8MiB", o.autoMinBytes)
		}
		return int64(sz), nil
	}
	var b int64
	for _, d := range devs {
		b = max(b, 2*d.BufBytes)
	}
	return b, nil
}

// loadPlanSpec decodes the YAML plan spec in path over spec (uflip.DecodePlanSpec); the
// error names the file and, from the decoder, the line.
func loadPlanSpec(path string, spec *uflip.PlanSpec) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("--plan: %w", err)
	}
	if err := uflip.DecodePlanSpec(b, spec); err != nil {
		return fmt.Errorf("--plan %s: %w", path, err)
	}
	return nil
}

// devices opens the target or builds the preset, then the --vs presets.
func (o *uflipOptions) devices() ([]*ufliprun.Device, error) {
	var devs []*ufliprun.Device
	names := map[string]bool{}
	addPreset := func(preset string) error {
		if names[preset] {
			return fmt.Errorf("--vs: %s is already one of the devices", preset)
		}
		names[preset] = true
		cf := *o.cf
		cf.preset = preset
		// uFLIP issues IOs down to 512 B: give the namespace 512-byte LBAs unless the user
		// chose otherwise (the firmware merges sub-page writes into its 4 KiB mapping units).
		cf.sets = append([]string{"nvme.lba_size=512"}, o.cf.sets...)
		c, err := cf.load()
		var d *ufliprun.Device
		if err == nil {
			d, err = ufliprun.Simulated(c, preset)
		}
		if err != nil {
			if len(devs) > 0 {
				return fmt.Errorf("--vs %s: %w", preset, err)
			}
			return err
		}
		devs = append(devs, d)
		return nil
	}
	if o.target != "" {
		sz, _ := sim.ParseSize(o.span)
		d, err := ufliprun.Target(o.target, int64(sz), o.force)
		if err != nil {
			return nil, err
		}
		names["target"] = true
		devs = append(devs, d)
	} else if err := addPreset(o.cf.preset); err != nil {
		return nil, err
	}
	for _, p := range splitList(o.vs) {
		if err := addPreset(p); err != nil {
			for _, d := range devs {
				d.Close()
			}
			return nil, err
		}
	}
	return devs, nil
}

// suite plans the run on devs: the plan over --span (refused when larger than a device),
// the automatic rule's minimum run length, the traced run and the output directory.
func (o *uflipOptions) suite(spec uflip.PlanSpec, span int64, devs []*ufliprun.Device) (*ufliprun.Suite, error) {
	var names []string
	for _, d := range devs {
		if span > d.Capacity {
			// The plan covers --span on every device: a smaller device is not a smaller plan.
			given := o.span
			if !o.spanSet {
				given += " (the default)"
			}
			return nil, fmt.Errorf("--span %s: larger than device %s (%d bytes = %v); give --span %v or less",
				given, d.Name, d.Capacity, sim.Size(d.Capacity), sim.Size(d.Capacity))
		}
		names = append(names, d.Name)
	}
	var err error
	if spec.Auto.On() && (o.autoMinBytes != "auto" || spec.Auto.MinBytes == 0) {
		if spec.Auto.MinBytes, err = o.minRunBytes(devs); err != nil {
			return nil, err
		}
	}
	s := &ufliprun.Suite{Devices: devs, Seed: o.seed, Findings: o.findings}
	if s.Plan, err = uflip.NewPlan(spec, span); err != nil {
		return nil, err
	}
	if s.TraceLabel, err = ufliprun.TraceLabel(s.Plan, o.traceRun); err != nil {
		return nil, err
	}
	s.Base, err = o.runDir(strings.Join(names, "-vs-"))
	return s, err
}

func (o *uflipOptions) run(stdout io.Writer) error {
	w := stdout // the text tables
	if o.format != "text" {
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
	if err := o.write(nil, s.WriteJSON, s.CSV().WriteCSV); err != nil {
		return err
	}
	if o.plots {
		return s.Plots(filepath.Join(s.Base, "plots"))
	}
	return nil
}
