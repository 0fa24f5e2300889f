package powercut

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Flags are the values of fastdrain powercut's flags, each named after its flag.
// ParseOptions turns them into a campaign's Options.
type Flags struct {
	Preset    string   // --preset
	Files     []string // --config
	Variants  []string // --variants
	PLP       string   // --plp: on, off or both (ParsePLP)
	Mappings  []string // --mapping
	Sets      []string // --set
	Keep      bool     // --keep-precondition
	Cuts      int      // --cuts
	Schedules []string // --schedules (LookupSchedule)
	Seed      uint64   // --seed
	From      string   // --from: a duration
	Window    string   // --window: a positive duration
	Patience  string   // --patience: a duration
	Jobs      int      // --jobs (0 = one per CPU)
	Simulate  bool     // --simulate-recovery
	Workload  Workload // --procs, --max-pages, --fua-every, --hot-share, --hot-fraction
	Burst     string   // --burst: a duration (Workload.Burst)
	Idle      string   // --idle: a duration (Workload.Idle)
	Cycles    int      // --cycles (Options.Cycles)
}

// ParseOptions resolves the flags into a campaign: its targets (Matrix.Targets),
// schedules, instants and workload. The first bad flag is named with what is wrong.
func ParseOptions(f Flags) (Options, error) {
	o := Options{Cuts: f.Cuts, Seed: f.Seed, Workload: f.Workload, Jobs: f.Jobs, SimulateRecovery: f.Simulate, Cycles: f.Cycles}
	if o.Jobs <= 0 {
		o.Jobs = runtime.GOMAXPROCS(0)
	}
	if f.Cuts < 1 {
		return o, fmt.Errorf("--cuts: %d; want at least 1", f.Cuts)
	}
	if f.Cycles < 0 {
		return o, fmt.Errorf("--cycles: %d; want at least 1 (0: each schedule's own, 1 but two-cut's 2)", f.Cycles)
	}
	plp, ok := ParsePLP(f.PLP)
	if !ok {
		return o, fmt.Errorf("--plp: %q; want on, off or both", f.PLP)
	}
	for _, n := range f.Schedules {
		s, err := LookupSchedule(n)
		if err != nil {
			return o, fmt.Errorf("--schedules: %w", err)
		}
		o.Schedules = append(o.Schedules, s)
	}
	for _, t := range []struct {
		name, v  string
		dst      *sim.Time
		optional bool // "" means 0
	}{{"--from", f.From, &o.From, false}, {"--window", f.Window, &o.Window, false}, {"--patience", f.Patience, &o.Patience, false},
		{"--burst", f.Burst, &o.Workload.Burst, true}, {"--idle", f.Idle, &o.Workload.Idle, true}} {
		if t.v == "" && t.optional {
			continue
		}
		d, err := sim.ParseTime(t.v)
		if err != nil || d < 0 {
			return o, fmt.Errorf("%s: %q is not a non-negative duration such as 300ms", t.name, t.v)
		}
		*t.dst = d
	}
	if o.Window == 0 {
		return o, fmt.Errorf("--window: want a positive duration such as 500ms")
	}
	m := Matrix{Preset: f.Preset, Files: f.Files, Variants: f.Variants, PLP: plp, Mappings: f.Mappings,
		Sets: f.Sets, KeepPrecondition: f.Keep}
	ts, notes, err := m.Targets()
	o.Targets, o.Notes = ts, notes
	o.Notes = append(o.Notes, o.MountNotes()...)
	if err == nil && !anySLC(ts) {
		o.Schedules = slices.DeleteFunc(o.Schedules, func(s Schedule) bool { return s.SLC })
		if len(o.Schedules) == 0 {
			err = fmt.Errorf("--schedules: %s: only for a machine with an SLC cache (firmware.ftl.slc_cache), and no target has one", strings.Join(f.Schedules, ", "))
		}
	}
	return o, err
}

// anySLC reports whether a target has an SLC cache: the SLC schedules are cut only then.
func anySLC(ts []Target) bool {
	for _, t := range ts {
		if t.Config.Firmware.FTL.SLCCache.Enabled() {
			return true
		}
	}
	return false
}
