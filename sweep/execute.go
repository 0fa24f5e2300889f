package sweep

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/flashbench"
	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/runner"
)

// maxPointErrors is how many failing points an error lists before summarising the rest.
const maxPointErrors = 8

// Options controls how Run executes a sweep.
type Options struct {
	Shard Shard // the part of the grid to run; the zero value is the whole grid
	Jobs  int   // simulations run in parallel (0 = one per CPU)
	// Progress, if set, is called with the number of points finished after each point
	// ends (from a worker goroutine, serialised).
	Progress func(done int)
}

// Run runs the points of the shard and returns one row per point in point order.
//
// Before any simulation it checks the spec, each axis value on its own over the base
// (so an unknown key or a bad value fails every shard alike, naming the axis) and the
// configuration of every point of the shard; any problem is returned and nothing runs.
// A point whose simulation fails at run time gets a row with its error and no metrics.
func Run(s Spec, o Options) (*Result, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if o.Jobs < 0 {
		return nil, fmt.Errorf("sweep: jobs: %d must not be negative (0 = one per CPU)", o.Jobs)
	}
	sh := o.Shard
	if sh == (Shard{}) {
		sh = Whole()
	}
	if err := sh.Validate(); err != nil {
		return nil, err
	}
	sealed, err := s.sealed()
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, a := range s.Axes {
		for _, v := range a.Values {
			set := []string{a.Key + "=" + v}
			var err error
			switch {
			case !isParamKey(a.Key):
				_, err = s.load(set, true)
			case s.Kind == KindFlashbench:
				_, err = flashbenchParams(*s.Flashbench, set)
			default:
				_, err = runParams(*s.Run, set)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("axis %s value %s: %w", a.Key, v, err))
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	idx := sh.Points(s.Size())
	jobs := make([]job, len(idx))
	rows := make([]Row, len(idx))
	bad := 0
	for j, k := range idx {
		p := s.Axes.Point(k)
		rows[j] = Row{Point: k, Values: p.Values}
		var err error
		jobs[j], err = s.job(s.Axes.Sets(p))
		if err != nil {
			if bad < maxPointErrors {
				errs = append(errs, fmt.Errorf("point %d (%s): %w", k, s.Axes.Label(p), err))
			}
			bad++
		}
	}
	if bad > maxPointErrors {
		errs = append(errs, fmt.Errorf("… and %d more points with configuration errors", bad-maxPointErrors))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	switch s.Kind {
	case KindFlashbench:
		runFlashbench(s, jobs, rows, o)
	case KindRun:
		if err := runRun(s, jobs, rows, o); err != nil {
			return nil, err
		}
	}
	return &Result{Format: FormatVersion, Spec: sealed, Shard: sh, Points: s.Size(),
		Columns: s.Columns(), Rows: rows}, nil
}

// flashbenchConfig builds the flashbench configuration of a point from its platform's
// flash section, as `fastdrain flashbench --preset` does.
func flashbenchConfig(c platforms.Config, p FlashbenchParams) flashbench.Config {
	f := flashbench.DefaultConfig()
	f.Channels, f.Channel = c.Flash.Channels, c.Flash.ChannelSpec()
	f.QueueDepth, f.Ops, f.MultiPlane, f.SLC = p.QueueDepth, p.Ops, p.MultiPlane, p.SLC
	f.ReadWeight, f.ProgramWeight, f.EraseWeight = p.Mix[0], p.Mix[1], p.Mix[2]
	f.Seed = p.Seed
	if f.Seed == 0 {
		f.Seed = c.Seed
	}
	return f
}

// job is what one point runs: its configuration and its job parameters.
type job struct {
	config     platforms.Config
	flashbench FlashbenchParams
	run        RunParams
}

// job resolves a point's overrides into its configuration and job parameters.
func (s Spec) job(sets []string) (job, error) {
	cs, ps := splitSets(sets)
	var j job
	c, err := s.load(cs, false)
	errs := []error{err}
	j.config = c
	if s.Kind == KindFlashbench {
		j.flashbench, err = flashbenchParams(*s.Flashbench, ps)
		if d := c.Flash.ChannelSpec().Die; err == nil && j.flashbench.SLC && d.SLCPages() == 0 {
			err = fmt.Errorf("flashbench.slc: the %v die has no SLC mode (flash.die.slc: t_read and t_prog)", d.Cell)
		}
	} else {
		j.run, err = runParams(*s.Run, ps)
	}
	return j, errors.Join(append(errs, err)...)
}

// runFlashbench runs every point on a bounded pool of workers; each result goes to its
// point's row.
func runFlashbench(s Spec, jobs []job, rows []Row, o Options) {
	ps := s.Percentiles.Or(benchPercentiles)
	runner.Parallel(len(jobs), o.Jobs, o.Progress, func(j int) {
		res, err := flashbench.Run(flashbenchConfig(jobs[j].config, jobs[j].flashbench))
		if err != nil {
			rows[j].Error = err.Error()
			return
		}
		m, err := flashbenchMetrics(res, jobs[j].config.Energy, ps)
		if err != nil {
			rows[j].Error = err.Error()
			return
		}
		rows[j].Metrics = m
		rows[j].Latency = flashbenchDistributions(res)
	})
}

// runRun runs every point's machine through runner.RunAll.
func runRun(s Spec, jobs []job, rows []Row, o Options) error {
	sc, _ := apps.LookupScenario(s.Run.Scenario)
	opts := make([]runner.Options, len(jobs))
	for j, jb := range jobs {
		w, err := jb.run.workload()
		if err != nil {
			return fmt.Errorf("point %d: %w", rows[j].Point, err)
		}
		opts[j] = runner.Options{Label: fmt.Sprintf("point %d", rows[j].Point), Config: jb.config, Workload: w}
	}
	res, errs := runner.RunAll(opts, o.Jobs, o.Progress)
	for j := range rows {
		if errs[j] != nil {
			rows[j].Error = errs[j].Error()
			continue
		}
		rows[j].Metrics = runMetrics(res[j], sc.Apps, s.Percentiles.Or(runPercentiles))
		rows[j].Latency = runDistributions(res[j], sc.Apps)
	}
	return nil
}

// workload resolves the scenario and the application parameters.
func (p RunParams) workload() (runner.Workload, error) {
	sc, err := apps.LookupScenario(p.Scenario)
	if err != nil {
		return runner.Workload{}, fmt.Errorf("run.scenario: %w", err)
	}
	sc.Duration, sc.Warmup = p.Duration, p.Warmup
	if p.Seed != 0 {
		sc.Seed = p.Seed
	}
	spec := apps.DefaultSpec()
	if p.Apps != "" {
		if spec, err = apps.ReadFile(p.Apps); err != nil {
			return runner.Workload{}, fmt.Errorf("run.apps: %w", err)
		}
	}
	if err := sc.Validate(); err != nil {
		return runner.Workload{}, err
	}
	return runner.Workload{Scenario: sc, Apps: spec}, nil
}
