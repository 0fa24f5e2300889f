package figures

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos"
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
	// Hosts are the host profiles (hostos.Profiles) every run is made on, the headline's
	// first; nil = every profile, the paper's first, unless Sets names one (then that one).
	Hosts []string
	// Seeds is how many seeds every claim's runs are made on (the default seed and the next
	// Seeds − 1); a claim is reproduced only if its band holds on all of them. 0 or 1 = the
	// default seed only (the never-draining Oracle still runs on three, for Fig. 2b's spread).
	Seeds int
	// Short, if positive, is a shorter duration the claims' default-seed runs are also made
	// at, so that a claim that holds at Duration and not at Short says so.
	Short    sim.Time
	Jobs     int
	Progress func(done, total int)
}

// key identifies one run: host profile, scenario, variant and the label of its point ("" =
// the default runs; a sensitivity setting, the equal-work control, another seed, the short
// duration). A host's view (Set.onHost) has host "" in every key.
type key struct {
	host, scenario, variant, extra string
}

// Set is the results of every run of a reproduction.
type Set struct {
	Options Options
	runs    map[key]*runner.Result
	points  []point  // the points run beside the default runs
	hosts   []string // the host profiles run, the headline's first (nil in a host's view)
}

// wanted returns the runs the selected figures need, and the points (runs beside the
// default ones) they use; pts are the sensitivity study's points on this platform.
func wanted(only []string, pts []point, seeds int, short sim.Time) (keys []key, used []point, err error) {
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
			// Each app alone under the never-draining Oracle: its co-located p99 against
			// its solo one (issue 19's 2× target).
			for _, a := range lc {
				add(key{scenario: a, variant: "oracle"}, nil)
			}
			// The never-draining Oracle on two more seeds: the spread no variant may beat it
			// by; and both oracles at equal co-runner work.
			for i := range seedPoints {
				for _, a := range lc {
					add(key{scenario: a + "+" + apps.Ungzip, variant: "oracle", extra: seedPoints[i].label}, &seedPoints[i])
				}
			}
			for _, a := range lc {
				for _, v := range []string{"oracle", "oracle-bg"} {
					add(key{scenario: a + "+" + apps.Ungzip, variant: v, extra: equalWork.label}, &equalWork)
				}
			}
		case "fig3a", "fig3b":
			variants = []string{"fd-buf", "lsb-only"}
		case "fig5":
			variants = []string{"vanilla", "fd-buf", "fd-ftl", "fd"}
			for _, a := range lc {
				for _, v := range variants {
					add(key{scenario: a + "+" + apps.Ungzip, variant: v, extra: equalWork.label}, &equalWork)
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
						add(key{scenario: a + "+" + apps.Ungzip, variant: v, extra: pts[i].label}, &pts[i])
					}
				}
			}
		}
		for _, a := range scenarios {
			for _, v := range variants {
				add(key{scenario: a + "+" + apps.Ungzip, variant: v}, nil)
				// The claims' runs on the other seeds and at the short duration.
				for i := 0; i+1 < seeds && f != "sensitivity"; i++ {
					add(key{scenario: a + "+" + apps.Ungzip, variant: v, extra: seedPoints[i].label}, &seedPoints[i])
				}
				if short > 0 && f != "sensitivity" {
					p := shortPoint(short)
					add(key{scenario: a + "+" + apps.Ungzip, variant: v, extra: p.label}, &p)
				}
			}
		}
	}
	sort.SliceStable(keys, func(i, j int) bool { return keys[i].extra < keys[j].extra })
	return keys, used, nil
}

// regimeVariants are the variants the claims compare (the regime map runs them all).
var regimeVariants = []string{"vanilla", "oracle", "fd-buf", "fd-ftl", "fd", "lsb-only"}

// Run makes every run the selected figures need, on every host profile, in parallel, and
// returns them.
func Run(o Options) (*Set, error) {
	base, hosts, keys, pts, err := plan(o)
	if err != nil {
		return nil, err
	}
	byLabel := map[string]point{}
	for _, p := range pts {
		byLabel[p.label] = p
	}
	var opts []runner.Options
	var all []key
	for _, h := range hosts {
		for _, k := range keys {
			p := byLabel[k.extra]
			sets := append(append([]string{}, o.Sets...), "host.profile="+h)
			sets = append(sets, p.sets...)
			if p.seed != 0 {
				sets = append(sets, fmt.Sprintf("seed=%d", base.Seed+p.seed))
			}
			c, err := platforms.Load(platforms.Options{Preset: o.Preset, Variant: k.variant, Sets: sets})
			if err != nil {
				return nil, fmt.Errorf("%s/%s on the %s host: %w", k.scenario, k.variant, h, err)
			}
			sc, err := apps.LookupScenario(k.scenario)
			if err != nil {
				return nil, err
			}
			sc.Duration = o.Duration
			if p.duration > 0 {
				sc.Duration = p.duration
			}
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
			k.host = h
			all = append(all, k)
			opts = append(opts, runner.Options{Label: k.variant, Config: c, Workload: runner.Workload{Scenario: sc, Apps: spec}})
		}
	}
	var progress func(int)
	if o.Progress != nil {
		progress = func(d int) { o.Progress(d, len(opts)) }
	}
	res, errs := runner.RunAll(opts, o.Jobs, progress)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	s := &Set{Options: o, runs: map[key]*runner.Result{}, points: pts, hosts: hosts}
	for i, k := range all {
		s.runs[k] = res[i]
	}
	return s, nil
}

// plan resolves o: the base platform, the host profiles, and the runs (keys, host "")
// and the points beside the default ones that every host makes.
func plan(o Options) (base platforms.Config, hosts []string, keys []key, pts []point, err error) {
	base, err = platforms.Load(platforms.Options{Preset: o.Preset, Sets: o.Sets})
	if err != nil {
		return base, nil, nil, nil, err
	}
	if o.Seeds > len(seedPoints)+1 {
		return base, nil, nil, nil, fmt.Errorf("figures: at most %d seeds", len(seedPoints)+1)
	}
	hosts = o.Hosts
	if len(hosts) == 0 {
		hosts = hostos.Profiles()
		for _, st := range o.Sets {
			if v, ok := strings.CutPrefix(st, "host.profile="); ok {
				hosts = []string{v} // the user chose the host
			}
		}
	}
	keys, pts, err = wanted(o.Only, sensitivityPoints(base), o.Seeds, o.Short)
	return base, hosts, keys, pts, err
}

// RunCount is how many simulations Run(o) makes: every run the selected figures need, on
// every host profile.
func RunCount(o Options) (int, error) {
	_, hosts, keys, _, err := plan(o)
	return len(hosts) * len(keys), err
}

// onHost is the view of the set's runs on host profile h, keyed as if it were the only
// host, so that every figure computes from it as from a one-host set.
func (s *Set) onHost(h string) *Set {
	v := &Set{Options: s.Options, runs: map[key]*runner.Result{}, points: s.points}
	for k, r := range s.runs {
		if k.host == h {
			k.host = ""
			v.runs[k] = r
		}
	}
	return v
}

// Hosts returns the host profiles the set ran on, the headline's first.
func (s *Set) Hosts() []string { return s.hosts }

// result returns the run of app's co-location scenario under variant (nil if not run).
func (s *Set) result(app, variant, extra string) *runner.Result {
	return s.runs[key{scenario: app + "+" + apps.Ungzip, variant: variant, extra: extra}]
}

// solo returns app's run alone under variant (nil if not run).
func (s *Set) solo(app, variant string) *runner.Result {
	return s.runs[key{scenario: app, variant: variant}]
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
