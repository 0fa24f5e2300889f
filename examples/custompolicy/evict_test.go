package main

import (
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

// TestRunsThroughConfig runs the example as a user would, briefly: the registered policy
// is accepted by the configuration path and drains the buffer in the background.
func TestRunsThroughConfig(t *testing.T) {
	res, err := simulate([]string{"-duration", "300ms"})
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Config.Firmware.Buffer.Policy; p != "fixed-rate" {
		t.Fatalf("policy %q", p)
	}
	if res.Firmware.BackgroundEvictions == 0 {
		t.Fatal("nothing drained in the background")
	}
	if _, err := simulate([]string{"-drain-rate", "0"}); err == nil {
		t.Fatal("-drain-rate 0 accepted")
	}
}
