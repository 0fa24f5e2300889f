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
	Preset   string   // platform preset (fastdrain-tlc)
	Sets     []string // overrides applied to every run (never per variant)
	Duration sim.Time // simulated time per run
	Only     []string // figures to make (empty = all but sensitivity)
	Apps     apps.Spec
	Jobs     int
	Progress func(done, total int)
}

// key identifies one run: scenario, variant and extra overrides (sensitivity points).
type key struct {
	scenario, variant, extra string
}

// Set is the results of every run of a reproduction.
type Set struct {
	Options Options
	runs    map[key]*runner.Result
}

// wanted returns the runs the selected figures need.
func wanted(only []string) (keys []key, err error) {
	sel := map[string]bool{}
	for _, f := range only {
		ok := false
		for _, g := range Figures {
			ok = ok || g == f
		}
		if !ok {
			return nil, fmt.Errorf("--only: unknown figure %q (have %s)", f, strings.Join(Figures, ", "))
		}
		sel[f] = true
	}
	if len(sel) == 0 {
		for _, f := range Figures[:len(Figures)-1] {
			sel[f] = true
		}
	}
	seen := map[key]bool{}
	add := func(k key) {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
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
		case "fig3a", "fig3b":
			variants = []string{"fd-buf", "lsb-only"}
		case "fig5":
			variants = []string{"vanilla", "fd-buf", "fd-ftl", "fd"}
		case "fig6a":
			variants, scenarios = []string{"vanilla", "fd-buf", "fd-ftl", "fd"}, []string{apps.ApacheU}
		case "fig6b":
			variants = []string{"fd"}
		case "sensitivity":
			for _, x := range sensitivityPoints() {
				for _, a := range lc {
					for _, v := range []string{"vanilla", "fd"} {
						add(key{a + "+" + apps.Ungzip, v, x})
					}
				}
			}
			continue
		}
		for _, a := range scenarios {
			for _, v := range variants {
				add(key{a + "+" + apps.Ungzip, v, ""})
			}
		}
	}
	sort.SliceStable(keys, func(i, j int) bool { return keys[i].extra < keys[j].extra })
	return keys, nil
}

// sensitivityPoints are the extra overrides of the sensitivity study: the write-buffer size
// (256 MiB, 512 MiB, 1 GiB, with the DRAM sized to hold it) and the host memory (2, 4,
// 8 GiB).
func sensitivityPoints() []string {
	return []string{
		"firmware.buffer.pages=65536;dram.capacity=256MiB",
		"firmware.buffer.pages=131072;dram.capacity=512MiB",
		"firmware.buffer.pages=262144;dram.capacity=1GiB",
		"host.pagecache.memory=2GiB",
		"host.pagecache.memory=8GiB",
	}
}

// Run makes every run the selected figures need, in parallel, and returns them.
func Run(o Options) (*Set, error) {
	keys, err := wanted(o.Only)
	if err != nil {
		return nil, err
	}
	var opts []runner.Options
	for _, k := range keys {
		sets := append([]string{}, o.Sets...)
		if k.extra != "" {
			sets = append(sets, strings.Split(k.extra, ";")...)
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
		opts = append(opts, runner.Options{Label: k.variant, Config: c, Workload: runner.Workload{Scenario: sc, Apps: o.Apps}})
	}
	var progress func(int)
	if o.Progress != nil {
		progress = func(d int) { o.Progress(d, len(opts)) }
	}
	res, errs := runner.RunAll(opts, o.Jobs, progress)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	s := &Set{Options: o, runs: map[key]*runner.Result{}}
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
