package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
)

// Scales of a run: --quick, default and --full (the paper's 30 simulated seconds).
const (
	quickDuration   = 3 * sim.Second
	defaultDuration = platforms.RunDuration
	fullDuration    = apps.DefaultDuration
)

// runFlags are the flags of commands that run workloads on a platform.
type runFlags struct {
	cfg      configFlags
	scenario string
	scaleFlags
	appsFile string
	seed     uint64
	jobs     int
	seeded   bool
	check    bool
	plotDPI  int
	outputFlags
}

// register adds the run flags and the output contract (outputFlags) of command to cmd;
// formats says what --format json and csv print and pctWhere what --percentiles changes.
func (rf *runFlags) register(cmd *cobra.Command, command, scenarioDefault, formats, pctWhere string) {
	rf.cfg.register(cmd, "fastdrain-tlc")
	rf.outputFlags.register(cmd, command, formats, "0s:100ms", pctWhere)
	f := cmd.Flags()
	f.StringVar(&rf.scenario, "scenario", scenarioDefault, "co-location scenario (see `fastdrain scenarios`)")
	f.StringVar(&rf.duration, "duration", "", "simulated run time per scenario, e.g. 10s (default 10s; --quick 3s; --full 30s)")
	f.StringVar(&rf.warmup, "warmup", "0", "simulated time at the start left out of the statistics")
	f.StringVar(&rf.appsFile, "apps", "", "YAML file of application-model parameters (docs/workloads.md)")
	f.Uint64Var(&rf.seed, "seed", 0, "random seed (0 = the platform's)")
	f.BoolVar(&rf.quick, "quick", false, "short runs (3 simulated seconds)")
	f.BoolVar(&rf.full, "full", false, "the paper's scale (30 simulated seconds)")
	f.IntVar(&rf.jobs, "jobs", 0, "simulations run in parallel (0 = one per CPU)")
	f.BoolVar(&rf.check, "check-data", false, "check that every page the host wrote reads back from the device (docs/reliability.md); results are unchanged")
	f.IntVar(&rf.plotDPI, "plot-dpi", report.DefaultPNGDPI, fmt.Sprintf("resolution of the PNG plots in dots per inch (%d to %d; SVG plots are vector graphics)", report.MinPNGDPI, report.MaxPNGDPI))
}

// scaleFlags are the simulated time of a run: --duration (or --quick, --full) and --warmup.
type scaleFlags struct {
	duration, warmup string
	quick, full      bool
}

// times resolves the flags into the run's duration and warm-up, reporting every bad flag.
func (sf *scaleFlags) times() (dur, warmup sim.Time, errs []error) {
	switch {
	case sf.quick && sf.full:
		errs = append(errs, errors.New("--quick and --full exclude each other"))
	case sf.duration != "":
		d, err := timeFlag("duration", sf.duration, true)
		if err != nil {
			errs = append(errs, err)
		}
		dur = d
	case sf.quick:
		dur = quickDuration
	case sf.full:
		dur = fullDuration
	default:
		dur = defaultDuration
	}
	w, err := timeFlag("warmup", sf.warmup, false)
	if err != nil {
		errs = append(errs, err)
	}
	return dur, w, errs
}

// seedSet makes --seed the platform's root seed too (every component's random stream and
// the preconditioning order), once.
func (rf *runFlags) seedSet() {
	if rf.seed != 0 && !rf.seeded {
		rf.seeded = true
		rf.cfg.sets = append(rf.cfg.sets, fmt.Sprintf("seed=%d", rf.seed))
	}
}

