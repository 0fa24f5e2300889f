package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/fastdrain-sim/fastdrain/internal/progress"
	"github.com/fastdrain-sim/fastdrain/sweep"
	"github.com/spf13/cobra"
)

// sweepFlags are the flags of the sweep command.
type sweepFlags struct {
	cfg   cliflags.Config
	sw    sweep.Flags
	shard string
	// shardFrom says where --shard auto found the shard ("" for i/n).
	shardFrom string
	wl        cliflags.Workload
	force     bool
	cliflags.Output
}

func newSweepCmd() *cobra.Command {
	sf := &sweepFlags{}
	cmd := &cobra.Command{
		Use:   "sweep --axis KEY=V1,V2,… [--axis …] [--file sweep.yaml]",
		Short: "Run a grid of simulations over configuration keys, in parallel, sharded if asked",
		Long: `sweep runs one simulation per point of a grid over configuration keys — the cartesian
product of the --axis lists (and the axes of --file), first axis slowest — each point being
the base configuration (--preset, --variant, --config, --set) plus one --set per axis, e.g.

  fastdrain sweep --kind flashbench --preset tiny --axis flash.channels=2,4,8 --axis flash.ways=1,2,4

--kind flashbench drives the point's bare flash array (flashbench: --ops, --qd, --mix);
--kind run runs a co-location scenario on the whole machine (--scenario, --duration). An
axis may also sweep those job parameters: flashbench.qd, flashbench.ops, flashbench.mix,
flashbench.multi_plane, flashbench.slc, flashbench.seed; run.duration, run.warmup, run.seed. Points
run in parallel on all cores (--jobs). The table of points × metrics is printed and written
as sweep.json and sweep.csv under --out/sweep/. An existing file there is replaced only by
the same shard of the same sweep (a retried task writes the same bytes) or with --force.

--shard i/n runs only the points k with k mod n == i (0-based i) and writes
shard-i-of-n.json/.csv, so a batch scheduler can spread a sweep over machines; "fastdrain
merge" then joins the shard files into output byte-identical to an unsharded run, latency
distributions included. --shard auto takes the shard from a Slurm job array's variables
(SLURM_ARRAY_TASK_ID, _COUNT, _MIN, _MAX, _STEP: 0- or 1-based and stepped arrays both
work); --shard auto/N takes the index from Slurm or from a Kubernetes indexed Job
(JOB_COMPLETION_INDEX) with N shards. docs/cluster.md has sbatch and Job examples.

A sweep file holds the axes and, optionally, the base:
  kind: flashbench
  preset: tiny
  set: [flash.die.planes=4]
  axes:
    - {key: flash.channels, values: [2, 4, 8]}
    - {key: flash.ways, values: [1, 2, 4]}
Flags given explicitly override the file; --axis flags add axes after the file's.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return sf.run(cmd) },
	}
	sf.register(cmd)
	return cmd
}

// register declares the sweep flags on cmd.
func (sf *sweepFlags) register(cmd *cobra.Command) {
	sf.cfg.Register(cmd, "fastdrain-tlc")
	sf.Output.Register(cmd, "sweep", "json: sweep.json's document; csv: sweep.csv's table", "0s:100ms",
		"the metric columns APP.pXX_us of run points, read_/program_/erase_pXX_us of flashbench points; without it p50, p99, p99.9 and p99 respectively")
	sf.Refuse("timeline", "it runs many simulations in parallel; trace one point with fastdrain run or flashbench --timeline")
	sf.wl.Register(cmd, cliflags.WorkloadUse{Where: "run points: ", Scenario: sweep.DefaultRun().Scenario,
		Seed: "random seed of the flashbench stream or of the run workload (0 = the configuration's or scenario's)"})
	d, sw, f := sweep.DefaultFlashbench(), &sf.sw, cmd.Flags()
	f.StringVar(&sw.Kind, "kind", string(sweep.KindRun), "job of every point: run (whole machine) or flashbench (bare flash array)")
	f.StringArrayVar(&sw.Axes, "axis", nil, "swept key and values, KEY=V1,V2,… (repeatable; the first axis varies slowest)")
	f.StringVar(&sw.File, "file", "", "YAML sweep file (axes, and optionally kind, preset, variant, config, set)")
	f.StringVar(&sf.shard, "shard", "0/1", "run only shard i of n (0-based): the points k with k mod n == i; auto or auto/N: from Slurm or Kubernetes (see above)")
	f.BoolVar(&sf.force, "force", false, "replace an existing result file of another sweep or shard (the same shard of the same sweep is always rewritten: a retried task)")
	f.Int64Var(&sw.Flashbench.Ops, "ops", d.Ops, "flashbench points: operations to complete")
	f.IntVar(&sw.Flashbench.QueueDepth, "qd", d.QueueDepth, "flashbench points: operations outstanding across the array")
	f.StringVar(&sw.Mix, "mix", fmt.Sprintf("%d/%d/%d", d.Mix[0], d.Mix[1], d.Mix[2]), "flashbench points: read/program/erase weights")
	f.BoolVar(&sw.Flashbench.MultiPlane, "multi-plane", false, "flashbench points: use all planes of a die in every operation")
	f.BoolVar(&sw.Flashbench.SLC, "slc", false, "flashbench points: read and program in the dies' pSLC mode (flash.die.slc)")
}

// spec builds the sweep from the file and the flags (sweep.ParseSpec) and the shard; every
// error names its flag or file.
func (sf *sweepFlags) spec(cmd *cobra.Command) (sweep.Spec, sweep.Shard, error) {
	outErr := sf.Output.Parse()
	sf.sw.Base = sweep.Base{Preset: sf.cfg.Preset, Variant: sf.cfg.Variant, Files: sf.cfg.Files, Sets: sf.cfg.Sets}
	sf.sw.Seed, sf.sw.Run.Scenario, sf.sw.Run.Apps = sf.wl.Seed, sf.wl.Scenario, sf.wl.Apps
	sf.sw.Times, sf.sw.Percentiles = sf.wl.Times, sf.Percentiles.List
	s, err := sweep.ParseSpec(sf.sw, cmd.Flags().Changed)
	sh, from, shErr := sweep.ParseShardFlag(sf.shard, os.Getenv)
	sf.shardFrom = from
	return s, sh, errors.Join(err, shErr, outErr)
}

func (sf *sweepFlags) run(cmd *cobra.Command) error {
	s, sh, err := sf.spec(cmd)
	if err != nil {
		return err
	}
	if sf.shardFrom != "" {
		fmt.Fprintf(cmd.ErrOrStderr(), "shard %s, from %s\n", sh, sf.shardFrom)
	}
	if dir := sf.Dir(); dir != "" && !sf.force {
		if err := sweep.GuardFile(dir, s, sh); err != nil {
			return err
		}
	}
	tick, finish := progress.Bar(cmd.ErrOrStderr(), len(sh.Points(s.Size())))
	r, err := sweep.Run(s, sweep.Options{Shard: sh, Jobs: sf.wl.Jobs, Progress: tick})
	finish()
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	err = sf.Write(func(w io.Writer) error {
		fmt.Fprintf(w, "%s\n\n", s.Heading(sh, len(r.Rows)))
		return r.TextTable().WriteText(w)
	}, r.WriteJSON, r.WriteCSV)
	if err != nil {
		return err
	}
	if dir := sf.Dir(); dir != "" {
		paths, err := r.WriteFiles(dir)
		if err != nil {
			return err
		}
		if sf.Format == "text" {
			fmt.Fprintf(out, "\nwrote %s\n", strings.Join(paths, ", "))
		}
	}
	if n := r.Failed(); n > 0 {
		return fmt.Errorf("%d of %d points failed (see the error column)", n, len(r.Rows))
	}
	return nil
}

func newMergeCmd() *cobra.Command {
	o := cliflags.Output{OutShort: "o"}
	var force bool
	cmd := &cobra.Command{
		Use:   "merge [--out DIR] SHARD.json…",
		Short: "Join the shard results of a sweep into the whole sweep's results",
		Long: `merge reads the shard-i-of-n.json files of "fastdrain sweep --shard", checks that they come
from the same sweep (kind, base configuration and its digest, axes, job parameters) and
together hold every grid point exactly once — naming the files of any mismatch, missing
shard or duplicate point — and writes --out/sweep/sweep.json and sweep.csv, byte-identical
to the output of the same sweep run without --shard (where that sweep writes them too).
--format json or csv also prints sweep.json's document or sweep.csv's table (the summary
line then goes to stderr).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Parse(); err != nil {
				return err
			}
			m, err := sweep.MergeFiles(args)
			if err != nil {
				return err
			}
			written := " (--no-files: nothing written)"
			if dir := o.Dir(); dir != "" {
				if err := sweep.GuardSealed(dir, m.Spec, m.Shard); err != nil && !force {
					return err
				}
				paths, err := m.WriteFiles(dir)
				if err != nil {
					return err
				}
				written = " → " + strings.Join(paths, ", ")
			}
			if _, err = fmt.Fprintf(o.Status(), "merged %d files: %d points%s\n", len(args), m.Points, written); err != nil {
				return err
			}
			return o.Write(nil, m.WriteJSON, m.WriteCSV)
		},
	}
	o.Register(cmd, "sweep", "json: sweep.json's document; csv: sweep.csv's table", "0s:100ms", "")
	o.Refuse("percentiles", "the shards' percentiles are those their sweep ran with")
	o.Refuse("timeline", "it joins finished results and simulates nothing")
	cmd.Flags().BoolVar(&force, "force", false, "replace an existing sweep.json of another sweep (the same sweep's is always rewritten)")
	return cmd
}
