package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/powercut"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
)

// powercutFlags are the flags of `fastdrain powercut`.
type powercutFlags struct {
	preset    string
	files     []string
	variants  []string
	plp       string
	mappings  []string
	sets      []string
	keep      bool
	cuts      int
	schedules []string
	seed      uint64
	from      string
	window    string
	patience  string
	jobs      int
	simulate  bool
	w         powercut.Workload
	outputFlags
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

  random       at the seeded instant itself
  gc-erase     while a block erase is on a die
  fg-evict     while a foreground eviction's program is on a die
  flush        while a Flush waits for the flash
  relocation   while a relocated page's program (GC, a merge's copy) is on a die
  lookahead    when recovery would lose a durable version (the checker's own lookahead)

After each cut the firmware stops (draining its buffer on hold-up power with protection),
the mapping is rebuilt from the flash's records, and every logical page is checked: a
version older than the last durable one is a durable loss (with protection every
acknowledged write is durable), data never written there or a stale read during the run is
a stale read, a hold-up drain without room is stuck. It prints and writes the table per
target and schedule, and exits non-zero if any cut lost durable data, read stale data or
left the drain stuck.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return pf.run(cmd) },
	}
	f := cmd.Flags()
	d := powercut.DefaultWorkload()
	f.StringVar(&pf.preset, "preset", "tiny", "platform preset ("+strings.Join(platforms.Presets(), ", ")+")")
	f.StringArrayVar(&pf.files, "config", nil, "YAML file applied over the preset (repeatable)")
	f.StringSliceVar(&pf.variants, "variants", []string{"vanilla", "fd-buf", "lsb-only", "fd"}, "system variants to cut ("+strings.Join(platforms.Variants(), ", ")+")")
	f.StringVar(&pf.plp, "plp", "both", "power-loss protection: on, off or both")
	f.StringSliceVar(&pf.mappings, "mapping", []string{"page"}, "mapping schemes: "+strings.Join(powercut.MappingNames(), ", "))
	f.StringArrayVar(&pf.sets, "set", nil, "override one field of every machine: path.to.key=value (repeatable, applied last)")
	f.BoolVar(&pf.keep, "keep-precondition", false, "keep the preset's preconditioning and over-provisioning instead of the steady state ("+strings.Join(powercut.SteadyState, ", ")+")")
	f.IntVar(&pf.cuts, "cuts", 20, "cuts per target and schedule, seeded --seed, --seed+1, …")
	f.StringSliceVar(&pf.schedules, "schedules", powercut.ScheduleNames(), "cut schedules: "+strings.Join(powercut.ScheduleNames(), ", "))
	f.Uint64Var(&pf.seed, "seed", 1, "seed of the first cut")
	f.StringVar(&pf.from, "from", "300ms", "the earliest instant a schedule is armed at (simulated, from the machine's build)")
	f.StringVar(&pf.window, "window", "500ms", "schedules are armed at a seeded instant of [from, from+window)")
	f.StringVar(&pf.patience, "patience", "0", "how long a schedule waits for its condition once armed (0: each schedule's own, 100ms; lookahead 1s)")
	f.IntVar(&pf.jobs, "jobs", 0, "cuts simulated in parallel (0 = one per CPU; results are the same)")
	f.BoolVar(&pf.simulate, "simulate-recovery", false, "time each recovery scan on simulated dies and channels (slower) instead of the closed form")
	f.IntVar(&pf.w.Procs, "procs", d.Procs, "host processes, each on its own share of the logical pages")
	f.IntVar(&pf.w.MaxPages, "max-pages", d.MaxPages, "pages per command, 1 … this")
	f.IntVar(&pf.w.FUAEvery, "fua-every", d.FUAEvery, "one write in this many carries FUA (0: none)")
	f.Float64Var(&pf.w.HotShare, "hot-share", d.HotShare, "share of the commands on each process's hot pages (0: uniform)")
	f.Float64Var(&pf.w.HotFraction, "hot-fraction", d.HotFraction, "the hot part of each process's pages")
	pf.outputFlags.register(cmd, "powercut", "json: powercut.json's document; csv: powercut.csv, the rows as numbers", "", "")
	pf.refuse("percentiles", "it reports losses and recovery times, no latency distribution")
	pf.refuse("timeline", "it runs many simulations in parallel; trace one machine with fastdrain run --timeline")
	return cmd
}

// options resolves the flags into a campaign.
func (pf *powercutFlags) options() (powercut.Options, error) {
	o := powercut.Options{Cuts: pf.cuts, Seed: pf.seed, Workload: pf.w, Jobs: pf.jobs, SimulateRecovery: pf.simulate}
	if o.Jobs <= 0 {
		o.Jobs = runtime.GOMAXPROCS(0)
	}
	if pf.cuts < 1 {
		return o, fmt.Errorf("--cuts: %d; want at least 1", pf.cuts)
	}
	plp, ok := powercut.ParsePLP(pf.plp)
	if !ok {
		return o, fmt.Errorf("--plp: %q; want on, off or both", pf.plp)
	}
	for _, n := range pf.schedules {
		s, err := powercut.LookupSchedule(n)
		if err != nil {
			return o, fmt.Errorf("--schedules: %w", err)
		}
		o.Schedules = append(o.Schedules, s)
	}
	for _, t := range []struct {
		name, v string
		dst     *sim.Time
	}{{"--from", pf.from, &o.From}, {"--window", pf.window, &o.Window}, {"--patience", pf.patience, &o.Patience}} {
		d, err := sim.ParseTime(t.v)
		if err != nil || d < 0 {
			return o, fmt.Errorf("%s: %q is not a non-negative duration such as 300ms", t.name, t.v)
		}
		*t.dst = d
	}
	if o.Window == 0 {
		return o, fmt.Errorf("--window: want a positive duration such as 500ms")
	}
	m := powercut.Matrix{Preset: pf.preset, Files: pf.files, Variants: pf.variants, PLP: plp, Mappings: pf.mappings,
		Sets: pf.sets, KeepPrecondition: pf.keep}
	ts, err := m.Targets()
	o.Targets = ts
	return o, err
}

// run runs the campaign, prints and writes its table, and fails if any cut lost data.
func (pf *powercutFlags) run(cmd *cobra.Command) error {
	if err := pf.outputFlags.parse(); err != nil {
		return err
	}
	o, err := pf.options()
	if err != nil {
		return err
	}
	rows, cuts, err := powercut.Campaign(o)
	if err != nil {
		return err
	}
	if dir := pf.dir(); dir != "" {
		if err := powercut.WriteDir(dir, rows, cuts); err != nil {
			return err
		}
	}
	err = pf.write(powercut.Table(rows).WriteText,
		func(w io.Writer) error { return powercut.WriteJSON(w, rows, cuts) }, powercut.Numbers(rows).WriteCSV)
	if err != nil {
		return err
	}
	n, failed := powercut.Totals(rows)
	if failed > 0 {
		return fmt.Errorf("powercut: %d of %d cuts lost durable data, read stale data or left the hold-up drain stuck (see the table's first failures)", failed, n)
	}
	fmt.Fprintf(pf.status(), "%d cuts: no durable loss, no stale read, no stuck drain\n", n)
	return nil
}
