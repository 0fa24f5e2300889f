package cliflags

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
)

// Scales of a run: --quick, the default and --full (the paper's 30 simulated seconds).
const (
	QuickDuration   = 3 * sim.Second
	DefaultDuration = platforms.RunDuration
	FullDuration    = apps.DefaultDuration
)

// Scale is the simulated time of a run: --duration (or --quick, --full) and --warmup.
type Scale struct {
	Duration, Warmup string // --duration ("" = by --quick and --full), --warmup
	Quick, Full      bool   // --quick, --full
}

// Times resolves the flags into the run's duration and warm-up, reporting every bad flag:
// --quick with --full, a duration that is not a positive time, a warm-up that is not a
// time of at least 0.
func (s *Scale) Times() (dur, warmup sim.Time, errs []error) {
	switch {
	case s.Quick && s.Full:
		errs = append(errs, errors.New("--quick and --full exclude each other"))
	case s.Duration != "":
		d, err := Time("duration", s.Duration, true)
		if err != nil {
			errs = append(errs, err)
		}
		dur = d
	case s.Quick:
		dur = QuickDuration
	case s.Full:
		dur = FullDuration
	default:
		dur = DefaultDuration
	}
	w, err := Time("warmup", s.Warmup, false)
	if err != nil {
		errs = append(errs, err)
	}
	return dur, w, errs
}

// Workload are the flags of the commands that run co-location scenarios of the application
// models (run, compare, figures, and sweep's run points): the scenario, its simulated time,
// the application parameters, the seed and how many simulations run side by side.
type Workload struct {
	Scenario string // --scenario; unused where the command chooses its scenarios (WorkloadUse.Scenario "")
	Scale
	Apps string // --apps: a YAML file of application-model parameters ("" = apps.DefaultSpec())
	Seed uint64 // --seed (0 = the platform's or scenario's)
	Jobs int    // --jobs (0 = one per CPU)
}

// WorkloadUse says how one command's help words its workload flags.
type WorkloadUse struct {
	// Where prefixes every usage but --jobs's, e.g. "run points: " for sweep's.
	Where string
	// Scenario is --scenario's default; "" declares no --scenario (the command chooses the
	// scenarios: compare's --scenarios, figures' experiments).
	Scenario string
	// Seed is --seed's usage ("" for "random seed (0 = the platform's)").
	Seed string
}

// Register declares the workload flags on cmd.
func (w *Workload) Register(cmd *cobra.Command, u WorkloadUse) {
	f, p := cmd.Flags(), u.Where
	if u.Scenario != "" {
		f.StringVar(&w.Scenario, "scenario", u.Scenario, p+`co-location scenario (see "fastdrain scenarios")`)
	}
	f.StringVar(&w.Duration, "duration", "", p+"simulated run time per scenario, e.g. 10s (default 10s; --quick 3s; --full 30s)")
	f.StringVar(&w.Warmup, "warmup", "0", p+"simulated time at the start left out of the statistics")
	f.StringVar(&w.Apps, "apps", "", p+"YAML file of application-model parameters (docs/workloads.md)")
	if u.Seed == "" {
		u.Seed = "random seed (0 = the platform's)"
	}
	f.Uint64Var(&w.Seed, "seed", 0, u.Seed)
	f.BoolVar(&w.Quick, "quick", false, p+"short runs (3 simulated seconds)")
	f.BoolVar(&w.Full, "full", false, p+"the paper's scale (30 simulated seconds)")
	f.IntVar(&w.Jobs, "jobs", 0, "simulations run in parallel (0 = one per CPU)")
}

// Resolve returns scenario name (apps.LookupScenario) with the flags' simulated time, seed
// and application parameters, validated. Every error names its flag; all are reported.
func (w *Workload) Resolve(name string) (runner.Workload, error) {
	var errs []error
	sc, err := apps.LookupScenario(name)
	if err != nil {
		errs = append(errs, fmt.Errorf("--scenario: %w", err))
	}
	var terrs []error
	sc.Duration, sc.Warmup, terrs = w.Times()
	errs = append(errs, terrs...)
	if len(terrs) == 0 && sc.Warmup >= sc.Duration {
		errs = append(errs, fmt.Errorf("--warmup %q: must be below the run's simulated time (%s)", w.Warmup, sc.Duration))
	}
	if w.Seed != 0 {
		sc.Seed = w.Seed
	}
	spec := apps.DefaultSpec()
	if w.Apps != "" {
		if spec, err = apps.ReadFile(w.Apps); err != nil {
			errs = append(errs, fmt.Errorf("--apps: %w", err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return runner.Workload{}, err
	}
	if err := sc.Validate(); err != nil {
		return runner.Workload{}, err
	}
	return runner.Workload{Scenario: sc, Apps: spec}, nil
}
