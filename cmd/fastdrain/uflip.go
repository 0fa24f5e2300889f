package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
)

// findingBenches are the micro-benchmarks the finding checks read (uflip.Findings); a
// --findings run without --bench runs just these.
var findingBenches = []uflip.Bench{uflip.BenchGranularity, uflip.BenchAlignment, uflip.BenchLocality,
	uflip.BenchPartitioning, uflip.BenchParallelism, uflip.BenchPause}

// uflipDevice is one device a uFLIP plan runs on: a simulated preset or a real file.
type uflipDevice struct {
	name     string
	dev      uflip.Device
	eng      *sim.Engine
	capacity int64
	bufBytes int64 // simulated devices: the write buffer's capacity in bytes (0 for a target)
	logBlock bool  // simulated devices: the FTL is the hybrid log-block one (firmware.ftl.mapping bast)
	close    func()
	fwStats  func() firmware.Stats // simulated devices: the firmware's counters; nil for a target
	ftl      func() *ftl.FTL       // simulated devices: the FTL (merge counters of a hybrid mapping)
	ssd      func() *runner.Result // simulated devices: the machine's statistics (runner.MachineStats)
	runs     []uflip.RunStats
	trace    []uflip.IORecord // the traced run's records (rep 0, stream 0)
	points   []uflip.Point
	findings []uflip.Finding // with --findings
	// cut, for a simulated device, reports its scripted power cut (runner.CutOutcome);
	// powerLoss and recovery hold what it did, and cutStep the plan step it stopped.
	cut       func() (*firmware.PowerLossReport, *firmware.Recovery, error)
	powerLoss *firmware.PowerLossReport
	recovery  *firmware.Recovery
	cutStep   int
}

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
	base string // this run's own directory under --out/uflip ("" for no files)
}

func newUflip() *cobra.Command {
	o := &uflipOptions{cf: &configFlags{}}
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
	f.StringVar(&o.benches, "bench", "all", "micro-benchmarks: all (uFLIP's nine), or a list of granularity, alignment, locality, partitioning, order, parallelism, mix, pause, bursts, readback (not uFLIP's: docs/calibrate.md) (with --findings, all means the six the checks read)")
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
		d := o.scale
		spec.IOCount = uflip.BaseCounts{SR: max(1, spec.IOCount.SR/d), RR: max(1, spec.IOCount.RR/d),
			SW: max(1, spec.IOCount.SW/d), RW: max(1, spec.IOCount.RW/d)}
		spec.IOIgnore = uflip.BaseCounts{SR: spec.IOIgnore.SR / d, RR: spec.IOIgnore.RR / d, SW: spec.IOIgnore.SW / d, RW: spec.IOIgnore.RW / d}
	}
	if o.auto != 0 {
		spec.Auto = uflip.Converge{RelErr: o.auto, Min: o.autoMin}
		if err := spec.Auto.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("--auto/--auto-min: %w", err))
		}
		if o.autoCap < o.autoMin {
			errs = append(errs, fmt.Errorf("--auto-cap %d is below --auto-min %d", o.autoCap, o.autoMin))
		}
		c := o.autoCap
		spec.IOCount = uflip.BaseCounts{SR: c, RR: c, SW: c, RW: c}
		spec.IOIgnore = uflip.BaseCounts{}
	}
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

