package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
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
	cf.refuse("timeline", "it runs many simulations in parallel; trace one of them with fastdrain run --timeline")
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
	variants := splitList(cf.variants)
	scenarios := splitList(cf.scenarios)
	if len(variants) < 1 || len(scenarios) < 1 {
		return errors.New("--variants and --scenarios must each name at least one")
	}
	if cf.cfg.variant != "" {
		return errors.New("compare takes --variants, not --variant")
	}
	var opts []runner.Options
	type key struct{ sc, v string }
	index := map[key]int{}
	for _, sc := range scenarios {
		w, err := cf.workload(sc)
		if err != nil {
			return err
		}
		for _, v := range variants {
			c, err := platforms.Load(platforms.Options{Preset: cf.cfg.preset, Variant: v, Files: cf.cfg.files, Sets: cf.cfg.sets})
			if err != nil {
				return fmt.Errorf("variant %s: %w", v, err)
			}
			index[key{sc, v}] = len(opts)
			opts = append(opts, runner.Options{Label: v, Config: c, Workload: w, CheckData: cf.check})
		}
	}
	dur := opts[0].Workload.Scenario.Duration
	fmt.Fprintln(cmd.ErrOrStderr(), compareHeader(cf.cfg.preset, dur, scenarios, variants, cf.jobs,
		compareEstimate(cf.cfg.preset, len(opts), dur, cf.jobs, !cf.noFiles)))
	progress, finish := progressBar(cmd, len(opts))
	results, errs := runner.RunAll(opts, cf.jobs, progress)
	finish()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	// The latency-critical app of each scenario: the first app that is not Ungzip.
	var appsRun []string
	appScenario := map[string]string{}
	for _, sc := range scenarios {
		s, _ := apps.LookupScenario(sc)
		for _, a := range s.Apps {
			if a != apps.Ungzip {
				appsRun = append(appsRun, a)
				appScenario[a] = sc
				break
			}
		}
	}
	cell := func(app, v string) runner.Cell {
		i := index[key{appScenario[app], v}]
		return runner.Cell{Scenario: appScenario[app], Variant: v, Result: results[i]}
	}
	// The comparison tables, each built once: the text tables and their CSV files.
	tabs := []*report.ValueTable{
		runner.P99Table("p99 response time per variant (each app co-located with ungzip)", appsRun, variants, cell),
		runner.MeanTable(appsRun, variants, cell), runner.CorunnerTable(appsRun, variants, cell),
		runner.EnergyTable(appsRun, variants, cell), runner.EngagementTable(appsRun, variants, cell)}
	files := []string{"p99.csv", "mean.csv", "corunner.csv", "energy.csv", "engagement.csv"}
	plCells := powerLossCells(scenarios, variants, func(sc, v string) runner.Cell {
		return runner.Cell{Scenario: sc, Variant: v, Result: results[index[key{sc, v}]]}
	})
	var plTab *report.Table
	if plCells != nil {
		plTab = powerLossCompareTable(plCells)
	}
	sum := buildSummary(cf.cfg.preset, dur, scenarios, appsRun, variants, cf.pcts.list, cell)
	err := cf.write(func(out io.Writer) error {
		fmt.Fprintf(out, "FastDrain comparison on %s: %d scenarios × %d variants, %s simulated each\n\n",
			cf.cfg.preset, len(scenarios), len(variants), report.Duration(dur))
		var text []*report.Table
		for _, t := range tabs {
			text = append(text, t.Text())
		}
		if plTab != nil {
			text = append(text, plTab)
		}
		for _, t := range text {
			if err := t.WriteText(out); err != nil {
				return err
			}
			fmt.Fprintln(out)
		}
		return nil
	}, sum.writeJSON, sum.table().WriteCSV)
	if err != nil {
		return err
	}
	if err := writeCompareSummary(cf.status(), appsRun, variants, cell); err != nil {
		return err
	}
	dir, err := cf.runDir(cf.cfg.preset + "-" + dur.String())
	if err != nil || dir == "" {
		return err
	}
	for i, r := range results {
		r.Percentiles = cf.pcts.list
		d := filepath.Join(dir, opts[i].Workload.Scenario.Name, opts[i].Label)
		if err := r.WriteDir(d); err != nil {
			return err
		}
		if err := writeRunMeta(d, opts[i]); err != nil {
			return err
		}
	}
	for i, t := range tabs {
		if err := t.Numbers().SaveCSV(filepath.Join(dir, files[i])); err != nil {
			return err
		}
	}
	if err := report.WriteFile(filepath.Join(dir, "summary.json"), sum.writeJSON); err != nil {
		return err
	}
	if err := sum.table().SaveCSV(filepath.Join(dir, "summary.csv")); err != nil {
		return err
	}
	if plTab != nil {
		if err := plTab.SaveCSV(filepath.Join(dir, "power-loss.csv")); err != nil {
			return err
		}
		if err := writePowerLossPlots(dir, fmt.Sprintf("%s, %s", cf.cfg.preset, dur), scenarios, variants, plCells); err != nil {
			return err
		}
	}
	var norm [][]float64
	for _, v := range variants {
		var row []float64
		for _, a := range appsRun {
			b, x := cell(a, variants[0]).P99(a), cell(a, v).P99(a)
			if b > 0 && x >= 0 {
				row = append(row, float64(x)/float64(b))
			} else {
				row = append(row, 0)
			}
		}
		norm = append(norm, row)
	}
	for _, ext := range []string{".png", ".svg"} {
		if err := report.Bars(filepath.Join(dir, "p99"+ext), fmt.Sprintf("p99 response time normalized to %s (%s, %s)", variants[0], cf.cfg.preset, dur),
			"normalized p99", appsRun, variants, norm); err != nil {
			return err
		}
	}
	fmt.Fprintf(cf.status(), "results written to %s\n", dir)
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
