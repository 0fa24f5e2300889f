// Command custompolicy is a worked example of out-of-tree firmware policies: it registers
// a new write-buffer eviction policy (evict.go: "fixed-rate", a buffer that drains at a
// fixed rate) and runs a co-location scenario with it through the normal configuration
// path (platforms.Load with firmware.buffer.policy set, then runner.Run).
//
// This main.go is the minimal one of the eviction half of the example (issue 21); the FTL
// half (a new block allocator) replaces it with one that also selects the allocator.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "custompolicy:", err)
		os.Exit(1)
	}
}

// run parses the flags, simulates and prints a summary.
func run(args []string) error {
	res, err := simulate(args)
	if err != nil {
		return err
	}
	st := res.Firmware
	fmt.Printf("%s on %s with firmware.buffer.policy %s (%d pages/s), %s simulated\n",
		res.Scenario.Name, res.Config.Name, res.Config.Firmware.Buffer.Policy, drainRate, report.Duration(res.Scenario.Duration))
	fmt.Printf("pages written %d, evicted %d in the background and %d in the foreground, writes stalled %d\n",
		st.WritePages, st.BackgroundEvictions, st.ForegroundEvictions, st.Stalls)
	for _, a := range res.Apps {
		fmt.Printf("%-10s %6d requests, p99 %s\n", a.App, a.Requests, report.Duration(sim.Time(a.Latency.Quantile(0.99))))
	}
	return nil
}

// simulate parses the flags and runs the scenario with the fixed-rate policy.
func simulate(args []string) (*runner.Result, error) {
	fs := flag.NewFlagSet("custompolicy", flag.ContinueOnError)
	preset := fs.String("preset", "fastdrain-small", "platform preset")
	scenario := fs.String("scenario", "db-s+ungzip", "co-location scenario")
	duration := fs.String("duration", "1s", "simulated time")
	fs.IntVar(&drainRate, "drain-rate", drainRate, "fixed-rate policy: pages per second")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if drainRate < 1 || drainRate > 1_000_000_000 {
		return nil, fmt.Errorf("-drain-rate %d: want 1 … 1,000,000,000 pages per second", drainRate)
	}
	d, err := sim.ParseTime(*duration)
	if err != nil || d <= 0 {
		return nil, fmt.Errorf("-duration %q: want a positive time such as 1s", *duration)
	}
	cfg, err := platforms.Load(platforms.Options{Preset: *preset, Sets: []string{"firmware.buffer.policy=fixed-rate"}})
	if err != nil {
		return nil, err
	}
	sc, err := apps.LookupScenario(*scenario)
	if err != nil {
		return nil, err
	}
	sc.Duration, sc.Warmup = d, 0
	return runner.Run(runner.Options{Label: "fixed-rate", Config: cfg,
		Workload: runner.Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
}