// minRunBytes returns --auto-min-bytes: a size, or for auto twice the largest write buffer of
// the simulated devices (the longest buffered-backlog plateau, hostos/uflip/converge.go).
func (o *uflipOptions) minRunBytes(devs []*uflipDevice) (int64, error) {
	if o.autoMinBytes != "auto" {
		sz, err := sim.ParseSize(o.autoMinBytes)
		if err != nil || sz < 0 {
			return 0, fmt.Errorf("--auto-min-bytes %q: want auto or a size such as 8MiB", o.autoMinBytes)
		}
		return int64(sz), nil
	}
	var b int64
	for _, d := range devs {
		b = max(b, 2*d.bufBytes)
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
func (o *uflipOptions) devices() ([]*uflipDevice, error) {
	var devs []*uflipDevice
	closeAll := func() {
		for _, d := range devs {
			d.close()
		}
	}
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
		m, raw, err := simDevice(&cf)
		if err != nil {
			if len(devs) > 0 {
				return fmt.Errorf("--vs %s: %w", preset, err)
			}
			return err
		}
		wasted0 := m.SSD.FW.FTL().Stats.Wasted
		bufBytes := int64(m.Config.Firmware.Buffer.Pages) * int64(m.Config.Firmware.PageSize)
		devs = append(devs, &uflipDevice{name: preset, dev: raw, eng: m.Eng, capacity: raw.Capacity(), bufBytes: bufBytes,
			logBlock: m.Config.Firmware.FTL.Mapping == ftl.BASTMapping, close: m.Eng.Close,
			fwStats: func() firmware.Stats { return m.SSD.FW.Stats }, ftl: m.SSD.FW.FTL,
			ssd: func() *runner.Result { return runner.MachineStats(m, preset, wasted0) },
			cut: func() (*firmware.PowerLossReport, *firmware.Recovery, error) { return runner.CutOutcome(m) }})
		return nil
	}
	if o.target != "" {
		if err := checkTarget(o.target, o.force); err != nil {
			return nil, err
		}
		sz, _ := sim.ParseSize(o.span)
		fd, err := uflip.OpenFileDevice(o.target, uflip.FileOptions{Size: int64(sz), Create: true})
		if err != nil {
			return nil, fmt.Errorf("--target: %w", err)
		}
		names["target"] = true
		devs = append(devs, &uflipDevice{name: "target", dev: fd, eng: sim.NewEngine(), capacity: int64(sz),
			close: func() { fd.Close() }})
	} else if err := addPreset(o.cf.preset); err != nil {
		return nil, err
	}
	for _, p := range splitList(o.vs) {
		if err := addPreset(p); err != nil {
			closeAll()
			return nil, err
		}
	}
	return devs, nil
}

// dir returns the output directory of device d ("" for no files): --out/uflip with one
// device, --out/uflip/NAME with several.
func (o *uflipOptions) dir(d *uflipDevice, n int) string {
	if o.base == "" || n == 1 {
		return o.base
	}
	return filepath.Join(o.base, d.name)
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
			d.close()
		}
	}()
	for _, d := range devs {
		if span > d.capacity {
			// The plan covers --span on every device: a smaller device is not a smaller plan.
			given := o.span
			if !o.spanSet {
				given += " (the default)"
			}
			return fmt.Errorf("--span %s: larger than device %s (%d bytes = %v); give --span %v or less",
				given, d.name, d.capacity, sim.Size(d.capacity), sim.Size(d.capacity))
		}
	}
	if spec.Auto.On() && (o.autoMinBytes != "auto" || spec.Auto.MinBytes == 0) {
		if spec.Auto.MinBytes, err = o.minRunBytes(devs); err != nil {
			return err
		}
	}
	plan, err := uflip.NewPlan(spec, span)
	if err != nil {
		return err
	}
	traceLabel, err := o.traceLabel(plan)
	if err != nil {
		return err
	}
	var names []string
	for _, d := range devs {
		names = append(names, d.name)
	}
	if o.base, err = o.runDir(strings.Join(names, "-vs-")); err != nil {
		return err
	}
	for _, d := range devs {
		if err := o.execute(d, plan, traceLabel, len(devs)); err != nil {
			return fmt.Errorf("%s: %w", d.name, err)
		}
		d.points = uflip.Points(plan, d.runs)
		if d.powerLoss != nil {
			st := plan.Steps[d.cutStep]
			fmt.Fprintf(w, "%s; on %s the cut stopped step %d of %d (%s): the runs below are those completed before it\n",
				runner.CutLine(d.powerLoss), d.name, d.cutStep+1, len(plan.Steps), st.Label)
		}
		if err := runTable(w, d, spec.Auto.On()); err != nil {
			return err
		}
		if d.fwStats != nil {
			// The firmware's own counters over the whole plan: what decides the findings
			// (buffer stalls and evictions, GC) is visible beside the latencies.
			st := d.fwStats()
			if _, err := fmt.Fprintf(w, "firmware on %s: %d pages written, %d writes stalled for buffer room (%s in all), "+
				"%d foreground and %d background page evictions, %d GC runs moving %d pages\n", d.name, st.WritePages,
				st.Stalls, report.Duration(st.StallTime), st.ForegroundEvictions, st.BackgroundEvictions, st.GCRuns, st.GCPagesMoved); err != nil {
				return err
			}
			if fl := d.ftl(); fl.Hybrid() {
				fs := fl.Stats
				if _, err := fmt.Fprintf(w, "ftl on %s (mapping %s): %d switch, %d partial and %d full merges copying %d pages, %d erases\n",
					d.name, fl.Config().Mapping, fs.SwitchMerges, fs.PartialMerges, fs.FullMerges, fs.MergeCopies, fs.Erases); err != nil {
					return err
				}
			}
			ssd := d.ssd()
			ssd.Label = d.name
			if err := ssd.StatsTable().WriteText(w); err != nil {
				return err
			}
			if dir := o.dir(d, len(devs)); dir != "" {
				if err := ssd.StatsCSV().SaveCSV(filepath.Join(dir, "stats.csv")); err != nil {
					return err
				}
			}
		}
		if d.powerLoss != nil {
			fmt.Fprintln(w)
			if err := d.powerLossTable().WriteText(w); err != nil {
				return err
			}
		}
	}
	if o.findings {
		for _, d := range devs {
			fs := uflip.Findings(d.points, spec.IOSize)
			if d.logBlock {
				fs = uflip.FindingsLogBlock(d.points, spec.IOSize)
			}
			d.findings = fs
			if err := findingsTable(w, d.name, fs); err != nil {
				return err
			}
			if dir := o.dir(d, len(devs)); dir != "" {
				if err := report.WriteFile(filepath.Join(dir, "findings.txt"), func(w io.Writer) error { return findingsTable(w, d.name, fs) }); err != nil {
					return err
				}
			}
		}
	}
	for _, d := range devs[1:] {
		if err := calibrationTable(w, devs[0], d); err != nil {
			return err
		}
	}
	if dir := o.base; dir != "" {
		if err := report.WriteFile(filepath.Join(dir, "uflip.json"), func(w io.Writer) error { return o.uflipJSON(w, plan, devs) }); err != nil {
			return err
		}
		if err := uflipCSV(plan, devs).SaveCSV(filepath.Join(dir, "uflip.csv")); err != nil {
			return err
		}
	}
	// The text tables went out as each device finished (w); JSON and CSV go out whole.
	if err := o.write(nil, func(w io.Writer) error { return o.uflipJSON(w, plan, devs) }, uflipCSV(plan, devs).WriteCSV); err != nil {
		return err
	}
	if o.plots {
		return uflipPlots(filepath.Join(o.base, "plots"), devs, traceLabel)
	}
	return nil
}

