package main

import (
	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// The eviction policy of this example: the write buffer drains at a fixed rate, whatever
// the host does, and faster only when a write waits for room or a flush for the flash.
// It is registered as "fixed-rate" and chosen with firmware.buffer.policy: fixed-rate.

// drainRate is the rate in pages (4 KiB) per second (main's -drain-rate sets it before the
// firmware is built). 16,384 pages/s is 64 MiB/s.
var drainRate = 16384

// drainBurst bounds the pages the rate lets accumulate while the buffer had nothing to
// drain, so a quiet spell is not followed by a burst.
const drainBurst = 8

func init() {
	firmware.RegisterEvictionPolicy("fixed-rate", firmware.EvictionPolicyDef{
		New: func(firmware.Spec) firmware.EvictionPolicy {
			return &fixedRate{interval: sim.Second / sim.Time(drainRate)}
		},
	})
}

// fixedRate is a token bucket: it earns one page every interval, up to drainBurst pages,
// and spends one for every page sent to flash (the foreground pages sent for a waiting
// write included, so the rate holds on average).
type fixedRate struct {
	interval sim.Time
	budget   sim.Time // earned and not spent, in time at the rate (negative: overspent)
	last     sim.Time // when the budget was brought up to date
	sent     int64    // evictions counted off the budget
}

// Decide implements firmware.EvictionPolicy.
func (p *fixedRate) Decide(v *firmware.BufferView) firmware.Decision {
	p.budget = min(p.budget+v.Now-p.last, drainBurst*p.interval)
	p.budget -= sim.Time(v.Evictions-p.sent) * p.interval
	p.last, p.sent = v.Now, v.Evictions
	if v.Urgent() {
		return firmware.Decision{Mode: firmware.EvictForeground}
	}
	if pages := int(p.budget / p.interval); pages > 0 {
		return firmware.Decision{Mode: firmware.EvictBackground, Pages: pages}
	}
	// Nothing earned yet: look again when the next page is.
	return firmware.Decision{Retry: v.Now + p.interval - p.budget%p.interval}
}
