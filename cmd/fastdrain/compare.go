package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/internal/listflag"
	"github.com/fastdrain-sim/fastdrain/internal/progress"
	"github.com/fastdrain-sim/fastdrain/runner/comparerun"
	"github.com/spf13/cobra"
)

// compareFlags are run flags plus the variant and scenario lists.
type compareFlags struct {
	runFlags
	variants  string
	scenarios string
}

func (cf *compareFlags) register(cmd *cobra.Command) {
	cf.runFlags.register(cmd, "compare", "", "json: summary.json's document; csv: summary.csv's table",
		"summary.json, summary.csv and every run's apps.csv and result.json")
	cf.Refuse("timeline", "it runs many simulations in parallel; trace one of them with fastdrain run --timeline")
	f := cmd.Flags()
	f.StringVar(&cf.variants, "variants", "vanilla,fd-buf,fd-ftl,fd", "variants to compare, the first is the baseline")
	var lc []string
	for _, a := range apps.LatencyCritical() {
		lc = append(lc, a+"+"+apps.Ungzip)
	}
	f.StringVar(&cf.scenarios, "scenarios", strings.Join(lc, ","), "co-location scenarios to run")
	// compare takes a list of variants; the single --variant of the run flags is refused
	// (run's error says so) and kept out of the help.
	_ = f.MarkHidden("variant")
}

func newCompare() *cobra.Command {
	cf := &compareFlags{}
	cmd := &cobra.Command{
		Use:   "compare",
		Short: "Run the FastDrain comparison: variants × co-location scenarios (the default action)",
		Long: `compare runs every scenario under every variant on the same platform — all variants share
every other parameter — in parallel, and prints each latency-critical application's p99 response
time per variant and normalized to the first variant (the paper's Fig. 5), then writes every
run's outputs and a summary under --out/compare/: p99.csv, mean.csv, corunner.csv,
energy.csv, p99.png/.svg, and summary.json (per app and variant: requests, mean, p50, p90,
p99, p99.9 and max in µs, p99 normalized to the first variant, Ungzip's MB/s, SSD watts and
J/GB; numbers only, units in the field names).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cf.run(cmd) },
	}
	cf.register(cmd)
	return cmd
}

func (cf *compareFlags) run(cmd *cobra.Command) error {
	cf.seedSet()
	if cf.cfg.Variant != "" && len(listflag.Split(cf.variants)) > 0 && len(listflag.Split(cf.scenarios)) > 0 {
		return errors.New("compare takes --variants, not --variant")
	}
	c, err := comparerun.New(cf.cfg.Preset, listflag.Split(cf.scenarios), listflag.Split(cf.variants), cf.cfg.LoadVariant, cf.workload, cf.check)
	if err != nil {
		return err
	}
	dur := c.Duration()
	fmt.Fprintln(cmd.ErrOrStderr(), comparerun.Header(cf.cfg.Preset, dur, c.Scenarios, c.Variants, cf.wl.Jobs,
		comparerun.Estimate(cf.cfg.Preset, len(c.Options), dur, cf.wl.Jobs, !cf.NoFiles)))
	tick, finish := progress.Bar(cmd.ErrOrStderr(), len(c.Options))
	err = c.Run(cf.wl.Jobs, tick)
	finish()
	if err != nil {
		return err
	}
	sum := c.Summary(cf.Percentiles.List)
	if err := cf.Write(c.WriteText, sum.WriteJSON, sum.Table().WriteCSV); err != nil {
		return err
	}
	if err := c.WriteVerdict(cf.Status()); err != nil {
		return err
	}
	dir, err := cf.RunDir(cf.cfg.Preset + "-" + dur.String())
	if err != nil || dir == "" {
		return err
	}
	if err := c.WriteDir(dir, cf.Percentiles.List, writeRunMeta); err != nil {
		return err
	}
	fmt.Fprintf(cf.Status(), "results written to %s\n", dir)
	return nil
}