// traceLabel picks the run whose per-IO trace is plotted.
func (o *uflipOptions) traceLabel(plan *uflip.Plan) (string, error) {
	var first, rw string
	for _, st := range plan.Steps {
		if st.Kind != uflip.StepRun {
			continue
		}
		if o.traceRun != "" && st.Label == o.traceRun {
			return st.Label, nil
		}
		if first == "" {
			first = st.Label
		}
		if rw == "" && st.Run.Base == uflip.RW && st.Run.Second == nil && st.Run.IOSize == plan.Spec.IOSize && st.Run.ParallelDegree <= 1 {
			rw = st.Label
		}
	}
	if o.traceRun != "" {
		return "", fmt.Errorf("--trace-run %q is not a run of this plan (labels are printed in the runs table, e.g. %q)", o.traceRun, first)
	}
	if rw != "" {
		return rw, nil
	}
	return first, nil
}

// execute runs plan on d, streaming per-IO records to CSV and keeping the traced run's.
func (o *uflipOptions) execute(d *uflipDevice, plan *uflip.Plan, traceLabel string, n int) error {
	dir := o.dir(d, n)
	var iw *uflip.IOWriter
	var ios *os.File
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		f, err := os.Create(filepath.Join(dir, "ios.csv"))
		if err != nil {
			return err
		}
		defer f.Close() // a second Close after the checked one below is harmless
		iw = uflip.NewIOWriter(f)
		ios = f
	}
	x := &uflip.Executor{Dev: d.dev, Seed: o.seed, RunPause: plan.Spec.RunPause, IOSink: func(r uflip.IORecord) {
		if iw != nil {
			iw.Write(r)
		}
		if r.Label == traceLabel && r.Rep == 0 && r.Stream == 0 {
			d.trace = append(d.trace, r)
		}
	}}
	var res uflip.Result
	var runErr error
	d.eng.Spawn("uflip", func(p *sim.Proc) {
		runErr = x.RunPlan(p, plan, &res)
		d.eng.Stop()
	})
	d.eng.Run()
	if runErr != nil {
		return runErr
	}
	if d.cut != nil {
		pl, rec, err := d.cut()
		if err != nil {
			return err
		}
		// A cut stops the plan in step res.Steps; the runs completed before it are kept.
		d.powerLoss, d.recovery, d.cutStep = pl, rec, res.Steps
	}
	d.runs = res.Runs
	if iw == nil {
		return nil
	}
	if err := iw.Flush(); err != nil {
		return err
	}
	if err := ios.Close(); err != nil {
		return err
	}
	return report.WriteFile(filepath.Join(dir, "runs.csv"), func(w io.Writer) error { return uflip.WriteRunCSV(w, res.Runs) })
}

