package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/powercut"
	"github.com/spf13/cobra"
)

// powercutFlags are the flags of `fastdrain powercut`.
type powercutFlags struct {
	cfg cliflags.Config
	fl  powercut.Flags
	cliflags.Output
}

func newPowercut() *cobra.Command {
	pf := &powercutFlags{}
	cmd := &cobra.Command{
		Use:   "powercut",
		Short: "Cut the power at chosen instants and check every acknowledged write after recovery",
		Long: `powercut is the durability campaign (docs/reliability.md): for every variant, power-loss
protection setting and mapping scheme, it builds the machine (preconditioned to steady state,
so GC runs), runs a checked host workload through the whole stack, and cuts the power --cuts
times per schedule at seeded instants:

` + powercut.ScheduleHelp + `
After each cut the firmware stops (draining its buffer on hold-up power with protection),
the mapping is rebuilt from the flash's records, and every logical page is checked: a
version older than the last durable one is a durable loss (with protection every
acknowledged write is durable), data never written there or a stale read during the run is
a stale read, a hold-up drain without room is stuck. It prints and writes the table per
target and schedule, and exits non-zero if any cut lost durable data, read stale data or
left the drain stuck.

--cycles N makes every cut N power cycles: after each cut but the last the machine is
powered on again on what it recovered (its firmware mounted: partly written blocks closed)
and the host writes again; every acknowledged or flushed write of every cycle is checked.

A variant with an unbounded buffer (oracle, oracle-bg) is not cut with protection: no
hold-up covers an unbounded buffer. --plp on refuses it; with --plp both it is cut without
protection only, and a line says so. A steady state that does not fit the machine is refused
naming the largest precondition.fill that does (gen4-qlc: --set precondition.fill=0.76).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return pf.run(cmd) },
	}
	f, fl, d := cmd.Flags(), &pf.fl, powercut.DefaultWorkload()
	pf.cfg.RegisterPlatform(cmd, "tiny")
	f.StringSliceVar(&fl.Variants, "variants", []string{"vanilla", "fd-buf", "lsb-only", "fd"}, "system variants to cut ("+strings.Join(platforms.Variants(), ", ")+")")
	f.StringVar(&fl.PLP, "plp", "both", "power-loss protection: on, off or both")
	f.StringSliceVar(&fl.Mappings, "mapping", []string{"page"}, "mapping schemes: "+strings.Join(powercut.MappingNames(), ", "))
	f.BoolVar(&fl.Keep, "keep-precondition", false, "keep the preset's preconditioning and over-provisioning instead of the steady state ("+strings.Join(powercut.SteadyState, ", ")+")")
	f.IntVar(&fl.Cuts, "cuts", 20, "cuts per target and schedule, seeded --seed, --seed+1, …")
	f.IntVar(&fl.Cycles, "cycles", 0, "power cycles per cut: run, cut, recover, mount, run again … (0: each schedule's own, 1 but two-cut's 2)")
	f.StringSliceVar(&fl.Schedules, "schedules", powercut.ScheduleNames(), "cut schedules: "+strings.Join(powercut.ScheduleNames(), ", "))
	f.Uint64Var(&fl.Seed, "seed", 1, "seed of the first cut")
	f.StringVar(&fl.From, "from", "300ms", "the earliest instant a schedule is armed at (simulated, from the machine's build)")
	f.StringVar(&fl.Window, "window", "500ms", "schedules are armed at a seeded instant of [from, from+window)")
	f.StringVar(&fl.Patience, "patience", "0", "how long a schedule waits for its condition once armed (0: each schedule's own, 100ms; lookahead 1s)")
	f.IntVar(&fl.Jobs, "jobs", 0, "cuts simulated in parallel (0 = one per CPU; results are the same)")
	f.BoolVar(&fl.Simulate, "simulate-recovery", false, "time each recovery scan on simulated dies and channels (slower) instead of the closed form")
	f.IntVar(&fl.Workload.Procs, "procs", d.Procs, "host processes, each on its own share of the logical pages")
	f.IntVar(&fl.Workload.MaxPages, "max-pages", d.MaxPages, "pages per command, 1 … this")
	f.IntVar(&fl.Workload.FUAEvery, "fua-every", d.FUAEvery, "one write in this many carries FUA (0: none)")
	f.Float64Var(&fl.Workload.HotShare, "hot-share", d.HotShare, "share of the commands on each process's hot pages (0: uniform)")
	f.Float64Var(&fl.Workload.HotFraction, "hot-fraction", d.HotFraction, "the hot part of each process's pages")
	f.StringVar(&fl.Burst, "burst", "", "with --idle: the host writes in bursts this long (empty: no pause)")
	f.StringVar(&fl.Idle, "idle", "", "with --burst: the host is idle this long after each burst (an SLC cache folds then)")
	pf.Output.Register(cmd, "powercut", "json: powercut.json's document; csv: powercut.csv, the rows as numbers", "0s:100ms", "")
	pf.Refuse("percentiles", "it reports losses and recovery times, no latency distribution")
	pf.Refuse("timeline", "it runs many simulations in parallel; trace one machine with fastdrain run --timeline")
	return cmd
}

// run runs the campaign, prints and writes its table, and fails if any cut lost data.
func (pf *powercutFlags) run(cmd *cobra.Command) error {
	if err := pf.Output.Parse(); err != nil {
		return err
	}
	pf.fl.Preset, pf.fl.Files, pf.fl.Sets = pf.cfg.Preset, pf.cfg.Files, pf.cfg.Sets
	o, err := powercut.ParseOptions(pf.fl)
	if err != nil {
		return err
	}
	for _, n := range o.Notes {
		fmt.Fprintln(pf.Status(), n.Text)
	}
	rows, cuts, err := powercut.Campaign(o)
	if err != nil {
		return err
	}
	if dir := pf.Dir(); dir != "" {
		if err := powercut.WriteDir(dir, rows, cuts, o.Notes); err != nil {
			return err
		}
	}
	err = pf.Write(powercut.Table(rows).WriteText,
		func(w io.Writer) error { return powercut.WriteJSON(w, rows, cuts, o.Notes) }, powercut.Numbers(rows, o.Notes).WriteCSV)
	if err != nil {
		return err
	}
	n, failed := powercut.Totals(rows)
	if failed > 0 {
		return fmt.Errorf("powercut: %d of %d cuts lost durable data, read stale data or left the hold-up drain stuck (see the table's first failures)", failed, n)
	}
	fmt.Fprintf(pf.Status(), "%d cuts: no durable loss, no stale read, no stuck drain\n", n)
	return nil
}
