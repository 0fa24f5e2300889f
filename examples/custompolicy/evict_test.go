package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/sim"
	"go.yaml.in/yaml/v3"
)

// TestFixedRateBucket works the token bucket by hand at 16,384 pages/s: one page every
// I = 10¹² ps / 16,384 = 61,035,156 ps (truncated).
//   - At 0 nothing is earned: idle, retry at I.
//   - At 3.5 I, 3.5 I is earned: background, at most 3 pages.
//   - The round sent 3; at the same time 0.5 I is left: idle, retry at 3.5 I + 0.5 I = 4 I.
//   - At 100 I the budget is capped at the burst, 8 pages: 0.5 I + 96.5 I → 8 I: 8 pages.
//   - A write waiting for room: foreground at once, whatever the budget.
func TestFixedRateBucket(t *testing.T) {
	const i = sim.Time(61_035_156)
	p := &fixedRate{interval: sim.Second / 16384, burst: 8}
	if p.interval != i {
		t.Fatalf("interval %d, want %d", p.interval, i)
	}
	check := func(v firmware.BufferView, want firmware.Decision) {
		t.Helper()
		if got := p.Decide(&v); got != want {
			t.Fatalf("at %d: got %+v, want %+v", v.Now, got, want)
		}
	}
	check(firmware.BufferView{Now: 0}, firmware.Decision{Retry: i})
	check(firmware.BufferView{Now: 7 * i / 2}, firmware.Decision{Mode: firmware.EvictBackground, Pages: 3})
	check(firmware.BufferView{Now: 7 * i / 2, Evictions: 3}, firmware.Decision{Retry: 7*i/2 + (7*i/2 - 3*i)})
	check(firmware.BufferView{Now: 100 * i, Evictions: 3}, firmware.Decision{Mode: firmware.EvictBackground, Pages: 8})
	check(firmware.BufferView{Now: 100 * i, Evictions: 3, RoomWaits: 1}, firmware.Decision{Mode: firmware.EvictForeground})
}

// TestFixedRateRunsThroughConfig: the registered policy is accepted by the configuration
// path (main's third run selects it by name) and drains the buffer in the background; its
// parameters are its own configuration block: a drain rate of 0, an unknown key and a
// parameter block for a policy that takes none are refused, each with its field path.
func TestFixedRateRunsThroughConfig(t *testing.T) {
	var b bytes.Buffer
	if err := run(&b, options{preset: "fastdrain-small", scenario: "db-s+ungzip", duration: "300ms"}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	var fixed string
	for _, l := range lines {
		if strings.HasPrefix(l, "hot-cold+fixed-rate ") {
			fixed = l
		}
	}
	if fixed == "" || strings.Contains(fixed, "evictions 0 bg") {
		t.Fatalf("the fixed-rate run is missing or drained nothing in the background:\n%s", b.String())
	}
	for set, want := range map[string]string{
		"firmware.policies.fixed-rate.drain_rate=0": "firmware.policies.fixed-rate.drain_rate: 0 is not in 1 … 1,000,000,000 pages per second",
		"firmware.policies.fixed-rate.drain_rat=9":  "firmware.policies.fixed-rate.drain_rat",
		"firmware.policies.vanilla.rate=9":          `firmware.policies.vanilla: the policy "vanilla" takes no parameters`,
	} {
		o := options{preset: "fastdrain-small", scenario: "db-s", duration: "1s", sets: []string{set}}
		if err := run(&b, o); err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%s: got %v, want an error containing %q", set, err, want)
		}
	}
}

// TestFixedRateParams: the policy reads its own parameters from the configuration: the
// defaults (16,384 pages/s: I = 10¹² ps / 16,384 = 61,035,156 ps; burst 8), and a block
// given in two sources merged key by key (the first sets both keys, the second the rate
// alone: 8,192 pages/s is I = 122,070,312 ps, and the burst stays 4).
func TestFixedRateParams(t *testing.T) {
	build := func(blocks ...string) *fixedRate {
		t.Helper()
		s := firmware.DefaultSpec()
		for _, b := range blocks {
			if err := yaml.Unmarshal([]byte(b), &s); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		return newFixedRate(s).(*fixedRate)
	}
	if p := build(); p.interval != 61_035_156 || p.burst != 8 {
		t.Fatalf("defaults: interval %d, burst %d", p.interval, p.burst)
	}
	p := build("policies: {fixed-rate: {drain_rate: 1000, burst: 4}}", "policies: {fixed-rate: {drain_rate: 8192}}")
	if p.interval != 122_070_312 || p.burst != 4 {
		t.Fatalf("merged: interval %d, burst %d", p.interval, p.burst)
	}
}