// powerLossTable is what d's power cut did and what recovery found (runner's table).
func (d *uflipDevice) powerLossTable() *report.Table {
	return (&runner.Result{Label: d.name, PowerLoss: d.powerLoss, Recovery: d.recovery}).PowerLossTable()
}

// runTable prints one row per run (with the automatic rule's choice when it is on).
func runTable(w io.Writer, d *uflipDevice, auto bool) error {
	t := &report.Table{Title: "uFLIP runs", Header: []string{"bench", "run", "rep", "IOs", "mean", "min", "max", "std-dev"}}
	if d.name != "" {
		t.Title += " on " + d.name
	}
	if auto {
		t.Header = append(t.Header, "IOIgnore", "IOCount", "±95%", "converged")
	}
	for _, r := range d.runs {
		row := []string{r.Bench.String(), r.Label, strconv.Itoa(r.Rep), strconv.FormatInt(r.Counted, 10),
			report.Duration(sim.Time(r.Mean)), report.Duration(r.Min), report.Duration(r.Max), report.Duration(sim.Time(r.StdDev))}
		if auto {
			if a := r.Auto; a != nil {
				row = append(row, strconv.FormatInt(a.IOIgnore, 10), strconv.FormatInt(a.IOCount, 10),
					strconv.FormatFloat(100*a.Precision, 'f', 1, 64)+"%", strconv.FormatBool(a.Converged))
			} else {
				row = append(row, "", "", "", "")
			}
		}
		t.Append(row...)
	}
	return t.WriteText(w)
}

