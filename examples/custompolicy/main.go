// Command custompolicy is a worked example of firmware policies written outside the
// firmware package: it registers a hot/cold-separating block allocator ("hot-cold",
// hotcold.go) and a write-buffer eviction policy that drains at a fixed rate ("fixed-rate",
// evict.go) from init functions, and runs a co-located scenario on platforms that select
// them by name, through the same configuration path as `fastdrain run` (a preset, --set
// overrides, platforms.Load's validation, runner.Run). It runs the scenario with the
// built-in sequential allocator, with hot-cold, and with hot-cold plus fixed-rate eviction,
// and prints what GC and the evictor did under each.
//
//	go run ./examples/custompolicy -duration 4s
//	go run ./examples/custompolicy -set firmware.ftl.gc_victim=cost-benefit -set firmware.policies.fixed-rate.drain_rate=8192
//
// docs/firmware.md walks through both seams.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// options are the program's flags.
type options struct {
	preset   string
	scenario string
	duration string
	sets     []string
}

// shrinkSets make fastdrain-small engage GC within a few simulated seconds, as
// cmd/fastdrain's golden runs do: 128-page blocks, a quarter of the logical space
// preconditioned, a GC threshold just below the free blocks that leaves, and a small
// LSB-only region.
var shrinkSets = []string{
	"flash.die.pages_per_block=128", "precondition.fill=0.2511", "firmware.ftl.gc_threshold=399",
	"firmware.ftl.lsb_only_pages=256", "firmware.ftl.lsb_only_blocks=2",
}

// configs are the runs, each selecting the example's policies by the names they are
// registered under, as a user would with --set or a YAML file.
var configs = []struct {
	label string
	sets  []string
}{
	{"sequential", nil},
	{hotColdName, []string{"firmware.ftl.allocator=" + hotColdName}},
	{hotColdName + "+fixed-rate", []string{"firmware.ftl.allocator=" + hotColdName, "firmware.buffer.policy=fixed-rate"}},
}

// setList is a repeatable string flag.
type setList []string

func (s *setList) String() string     { return strings.Join(*s, ",") }
func (s *setList) Set(v string) error { *s = append(*s, v); return nil }

func main() {
	var o options
	var sets setList
	flag.StringVar(&o.preset, "preset", "fastdrain-small", "platform preset")
	flag.StringVar(&o.scenario, "scenario", "db-s+ungzip", "co-location scenario")
	flag.StringVar(&o.duration, "duration", "4s", "simulated run time")
	flag.Var(&sets, "set", "override one field: path.to.key=value (repeatable)")
	flag.Parse()
	o.sets = sets
	if err := run(os.Stdout, o); err != nil {
		fmt.Fprintln(os.Stderr, "custompolicy:", err)
		os.Exit(1)
	}
}

// outcome is what one run shows of the allocator.
type outcome struct {
	label                string
	waf                  float64
	gcRuns, moved, erase int64
	hotWrites, coldWrite int64
	bg, fg, stalls       int64 // evictions in the background and foreground, writes stalled
	p99                  map[string]int64
}

// run runs the scenario with the sequential allocator, then with hot-cold, and writes a
// comparison to w.
func run(w io.Writer, o options) error {
	d, err := sim.ParseTime(o.duration)
	if err != nil || d <= 0 {
		return fmt.Errorf("-duration %q: want a positive time such as 4s", o.duration)
	}
	sc, err := apps.LookupScenario(o.scenario)
	if err != nil {
		return fmt.Errorf("-scenario: %w", err)
	}
	sc.Duration = d
	var outs []outcome
	for _, cf := range configs {
		label := cf.label
		sets := append(append([]string{}, shrinkSets...), cf.sets...)
		sets = append(sets, o.sets...)
		// Exactly what `fastdrain run --preset P --set …` loads and validates.
		c, err := platforms.Load(platforms.Options{Preset: o.preset, Sets: sets})
		if err != nil {
			return err
		}
		lastHotCold = nil
		r, err := runner.Run(runner.Options{Label: label, Config: c, Workload: runner.Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
		if err != nil {
			return fmt.Errorf("%s: %w", label, err)
		}
		out := outcome{label: label, waf: r.FTL.WAF(),
			gcRuns: r.Firmware.GCRuns, moved: r.Firmware.GCPagesMoved, erase: r.FTL.Erases, p99: map[string]int64{},
			bg: r.Firmware.BackgroundEvictions, fg: r.Firmware.ForegroundEvictions, stalls: r.Firmware.Stalls}
		if c.Firmware.FTL.Allocator == hotColdName {
			if lastHotCold == nil {
				return errors.New("the hot-cold allocator was selected but never built")
			}
			out.hotWrites, out.coldWrite = lastHotCold.Writes[hot], lastHotCold.Writes[cold]
		}
		for _, a := range r.Apps {
			out.p99[a.App] = a.Latency.Quantile(0.99)
		}
		outs = append(outs, out)
	}
	fmt.Fprintf(w, "%s on %s, %v simulated\n", sc.Name, o.preset, d)
	for _, out := range outs {
		fmt.Fprintf(w, "%-10s WAF %.3f  GC runs %d, pages moved %d, erases %d; evictions %d bg, %d fg, %d stalls",
			out.label, out.waf, out.gcRuns, out.moved, out.erase, out.bg, out.fg, out.stalls)
		if out.hotWrites+out.coldWrite > 0 {
			fmt.Fprintf(w, "  (host writes: %d hot, %d cold)", out.hotWrites, out.coldWrite)
		}
		fmt.Fprintln(w)
		for _, a := range sc.Apps {
			fmt.Fprintf(w, "    %s p99 %s\n", a, report.Duration(sim.Time(out.p99[a])))
		}
	}
	return nil
}
