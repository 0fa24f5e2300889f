package figures

import (
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// mechanism is something a claim needs to have been in force in the runs for its measured
// value to say anything about it (issue 20 item 9, issue 31 item 5).
type mechanism uint8

const (
	// filled: the write buffer was full (Vanilla's writes wait for on-demand eviction).
	filled mechanism = iota
	// foreground: the firmware was in foreground eviction mode.
	foreground
	// switched: the host ran FastDrain's high dirty-ratio set.
	switched
)

// EngagedShare is the share of a run a mechanism must be in force for a claim about it to
// count as engaged. The claims are about p99 response times: the slowest 1 % of requests.
// Requests arrive throughout the run, so a mechanism in force for less than 1 % of it meets
// fewer than about 1 % of the requests directly and cannot by itself set their p99 (it can
// only shift the tail through what it leaves queued); at 1 % or more it can.
const EngagedShare = 0.01

func (m mechanism) String() string {
	switch m {
	case filled:
		return "buffer full"
	case foreground:
		return "foreground eviction"
	}
	return "high dirty-ratio set"
}

// share returns the share of r's measured window (Began to Ended) during which m was in
// force:
//   - filled: the share of the buffer-occupancy samples (every 10 ms) at 99 % of capacity
//     or more: Vanilla's on-demand rounds take at most a page a die (480 of 131,072 pages
//     on fastdrain-tlc) below capacity, so a full buffer under eviction stays above 99 %.
//   - foreground: the time between the fastdrain policy's switches to foreground mode and
//     back (firmware.ModeChange; its log keeps the first 10,000 switches, so a run with more
//     is counted up to the 10,000th).
//   - switched: the time the high ratio set was in force (pagecache.RatioSwitch).
func (m mechanism) share(r *runner.Result) float64 {
	span := r.Ended - r.Began
	if span <= 0 {
		return 0
	}
	var on []bool
	var at []sim.Time
	switch m {
	case filled:
		return fullShare(r)
	case foreground:
		for _, c := range r.ModeChanges {
			on, at = append(on, c.Foreground), append(at, c.At)
		}
	default:
		for _, c := range r.Switches {
			on, at = append(on, c.High), append(at, c.At)
		}
	}
	return float64(inForce(on, at, r.Began, r.Ended)) / float64(span)
}

// inForce sums, over [from, to), the time a state that switches to on[i] at at[i] (in time
// order, off before the first switch) is on.
func inForce(on []bool, at []sim.Time, from, to sim.Time) sim.Time {
	var sum sim.Time
	state, since := false, from
	for i := range on {
		t := min(max(at[i], from), to)
		if state {
			sum += t - since
		}
		state, since = on[i], t
	}
	if state {
		sum += to - since
	}
	return sum
}

// fullShare is the share of the buffer-occupancy samples in r's measured window at 99 % of
// the buffer's capacity or more (0 for an unbounded buffer).
func fullShare(r *runner.Result) float64 {
	if r.BufferPages <= 0 {
		return 0
	}
	limit := int64(r.BufferPages) * 99 / 100
	for _, se := range r.Series {
		if !strings.HasSuffix(se.Name, ".buffer.occupancy") {
			continue
		}
		n, full := 0, 0
		for _, p := range se.Samples {
			if p.At < r.Began || p.At > r.Ended {
				continue
			}
			n++
			if p.Value >= limit {
				full++
			}
		}
		if n > 0 {
			return float64(full) / float64(n)
		}
	}
	return 0
}

// engagementColumn is the engagement table's numeric column of mechanism m under variant.
func engagementColumn(variant string, m mechanism) string {
	return strings.ReplaceAll(variant+"_"+m.String(), " ", "_") + "_frac"
}

// happened reports whether m was in force for at least EngagedShare of run r.
func (m mechanism) happened(r *runner.Result) bool { return m.share(r) >= EngagedShare }

// need is one mechanism under one variant, in the runs of every latency-critical app or,
// for a claim about one app, in that app's run.
type need struct {
	variant string
	m       mechanism
	app     string // "" = every latency-critical app
}

// notEngaged returns, for the needs that were not in force for EngagedShare of the run in
// every latency-critical app's run of their variant (or the one app's, for a claim about
// one app), "variant: mechanism in force ≥ 1.0 % of the run in k of n apps" joined by "; ",
// or "" if every need engaged in every app (or the runs are missing: the claim is then "not
// run"). A claim averaged over the six apps is about all six: where its mechanism was not in
// force in some, the average mixes in apps the claim does not describe, and a band met that
// way would be met by accident (at 10 s FD's 6b "92 % used" came from five apps that never
// evicted in the foreground and so wasted nothing).
func (s *Set) notEngaged(needs ...need) string {
	var out []string
	for _, n := range needs {
		ran, ok := 0, 0
		for _, a := range apps.LatencyCritical() {
			if n.app != "" && a != n.app {
				continue
			}
			if r := s.result(a, n.variant, ""); r != nil {
				ran++
				if n.m.happened(r) {
					ok++
				}
			}
		}
		if ok < ran {
			out = append(out, fmt.Sprintf("%s: %v in force ≥ %s of the run in %d of %d apps", n.variant, n.m, pct(EngagedShare), ok, ran))
		}
	}
	return strings.Join(out, "; ")
}

// pct formats a share as a percentage with one decimal ("0.4 %").
func pct(v float64) string { return fmt.Sprintf("%.1f %%", 100*v) }

// tie reports whether variants a and b gave the same p99 for every latency-critical app
// that both ran.
func (s *Set) tie(a, b string) bool {
	n := 0
	for _, app := range apps.LatencyCritical() {
		pa, pb := s.p99(app, a, ""), s.p99(app, b, "")
		if pa != pb { // NaN never ties
			return false
		}
		n++
	}
	return n > 0
}

// claimNeeds are the mechanisms each claim needs engaged, by claim ID (docs/fidelity.md,
// "How a claim is judged"): judge checks them, and the fidelity report (fidelitymd.go)
// prints each with its share from the engagement table. FD-Buf's own mechanism is the
// hint-driven eviction that makes room before a victimization arrives: foreground eviction
// on the hint; without it FD-Buf is a buffer drained in the background, Oracle-BG's
// behaviour. FD's is its high dirty-ratio set; FD-FTL's and LSB-only's their foreground
// eviction (what they place on LSB pages); Vanilla's a full buffer (what victimization is).
var claimNeeds = map[string][]need{
	"1a":          {{variant: "vanilla", m: filled}},
	"1b":          {{variant: "vanilla", m: filled, app: apps.ApacheU}},
	"2b":          {{variant: "vanilla", m: filled}},
	"3a":          {{variant: "fd-buf", m: foreground}, {variant: "lsb-only", m: foreground}},
	"3b":          {{variant: "lsb-only", m: foreground}},
	"5-fdbuf":     {{variant: "vanilla", m: filled}, {variant: "fd-buf", m: foreground}},
	"5-fdftl":     {{variant: "vanilla", m: filled}, {variant: "fd-ftl", m: foreground}},
	"5-fd":        {{variant: "vanilla", m: filled}, {variant: "fd", m: switched}},
	"5-fd-vs-ftl": {{variant: "fd", m: switched}},
	"5-order":     {{variant: "vanilla", m: filled}, {variant: "fd-ftl", m: foreground}, {variant: "fd", m: switched}},
	"6a-normal":   {{variant: "vanilla", m: filled, app: apps.ApacheU}},
	"6a-peak":     {{variant: "vanilla", m: filled, app: apps.ApacheU}},
	"6a-ftl":      {{variant: "fd-buf", m: foreground, app: apps.ApacheU}, {variant: "fd-ftl", m: foreground, app: apps.ApacheU}},
	"6b":          {{variant: "fd", m: foreground}},
}

// judge sets the claim's NotEngaged from its needs (claimNeeds), and Tie from the variant
// pair (a, b) if a is not empty.
func (s *Set) judge(c *Claim, a, b string) {
	c.NotEngaged = s.notEngaged(claimNeeds[c.ID]...)
	if a != "" {
		c.Tie = s.tie(a, b)
	}
}

// Tally counts the claims by verdict class, ties and "not engaged" apart from the others.
func Tally(figs []*Figure) string {
	return tally(figs).String()
}
