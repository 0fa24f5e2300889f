package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/fastdrain-sim/fastdrain/calibrate"
	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/spf13/cobra"
)

// calibrateOptions are the calibrate command's flags.
type calibrateOptions struct {
	cf           *cliflags.Config
	device, name string
	params       []string
	rounds       int
	maxIOs       int64
	seed         uint64
	cliflags.Output
}

func newCalibrate() *cobra.Command {
	o := &calibrateOptions{cf: &cliflags.Config{}}
	cmd := &cobra.Command{
		Use:   "calibrate FILE...",
		Short: "Fit a preset to measurements of a real drive (uflip --target's uflip.json, fio JSON)",
		Long: `calibrate reads measurements of a real drive — the uflip.json of "fastdrain uflip --target"
and fio JSON reports (fio --output-format=json, or fastdrain fio's fio.json) — replays every
measured run on a simulated machine built from --preset (with --set/--config), and moves the
preset's timing and structure parameters (--params: pcie, core_freq, t_read, channels,
dies_per_channel, t_prog, buffer_pages, buffer_policy, t_erase) by a deterministic coordinate
search that minimises the mean squared log error between simulated and measured mean
latencies. A parameter the measurements do not identify (no point moves 5 % when it moves
to a neighbouring value) is left at the preset's value and listed.

It prints the parameters (base, fitted, identified, by which patterns) and the error table
(per measured point: measured, base, fitted, error), and writes the fitted configuration to
OUT/calibrate/fitted.yaml (use it with "fastdrain run --config"), the tables as points.csv and
params.csv, and calibrate.json. See docs/calibrate.md.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd, args) },
	}
	o.cf.Register(cmd, "fastdrain-small")
	o.Output.Register(cmd, "calibrate", "json: the parameters and points; csv: the error table", "0s:100ms", "")
	o.Refuse("percentiles", "calibrate fits mean latencies")
	o.Refuse("timeline", "calibrate simulates many configurations; trace one with fastdrain run --config OUT/calibrate/fitted.yaml")
	f := cmd.Flags()
	f.StringVar(&o.device, "device", "", "the device of a uflip.json to fit (default: its real device, or its only one)")
	f.StringSliceVar(&o.params, "params", nil, "parameters to fit (default all: "+calibrate.ParamNames()+")")
	f.IntVar(&o.rounds, "rounds", calibrate.DefaultRounds, "at most this many search rounds")
	f.Int64Var(&o.maxIOs, "max-ios", 0, "replay at most this many IOs of each measured run per stream (0: as measured)")
	f.Uint64Var(&o.seed, "seed", 0, "random seed of the replayed uFLIP runs (0: the uflip.json's own, which replays its random IOs)")
	f.StringVar(&o.name, "name", "", "name of the fitted configuration (default fitted-PRESET)")
	return cmd
}

func (o *calibrateOptions) run(cmd *cobra.Command, files []string) error {
	if err := o.Output.Parse(); err != nil {
		return err
	}
	if o.rounds < 1 {
		return fmt.Errorf("--rounds %d must be at least 1", o.rounds)
	}
	if o.maxIOs < 0 {
		return fmt.Errorf("--max-ios %d is negative", o.maxIOs)
	}
	base, err := o.cf.Load()
	if err != nil {
		return err
	}
	set, err := calibrate.Load(files, o.device)
	if err != nil {
		return err
	}
	status := o.Status()
	fit, err := calibrate.Fit(set, calibrate.Options{Base: base, Params: o.params, Rounds: o.rounds,
		Sim: calibrate.SimOptions{MaxIOs: o.maxIOs, Seed: o.seed},
		Log: func(s string) { fmt.Fprintln(cmd.ErrOrStderr(), "calibrate: "+s) }})
	if err != nil {
		return err
	}
	name := o.name
	if name == "" {
		name = "fitted-" + o.cf.Preset
	}
	yml, err := fit.YAML(set, o.cf.Preset, name)
	if err != nil {
		return err
	}
	doc := fit.Document(set, o.cf.Preset)
	if dir := o.Dir(); dir != "" {
		if err := fit.WriteDir(dir, set, o.cf.Preset, yml); err != nil {
			return err
		}
		defer fmt.Fprintf(status, "fitted configuration: %s\n", filepath.Join(dir, "fitted.yaml"))
	}
	return o.Write(func(w io.Writer) error { return fit.WriteText(w, set) }, cliflags.JSONWriter(doc), fit.PointTable(set).Numbers().WriteCSV)
}
