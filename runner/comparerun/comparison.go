package comparerun

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Comparison is the runs of every scenario under every variant on one platform.
type Comparison struct {
	Preset    string   // the platform every run shares
	Scenarios []string // co-location scenarios, in order
	Variants  []string // the first is the baseline
	// Options are the runs, scenario by scenario, each under every variant in turn;
	// Results their results once Run has run.
	Options []runner.Options // every run
	Results []*runner.Result // Options' results (Run)
	// Apps are the latency-critical application of each scenario: its first that is not
	// Ungzip.
	Apps        []string
	appScenario map[string]string
	index       map[key]int
}

// key names one run: a scenario under a variant.
type key struct{ sc, v string }

// New plans the comparison on preset: load gives each variant's configuration, workload
// each scenario's workload, and check turns on every run's data check.
func New(preset string, scenarios, variants []string, load func(variant string) (platforms.Config, error),
	workload func(scenario string) (runner.Workload, error), check bool) (*Comparison, error) {
	if len(variants) < 1 || len(scenarios) < 1 {
		return nil, errors.New("--variants and --scenarios must each name at least one")
	}
	c := &Comparison{Preset: preset, Scenarios: scenarios, Variants: variants, appScenario: map[string]string{}, index: map[key]int{}}
	for _, sc := range scenarios {
		w, err := workload(sc)
		if err != nil {
			return nil, err
		}
		for _, v := range variants {
			cfg, err := load(v)
			if err != nil {
				return nil, fmt.Errorf("variant %s: %w", v, err)
			}
			c.index[key{sc, v}] = len(c.Options)
			c.Options = append(c.Options, runner.Options{Label: v, Config: cfg, Workload: w, CheckData: check})
		}
	}
	for _, sc := range scenarios {
		s, _ := apps.LookupScenario(sc)
		for _, a := range s.Apps {
			if a != apps.Ungzip {
				c.Apps = append(c.Apps, a)
				c.appScenario[a] = sc
				break
			}
		}
	}
	return c, nil
}

// Duration is each run's simulated time.
func (c *Comparison) Duration() sim.Time { return c.Options[0].Workload.Scenario.Duration }

// Run runs every run, workers at a time (0: one per CPU), calling progress (if not nil)
// with the count done.
func (c *Comparison) Run(workers int, progress func(done int)) error {
	results, errs := runner.RunAll(c.Options, workers, progress)
	c.Results = results
	return errors.Join(errs...)
}

// Cell returns app's result (in its co-location scenario) under variant v.
func (c *Comparison) Cell(app, v string) runner.Cell {
	return c.run(c.appScenario[app], v)
}

// run returns scenario sc's result under variant v.
func (c *Comparison) run(sc, v string) runner.Cell {
	return runner.Cell{Scenario: sc, Variant: v, Result: c.Results[c.index[key{sc, v}]]}
}
