package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
)

// compareFlags are run flags plus the variant and scenario lists.
type compareFlags struct {
	runFlags
	variants  string
	scenarios string
}

func (cf *compareFlags) register(cmd *cobra.Command) {
	cf.runFlags.register(cmd, "")
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
	tab := runner.P99Table("p99 response time per variant (each app co-located with ungzip)", appsRun, variants, cell)
	means := meanTable(appsRun, variants, cell)
	corun := corunnerTable(appsRun, variants, cell)
	power := energyTable(appsRun, variants, cell)
	plCells := powerLossCells(scenarios, variants, func(sc, v string) runner.Cell {
		return runner.Cell{Scenario: sc, Variant: v, Result: results[index[key{sc, v}]]}
	})
	var plTab *report.Table
	if plCells != nil {
		plTab = powerLossCompareTable(plCells)
	}
	out := cmd.OutOrStdout()
	msg := out
	if cf.format != "text" {
		msg = cmd.ErrOrStderr() // standard output holds only the JSON or CSV
	}
	sum := buildSummary(cf.cfg.preset, dur, scenarios, appsRun, variants, cf.pcts.list, cell)
	if cf.format == "json" {
		if err := sum.writeJSON(out); err != nil {
			return err
		}
	} else if cf.format == "csv" {
		if err := sum.table().WriteCSV(out); err != nil {
			return err
		}
	} else {
		preset := cf.cfg.preset
		fmt.Fprintf(out, "FastDrain comparison on %s: %d scenarios × %d variants, %s simulated each\n\n",
			preset, len(scenarios), len(variants), report.Duration(dur))
		tabs := []*report.Table{tab, means, corun, power}
		if plTab != nil {
			tabs = append(tabs, plTab)
		}
		for _, t := range tabs {
			if err := t.WriteText(out); err != nil {
				return err
			}
			fmt.Fprintln(out)
		}
	}
	if err := writeCompareSummary(msg, appsRun, variants, cell); err != nil {
		return err
	}
	if cf.noFiles {
		return nil
	}
	dir, err := newResultDir(filepath.Join(cf.out, "compare"), cf.cfg.preset+"-"+dur.String())
	if err != nil {
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
	for _, f := range []struct {
		name string
		t    *report.Table
	}{{"p99.csv", p99CSV(appsRun, variants, cell)}, {"mean.csv", meanCSV(appsRun, variants, cell)},
		{"corunner.csv", corunnerCSV(appsRun, variants, cell)}, {"energy.csv", energyCSV(appsRun, variants, cell)}} {
		if err := f.t.SaveCSV(filepath.Join(dir, f.name)); err != nil {
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
	fmt.Fprintf(msg, "results written to %s\n", dir)
	return nil
}

// meanTable lists the mean response time per app and variant.
func meanTable(appsRun, variants []string, cell func(app, v string) runner.Cell) *report.Table {
	t := &report.Table{Title: "mean response time and p99/mean per variant", Header: []string{"app"}}
	for _, v := range variants {
		t.Header = append(t.Header, v+" mean", v+" p99/mean")
	}
	for _, a := range appsRun {
		row := []string{a}
		for _, v := range variants {
			r := cell(a, v).Result.App(a)
			m := r.Latency.Mean()
			row = append(row, report.Duration(simTime(m)), fmt.Sprintf("%.1f", float64(r.Latency.Quantile(0.99))/max(m, 1)))
		}
		t.Append(row...)
	}
	return t
}

// corunnerTable lists the write throughput of Ungzip, the co-runner, in each app's scenario
// under each variant. Ungzip is closed-loop (it waits for its input reads and for
// balance_dirty_pages), so a variant that drains faster lets it write more, and that extra
// write-back is load the latency-critical app sees: p99s are comparable only with this in view.
func corunnerTable(appsRun, variants []string, cell func(app, v string) runner.Cell) *report.Table {
	t := &report.Table{Title: "co-runner (ungzip) write throughput per variant, MB/s", Header: []string{"scenario"}}
	t.Header = append(t.Header, variants...)
	for _, a := range appsRun {
		row := []string{cell(a, variants[0]).Scenario}
		for _, v := range variants {
			r := cell(a, v).Result
			if r == nil || r.App(apps.Ungzip) == nil {
				row = append(row, "-")
				continue
			}
			row = append(row, fmt.Sprintf("%.1f", r.Throughput(apps.Ungzip)))
		}
		t.Append(row...)
	}
	return t
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

func simTime(ps float64) sim.Time { return sim.Time(int64(ps)) }

// energyTable lists the SSD's average power, its highest power over the last peak window
// (10 ms by default) and its energy per GB the host wrote, in each app's scenario under each
// variant (docs/energy.md): what a variant's latency costs in watts.
func energyTable(appsRun, variants []string, cell func(app, v string) runner.Cell) *report.Table {
	t := &report.Table{Title: "SSD average power, peak power and energy per GB written per variant", Header: []string{"scenario"}}
	for _, v := range variants {
		t.Header = append(t.Header, v+" W", v+" peak W", v+" J/GB")
	}
	for _, a := range appsRun {
		row := []string{cell(a, variants[0]).Scenario}
		for _, v := range variants {
			r := cell(a, v).Result
			if r == nil || r.Energy == nil {
				row = append(row, "-", "-", "-")
				continue
			}
			e := r.Energy
			peak := "-"
			if n := len(e.Peaks); n > 0 {
				peak = fmt.Sprintf("%.2f", e.Peaks[n-1].Watts)
			}
			row = append(row, fmt.Sprintf("%.2f", e.AveragePower()), peak, fmt.Sprintf("%.1f", e.PerGBWritten()))
		}
		t.Append(row...)
	}
	return t
}
