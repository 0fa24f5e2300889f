package main

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// The eviction policy of this example: the write buffer drains at a fixed rate, whatever
// the host does, and faster only when a write waits for room or a flush for the flash.
// It is registered as "fixed-rate" and chosen with firmware.buffer.policy: fixed-rate; its
// parameters are its own block of the configuration, under its name:
//
//	firmware:
//	  buffer: {policy: fixed-rate}
//	  policies:
//	    fixed-rate: {drain_rate: 8192, burst: 8}
//
// or --set firmware.policies.fixed-rate.drain_rate=8192.

// fixedRateName is the name the policy is registered under.
const fixedRateName = "fixed-rate"

// fixedRateParams are the policy's parameters (firmware.policies.fixed-rate).
type fixedRateParams struct {
	// DrainRate is the rate in pages (4 KiB) per second; 16,384 pages/s is 64 MiB/s.
	DrainRate int `yaml:"drain_rate"`
	// Burst bounds the pages the rate lets accumulate while the buffer had nothing to
	// drain, so a quiet spell is not followed by a burst.
	Burst int `yaml:"burst"`
}

// Validate reports the parameters' problems, each naming its key.
func (p *fixedRateParams) Validate() error {
	if p.DrainRate < 1 || p.DrainRate > 1_000_000_000 {
		return fmt.Errorf("drain_rate: %d is not in 1 … 1,000,000,000 pages per second", p.DrainRate)
	}
	if p.Burst < 1 || p.Burst > 1<<20 {
		return fmt.Errorf("burst: %d is not in 1 … 1,048,576 pages", p.Burst)
	}
	return nil
}

func init() {
	firmware.RegisterEvictionPolicy(fixedRateName, firmware.EvictionPolicyDef{
		Params: func() any { return &fixedRateParams{DrainRate: 16384, Burst: 8} },
		New:    newFixedRate,
	})
}

// newFixedRate builds the policy for one firmware with its parameters from spec.
func newFixedRate(s firmware.Spec) firmware.EvictionPolicy {
	p := s.Params(fixedRateName).(*fixedRateParams)
	return &fixedRate{interval: sim.Second / sim.Time(p.DrainRate), burst: sim.Time(p.Burst)}
}

// fixedRate is a token bucket: it earns one page every interval, up to burst pages,
// and spends one for every page sent to flash (the foreground pages sent for a waiting
// write included, so the rate holds on average).
type fixedRate struct {
	interval sim.Time
	burst    sim.Time // pages
	budget   sim.Time // earned and not spent, in time at the rate (negative: overspent)
	last     sim.Time // when the budget was brought up to date
	sent     int64    // evictions counted off the budget
}

// Decide implements firmware.EvictionPolicy.
func (p *fixedRate) Decide(v *firmware.BufferView) firmware.Decision {
	p.budget = min(p.budget+v.Now-p.last, p.burst*p.interval)
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
