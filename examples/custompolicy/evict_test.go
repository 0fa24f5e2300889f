package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// TestFixedRateBucket works the token bucket by hand at 16,384 pages/s: one page every
// I = 10¹² ps / 16,384 = 61,035,156 ps (truncated).
//   - At 0 nothing is earned: idle, retry at I.
//   - At 3.5 I, 3.5 I is earned: background, at most 3 pages.
//   - The round sent 3; at the same time 0.5 I is left: idle, retry at 3.5 I + 0.5 I = 4 I.
//   - At 100 I the budget is capped at drainBurst = 8 pages: 0.5 I + 96.5 I → 8 I: 8 pages.
//   - A write waiting for room: foreground at once, whatever the budget.
func TestFixedRateBucket(t *testing.T) {
	const i = sim.Time(61_035_156)
	p := &fixedRate{interval: sim.Second / 16384}
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
// path (main's third run selects it by name) and drains the buffer in the background; a
// drain rate of 0 is refused with the flag's name.
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
	old := drainRate
	drainRate = 0
	defer func() { drainRate = old }()
	if err := run(&b, options{preset: "fastdrain-small", scenario: "db-s", duration: "1s"}); err == nil || !strings.Contains(err.Error(), "-drain-rate 0") {
		t.Fatalf("-drain-rate 0: %v", err)
	}
}
