package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/spf13/cobra"
)

// runFlags are the flags of commands that run co-location scenarios on a platform (run,
// compare, figures): the configuration, the workload (cliflags.Workload), the data check,
// the plots' resolution and the output contract.
type runFlags struct {
	cfg     cliflags.Config
	wl      cliflags.Workload
	seeded  bool
	check   bool
	plotDPI int
	cliflags.Output
}

// register adds the run flags and the output contract of command to cmd; scenario is
// --scenario's default ("" for none: the command chooses its scenarios), formats says what
// --format json and csv print and pctWhere what --percentiles changes.
func (rf *runFlags) register(cmd *cobra.Command, command, scenario, formats, pctWhere string) {
	rf.cfg.Register(cmd, "fastdrain-tlc")
	rf.Output.Register(cmd, command, formats, "0s:100ms", pctWhere)
	rf.wl.Register(cmd, cliflags.WorkloadUse{Scenario: scenario})
	f := cmd.Flags()
	f.BoolVar(&rf.check, "check-data", false, "check that every page the host wrote reads back from the device (docs/reliability.md); results are unchanged")
	f.IntVar(&rf.plotDPI, "plot-dpi", report.DefaultPNGDPI, fmt.Sprintf("resolution of the PNG plots in dots per inch (%d to %d; SVG plots are vector graphics)", report.MinPNGDPI, report.MaxPNGDPI))
}

// seedSet makes --seed the platform's root seed too (every component's random stream and
// the preconditioning order), once.
func (rf *runFlags) seedSet() {
	if rf.wl.Seed != 0 && !rf.seeded {
		rf.seeded = true
		rf.cfg.Sets = append(rf.cfg.Sets, fmt.Sprintf("seed=%d", rf.wl.Seed))
	}
}

// workload resolves scenario name with the workload flags (cliflags.Workload.Resolve) and
// checks the output flags and --plot-dpi, reporting every bad flag.
func (rf *runFlags) workload(name string) (runner.Workload, error) {
	w, err := rf.wl.Resolve(name)
	errs := []error{err, rf.Output.Parse()}
	if err := report.SetPNGDPI(rf.plotDPI); err != nil {
		errs = append(errs, fmt.Errorf("--plot-dpi %d: want %d to %d dots per inch", rf.plotDPI, report.MinPNGDPI, report.MaxPNGDPI))
	}
	return w, errors.Join(errs...)
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
	c, err := rf.cfg.Load()
	if err != nil {
		return err
	}
	w, err := rf.workload(rf.wl.Scenario)
	if err != nil {
		return err
	}
	label := rf.cfg.Variant
	if label == "" {
		label = "custom"
	}
	o := runner.Options{Label: label, Config: c, Workload: w, CheckData: rf.check, Timeline: rf.Timeline.Trace()}
	res, err := runner.Run(o)
	if err != nil {
		return err
	}
	res.Percentiles = rf.Percentiles.List
	runner.WarnUnwritten(cmd.ErrOrStderr(), "", res.Firmware, firmware.Stats{})
	dir, err := rf.RunDir(fmt.Sprintf("%s-%s-%s-%s", c.Name, label, w.Scenario.Name, w.Scenario.Duration))
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
	if err := rf.Timeline.Write(cmd.ErrOrStderr(), res.Series); err != nil {
		return err
	}
	if rf.check {
		// On standard error, so the text and JSON on standard output are those of a
		// run without the check.
		fmt.Fprintf(cmd.ErrOrStderr(), "data check: %d pages read back from the device as written\n", res.DataChecked)
	}
	return rf.Write(res.WriteText, cliflags.JSONWriter(res.JSON()), res.AppCSV().WriteCSV)
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
