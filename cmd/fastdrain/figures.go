package main

import (
	"fmt"
	"slices"

	"github.com/fastdrain-sim/fastdrain/figures"
	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/fastdrain-sim/fastdrain/internal/progress"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
)

func newFigures() *cobra.Command {
	rf := &runFlags{}
	var only []string
	cmd := &cobra.Command{
		Use:   "figures",
		Short: "Reproduce the FastDrain paper's figures: paper vs measured, with plots",
		Long: `figures runs the paper's experiments — each latency-critical app co-located with Ungzip
under Vanilla, Oracle, FD-Buf, FD-FTL, FD and LSB-only on one platform, all variants sharing
every other parameter — and prints, for Figures 1a, 1b, 2b, 3a, 3b, 5, 6a and 6b, a table with
the paper's value beside the measured one, then a summary of every claim with its verdict.
Tables (CSV/JSON, numbers with the unit in the column name) and plots (PNG/SVG) go to a
new directory --out/figures/<preset>-<duration>/ (-2, -3, … added when that exists); --format json prints summary.json's claims and tally with the preset, the
simulated time per run and every figure's numeric table, --format csv prints summary.csv. --only selects figures
(add "sensitivity" for the regime map). --quick runs 3 simulated seconds per experiment on
fastdrain-tlc-8x (fastdrain-tlc scaled down 8× as a whole, applications' data sets
included, so that the buffer fills and overflows within the run) unless --preset names
another platform; the default runs 10 s, --full the paper's 30, on fastdrain-tlc, every
claim's runs on three seeds and again at 10 s. Every run is made on each host profile
(host.profile: the paper's host, the headline, and linux6), unless --set host.profile names one.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runFigures(cmd, rf, only) },
	}
	rf.register(cmd, "figures", "", "json: summary.json's claims and every figure's table; csv: summary.csv", "")
	rf.Refuse("percentiles", "each figure reports the statistic the paper plots (p99, mean, pages)")
	rf.Refuse("check-data", "the experiments' machines are built by the figures package, which has no data check; check one with fastdrain run --check-data")
	rf.Refuse("timeline", "it runs many simulations in parallel; trace one of them with fastdrain run --timeline")
	cmd.Flags().StringSliceVar(&only, "only", nil, "figures to make: fig1a, fig1b, fig2b, fig3a, fig3b, fig5, fig6a, fig6b, sensitivity (the regime map), or modern alone (the comparison on a current drive, gen4-tlc by default)")
	return cmd
}

// figuresOptions resolves the flags into the experiments' options and the simulated time
// the user asked for per experiment.
func figuresOptions(cmd *cobra.Command, rf *runFlags, only []string) (figures.Options, sim.Time, error) {
	rf.seedSet()
	w, err := rf.workload(platforms.RunScenario)
	if err != nil {
		return figures.Options{}, 0, err
	}
	if rf.cfg.Variant != "" {
		return figures.Options{}, 0, fmt.Errorf("figures runs every variant itself; --variant is not allowed")
	}
	o := figures.Options{Preset: rf.cfg.Preset, Sets: rf.cfg.Sets, Duration: w.Scenario.Duration,
		Only: only, Apps: w.Apps, Seed: rf.wl.Seed, Jobs: rf.wl.Jobs}
	if rf.wl.Full {
		// The paper's scale: every claim on three seeds, and again at the default 10 s
		// when the runs are longer than that.
		o.Seeds = 3
		if o.Duration > cliflags.DefaultDuration {
			o.Short = cliflags.DefaultDuration
		}
	}
	if rf.wl.Quick && !cmd.Flags().Changed("preset") {
		o = figures.Quick(o)
	}
	return o, w.Scenario.Duration, nil
}

// runFigures runs the experiments and prints and writes the figures.
func runFigures(cmd *cobra.Command, rf *runFlags, only []string) error {
	if slices.Contains(only, figures.Modern) {
		if len(only) > 1 {
			return fmt.Errorf("--only %s runs alone (it is on another platform than the paper's figures)", figures.Modern)
		}
		return runModern(cmd, rf)
	}
	o, dur, err := figuresOptions(cmd, rf, only)
	if err != nil {
		return err
	}
	tick, finish := progress.Growing(cmd.ErrOrStderr())
	o.Progress = tick
	set, err := figures.Run(o)
	finish()
	if err != nil {
		return err
	}
	figs := set.Figures()
	dir, err := rf.RunDir(o.Preset + "-" + dur.String())
	if err != nil {
		return err
	}
	if err := set.WriteDir(dir, figs); err != nil {
		return err
	}
	return rf.Write(figures.TextReport(figs, o.Preset, dur, dir), cliflags.JSONWriter(figures.FullDoc(figs, o.Preset, dur)),
		figures.SummaryCSV(figs).WriteCSV)
}

// runModern runs the modern section (figures.RunModern) on --preset if given, else on
// figures.ModernPreset, and prints and writes its table.
func runModern(cmd *cobra.Command, rf *runFlags) error {
	o, dur, err := figuresOptions(cmd, rf, nil)
	if err != nil {
		return err
	}
	if !cmd.Flags().Changed("preset") {
		o.Preset = figures.ModernPreset
	}
	tick, finish := progress.Growing(cmd.ErrOrStderr())
	o.Progress = tick
	runs, err := figures.RunModern(o)
	finish()
	if err != nil {
		return err
	}
	t := figures.ModernTable(runs)
	dir, err := rf.RunDir(figures.Modern + "-" + o.Preset + "-" + dur.String())
	if err != nil {
		return err
	}
	if err := figures.SaveModern(t, dir); err != nil {
		return err
	}
	return rf.Write(figures.ModernText(t, o.Preset, dur, dir), t.WriteJSON, t.WriteCSV)
}