// findingsTable prints each finding's verdict, claim and numbers, and for each finding
// not held the mechanism of the model that decides it.
func findingsTable(w io.Writer, name string, fs []uflip.Finding) error {
	var b strings.Builder
	fmt.Fprintf(&b, "uFLIP findings on %s\n", name)
	for _, f := range fs {
		fmt.Fprintf(&b, "  [%s] %s: %s\n      numbers: %s\n", f.Verdict, f.ID, f.Claim, f.Evidence)
		if f.Verdict == uflip.NotHeld {
			fmt.Fprintf(&b, "      mechanism: %s\n", f.Mechanism)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// calibrationTable prints the per-micro-benchmark ratio of a's means to b's.
func calibrationTable(w io.Writer, a, b *uflipDevice) error {
	t := &report.Table{Title: fmt.Sprintf("uFLIP calibration: %s / %s", a.name, b.name),
		Header: []string{"bench", "base", "points", "mean " + a.name, "mean " + b.name, "ratio"}}
	for _, r := range uflip.Calibrate(a.points, b.points) {
		t.Append(r.Bench.String(), r.Base, strconv.Itoa(r.Points), report.Duration(sim.Time(r.MeanA)),
			report.Duration(sim.Time(r.MeanB)), strconv.FormatFloat(r.Ratio, 'f', 3, 64))
	}
	return t.WriteText(w)
}

// uflipPlots draws one band plot per micro-benchmark and base (a mix per pair) with every
// device overlaid, and the per-IO trace of the traced run.
func uflipPlots(dir string, devs []*uflipDevice, traceLabel string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	type key struct {
		bench uflip.Bench
		base  string
	}
	var order []key
	bands := map[key][]report.Band{}
	for di, d := range devs {
		for _, p := range d.points {
			if p.Counted == 0 {
				continue
			}
			base := p.Base.String()
			if p.Second != nil {
				base += "-" + p.Second.String()
			}
			k := key{p.Bench, base}
			bs, ok := bands[k]
			if !ok {
				order = append(order, k)
			}
			for len(bs) <= di {
				bs = append(bs, report.Band{Name: devs[len(bs)].name})
			}
			b := &bs[di]
			b.X = append(b.X, p.X)
			ms := float64(sim.Millisecond)
			b.Mean, b.Lo, b.Hi = append(b.Mean, p.Mean/ms), append(b.Lo, float64(p.Min)/ms), append(b.Hi, float64(p.Max)/ms)
			bands[k] = bs
		}
	}
	for _, k := range order {
		logX := k.bench != uflip.BenchAlignment && k.bench != uflip.BenchOrder && k.bench != uflip.BenchMix
		name := fmt.Sprintf("%s-%s.png", k.bench, k.base)
		title := fmt.Sprintf("uFLIP %s, %s", k.bench, k.base)
		if err := report.BandPlot(filepath.Join(dir, name), title, uflip.XLabel(k.bench), "response time (ms, log scale)",
			logX, true, bands[k]); err != nil {
			return err
		}
	}
	var traces []report.Trace
	for _, d := range devs {
		tr := report.Trace{Name: d.name}
		for _, r := range d.trace {
			tr.Y = append(tr.Y, float64(r.Latency)/float64(sim.Millisecond))
			if r.Ignored {
				tr.Ignore++
			}
		}
		traces = append(traces, tr)
	}
	file := "trace-" + strings.NewReplacer("/", "_", "=", "").Replace(traceLabel) + ".png"
	return report.IOTrace(filepath.Join(dir, file), "uFLIP per-IO response time: "+traceLabel,
		"response time (ms, log scale)", true, traces)
}

// checkTarget refuses to let uFLIP's writes destroy data by accident: a block device or a
// non-empty file is written over only with --force; a new or empty file is fine.
func checkTarget(path string, force bool) error {
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) || force {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--target: %w", err)
	}
	switch {
	case st.Mode()&os.ModeDevice != 0:
		return fmt.Errorf("--target %s is a device: uFLIP writes over it; give --force to do so", path)
	case st.Mode().IsRegular() && st.Size() > 0:
		return fmt.Errorf("--target %s exists and holds %d bytes: uFLIP writes over it; give --force to do so, or name a new file", path, st.Size())
	case !st.Mode().IsRegular():
		return fmt.Errorf("--target %s is not a regular file or a block device", path)
	}
	return nil
}
