package figures

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Figure names, in the paper's order.
var Figures = []string{"fig1a", "fig1b", "fig2b", "fig3a", "fig3b", "fig5", "fig6a", "fig6b", "sensitivity"}

// Options configures a reproduction.
type Options struct {
	Preset   string    // platform preset (fastdrain-tlc)
	Sets     []string  // overrides applied to every run (never per variant)
	Duration sim.Time  // simulated time per run
	Only     []string  // figures to make (empty = all but sensitivity)
	Apps     apps.Spec // the applications (their data sets scaled down on QuickPreset)
	Seed     uint64    // the scenarios' root seed (0 = theirs, 1); the platform's is in Sets
	Jobs     int
	Progress func(done, total int)
}

// key identifies one run: scenario, variant and the label of its point ("" = the default
// runs; a sensitivity setting, the equal-work control or another seed).
type key struct {
	scenario, variant, extra string
}

// Set is the results of every run of a reproduction.
type Set struct {
	Options Options
	runs    map[key]*runner.Result
	points  []point // the points run beside the default runs
}

// wanted returns the runs the selected figures need, and the points (runs beside the
// default ones) they use; pts are the sensitivity study's points on this platform.
func wanted(only []string, pts []point) (keys []key, used []point, err error) {
	sel := map[string]bool{}
	for _, f := range only {
		ok := false
		for _, g := range Figures {
			ok = ok || g == f
		}
		if !ok {
			return nil, nil, fmt.Errorf("--only: unknown figure %q (have %s)", f, strings.Join(Figures, ", "))
		}
		sel[f] = true
	}
	if len(sel) == 0 {
		for _, f := range Figures[:len(Figures)-1] {
			sel[f] = true
		}
	}
	seen := map[key]bool{}
	usedSeen := map[string]bool{}
	add := func(k key, p *point) {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
		if p != nil && !usedSeen[p.label] {
			usedSeen[p.label] = true
			used = append(used, *p)
		}
	}
	lc := apps.LatencyCritical()
	for _, f := range Figures {
		if !sel[f] {
			continue
		}
		var variants []string
		scenarios := lc
		switch f {
		case "fig1a":
			variants = []string{"vanilla"}
		case "fig1b":
			variants, scenarios = []string{"vanilla"}, []string{apps.ApacheU}
		case "fig2b":
			variants = []string{"vanilla", "oracle", "oracle-bg"}
			// The never-draining Oracle on two more seeds: the spread no variant may beat it
			// by; and both oracles at equal co-runner work.
			for i := range seedPoints {
				for _, a := range lc {
					add(key{a + "+" + apps.Ungzip, "oracle", seedPoints[i].label}, &seedPoints[i])
				}
			}
			for _, a := range lc {
				for _, v := range []string{"oracle", "oracle-bg"} {
					add(key{a + "+" + apps.Ungzip, v, equalWork.label}, &equalWork)
				}
			}
		case "fig3a", "fig3b":
			variants = []string{"fd-buf", "lsb-only"}
		case "fig5":
			variants = []string{"vanilla", "fd-buf", "fd-ftl", "fd"}
			for _, a := range lc {
				for _, v := range variants {
					add(key{a + "+" + apps.Ungzip, v, equalWork.label}, &equalWork)
				}
			}
		case "fig6a":
			variants, scenarios = []string{"vanilla", "fd-buf", "fd-ftl", "fd"}, []string{apps.ApacheU}
		case "fig6b":
			variants = []string{"fd"}
		case "sensitivity":
			// Every claim's runs at the default and at each point.
			variants = regimeVariants
			for i := range pts {
				for _, a := range lc {
					for _, v := range regimeVariants {
						add(key{a + "+" + apps.Ungzip, v, pts[i].label}, &pts[i])
					}
				}
			}
		}
		for _, a := range scenarios {
			for _, v := range variants {
				add(key{a + "+" + apps.Ungzip, v, ""}, nil)
			}
		}
	}
	sort.SliceStable(keys, func(i, j int) bool { return keys[i].extra < keys[j].extra })
	return keys, used, nil
}

// regimeVariants are the variants the claims compare (the regime map runs them all).
var regimeVariants = []string{"vanilla", "oracle", "fd-buf", "fd-ftl", "fd", "lsb-only"}

// Run makes every run the selected figures need, in parallel, and returns them.
func Run(o Options) (*Set, error) {
	base, err := platforms.Load(platforms.Options{Preset: o.Preset, Sets: o.Sets})
	if err != nil {
		return nil, err
	}
	keys, pts, err := wanted(o.Only, sensitivityPoints(base))
	if err != nil {
		return nil, err
	}
	byLabel := map[string]point{}
	for _, p := range pts {
		byLabel[p.label] = p
	}
	var opts []runner.Options
	for _, k := range keys {
		p := byLabel[k.extra]
		sets := append(append([]string{}, o.Sets...), p.sets...)
		if p.seed != 0 {
			sets = append(sets, fmt.Sprintf("seed=%d", base.Seed+p.seed))
		}
		c, err := platforms.Load(platforms.Options{Preset: o.Preset, Variant: k.variant, Sets: sets})
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %w", k.scenario, k.variant, err)
		}
		sc, err := apps.LookupScenario(k.scenario)
		if err != nil {
			return nil, err
		}
		sc.Duration = o.Duration
		if o.Seed != 0 {
			sc.Seed = o.Seed
		}
		sc.Seed += p.seed
		spec := o.Apps
		if o.Preset == QuickPreset {
			spec = spec.Scaled(QuickScale)
		}
		if p.apps != nil {
			p.apps(&spec)
		}
		opts = append(opts, runner.Options{Label: k.variant, Config: c, Workload: runner.Workload{Scenario: sc, Apps: spec}})
	}
	var progress func(int)
	if o.Progress != nil {
		progress = func(d int) { o.Progress(d, len(opts)) }
	}
	res, errs := runner.RunAll(opts, o.Jobs, progress)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	s := &Set{Options: o, runs: map[key]*runner.Result{}, points: pts}
	for i, k := range keys {
		s.runs[k] = res[i]
	}
	return s, nil
}

// result returns the run of app's co-location scenario under variant (nil if not run).
func (s *Set) result(app, variant, extra string) *runner.Result {
	return s.runs[key{app + "+" + apps.Ungzip, variant, extra}]
}

// p99 and mean of app under variant, in ps (NaN if not run).
func (s *Set) p99(app, variant, extra string) float64 {
	r := s.result(app, variant, extra)
	if r == nil || r.App(app) == nil || r.App(app).Latency.Count() == 0 {
		return nan
	}
	return float64(r.App(app).Latency.Quantile(0.99))
}

func (s *Set) mean(app, variant string) float64 {
	r := s.result(app, variant, "")
	if r == nil || r.App(app) == nil || r.App(app).Latency.Count() == 0 {
		return nan
	}
	return r.App(app).Latency.Mean()
}