// workload resolves the scenario and application parameters.
func (rf *runFlags) workload(name string) (runner.Workload, error) {
	var errs []error
	sc, err := apps.LookupScenario(name)
	if err != nil {
		errs = append(errs, fmt.Errorf("--scenario: %w", err))
	}
	var terrs []error
	sc.Duration, sc.Warmup, terrs = rf.times()
	errs = append(errs, terrs...)
	if rf.seed != 0 {
		sc.Seed = rf.seed
	}
	spec := apps.DefaultSpec()
	if rf.appsFile != "" {
		f, err := os.Open(rf.appsFile)
		if err != nil {
			errs = append(errs, fmt.Errorf("--apps: %w", err))
		} else {
			defer f.Close()
			if spec, err = apps.Decode(f, rf.appsFile); err != nil {
				errs = append(errs, fmt.Errorf("--apps: %w", err))
			}
		}
	}
	if err := rf.outputFlags.parse(); err != nil {
		errs = append(errs, err)
	}
	if err := report.SetPNGDPI(rf.plotDPI); err != nil {
		errs = append(errs, fmt.Errorf("--plot-dpi %d: want %d to %d dots per inch", rf.plotDPI, report.MinPNGDPI, report.MaxPNGDPI))
	}
	if err := errors.Join(errs...); err != nil {
		return runner.Workload{}, err
	}
	if err := sc.Validate(); err != nil {
		return runner.Workload{}, err
	}
	return runner.Workload{Scenario: sc, Apps: spec}, nil
}

func newRun() *cobra.Command {
	rf := &runFlags{}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run one co-location scenario on one platform and variant",
		Long: `run builds the machine (--preset, --variant, --config, --set), runs the scenario's
application models on it for the given simulated time, prints the application latency,
statistics and utilization tables, and writes config.yaml, result.json, CSV tables and plots
to a new directory --out/run/<preset>-<variant>-<scenario>-<duration>/ (-2, -3, … added
when that exists: no run replaces another's results; docs/outputs.md).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return rf.run(cmd) },
	}
	rf.register(cmd, "run", platforms.RunScenario, "json: result.json's document; csv: apps.csv's table",
		"the applications table, apps.csv and result.json")
	return cmd
}

// run runs the scenario on the machine, prints its results and writes them under --out.
func (rf *runFlags) run(cmd *cobra.Command) error {
	rf.seedSet()
	c, err := rf.cfg.load()
	if err != nil {
		return err
	}
	w, err := rf.workload(rf.scenario)
	if err != nil {
		return err
	}
	label := rf.cfg.variant
	if label == "" {
		label = "custom"
	}
	tl, err := rf.tl.build()
	if err != nil {
		return err
	}
	o := runner.Options{Label: label, Config: c, Workload: w, CheckData: rf.check, Timeline: tl}
	res, err := runner.Run(o)
	if err != nil {
		return err
	}
	res.Percentiles = rf.pcts.list
	runner.WarnUnwritten(cmd.ErrOrStderr(), "", res.Firmware, firmware.Stats{})
	dir, err := rf.runDir(fmt.Sprintf("%s-%s-%s-%s", c.Name, label, w.Scenario.Name, w.Scenario.Duration))
	if err != nil {
		return err
	}
	if dir != "" {
		if err := res.WriteDir(dir); err != nil {
			return err
		}
		if err := writeRunMeta(dir, o); err != nil {
			return err
		}
	}
	if err := rf.tl.write(tl, cmd.ErrOrStderr(), res.Series); err != nil {
		return err
	}
	if rf.check {
		// On standard error, so the text and JSON on standard output are those of a
		// run without the check.
		fmt.Fprintf(cmd.ErrOrStderr(), "data check: %d pages read back from the device as written\n", res.DataChecked)
	}
	return rf.write(res.WriteText, jsonWriter(res.JSON()), res.AppCSV().WriteCSV)
}

func newScenarios() *cobra.Command {
	return &cobra.Command{
		Use:   "scenarios",
		Short: "List the named co-location scenarios",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			for _, s := range apps.Scenarios() {
				fmt.Fprintf(cmd.OutOrStdout(), "%-24s %s\n", s.Name, strings.Join(s.Apps, ", "))
			}
			return nil
		},
	}
}
