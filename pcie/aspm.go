package pcie

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// ASPM configures Active State Power Management of the link: the low-power states a link
// enters on its own while it carries no TLPs (PCIe base spec §5.4.1). L0s is per direction:
// a transmitter idle for L0sEntry goes to electrical idle and its next TLP waits L0sExit.
// L1 is the whole link: with neither direction carrying a TLP for L1Entry both go to L1,
// and the next TLP in either waits L1Exit (both directions are back in L0 afterwards).
// Both are off by default, so the link is always in L0. Sources of the defaults:
// docs/energy.md.
type ASPM struct {
	L0s      bool     `yaml:"l0s"`       // enable L0s, per direction
	L1       bool     `yaml:"l1"`        // enable L1, whole link
	L0sEntry sim.Time `yaml:"l0s_entry"` // idle time of a direction before it enters L0s
	L0sExit  sim.Time `yaml:"l0s_exit"`  // L0s → L0: added before a direction's next TLP
	L1Entry  sim.Time `yaml:"l1_entry"`  // idle time of the link before it enters L1
	L1Exit   sim.Time `yaml:"l1_exit"`   // L1 → L0: added before the link's next TLP
}

// DefaultASPM returns ASPM off with the timings used when it is switched on: L0s entry
// 7 µs (the base spec's most a transmitter may stay idle in L0 with L0s enabled), L0s exit
// 1 µs (the top of the L0s exit class, ~100 ns–1 µs), L1 entry 30 µs (our choice: the spec
// leaves the L1 entry idle timer to the implementation) and L1 exit 4 µs (the top of the
// 2–4 µs typical range).
func DefaultASPM() ASPM {
	return ASPM{L0sEntry: 7 * sim.Microsecond, L0sExit: sim.Microsecond,
		L1Entry: 30 * sim.Microsecond, L1Exit: 4 * sim.Microsecond}
}

// On reports whether either state is enabled.
func (a ASPM) On() bool { return a.L0s || a.L1 }

// Validate reports every problem with the ASPM settings, each with its field path.
func (a ASPM) Validate() error {
	var errs []error
	for _, f := range []struct {
		name  string
		v     sim.Time
		entry bool
	}{{"l0s_entry", a.L0sEntry, true}, {"l0s_exit", a.L0sExit, false},
		{"l1_entry", a.L1Entry, true}, {"l1_exit", a.L1Exit, false}} {
		switch {
		case f.entry && f.v <= 0:
			errs = append(errs, fmt.Errorf("pcie.aspm.%s: %v must be positive", f.name, f.v))
		case f.v < 0:
			errs = append(errs, fmt.Errorf("pcie.aspm.%s: %v is negative", f.name, f.v))
		}
	}
	return errors.Join(errs...)
}

// Residency is the time a link spent in its low-power states from time zero: L0s per
// direction (Down, Up) and L1 (each direction was in L1 for all of it). The rest of the
// time each direction was in L0.
type Residency struct {
	L0s [2]sim.Time // down, up
	L1  sim.Time
}

// aspmState keeps what the link's power states follow: when each direction and the link
// last became idle, and the residencies of the idle gaps already closed. A gap is the time
// after everything booked so far (so a gap between bookings while later ones are pending is
// counted as L0: such gaps are at most a latency and some queueing long).
type aspmState struct {
	since  [2]sim.Time // each direction idle from: its last booking's end, or the last L1 exit
	link   sim.Time    // the link idle from: the last booking's end in either direction
	closed Residency
}

// wake returns when a TLP asked for at t in direction d (0 down, 1 up) can start: t, or
// after the exit latency of the state the idle gap up to t put it in, whose residency it
// then closes. The exit is booked as a window no TLP can use (see block): in both
// directions for L1, which retrains the whole link, and in d for L0s. Without it a TLP asked
// for during the exit would be placed in the idle-looking gap before the one that woke the
// link and pass it, and posted writes must not pass posted writes (PCIe base spec §2.4,
// transaction ordering): two SQ tail doorbells swapped so, and the controller took the
// older tail for a wrap.
func (l *Link) wake(d int, t sim.Time) sim.Time {
	a, st := l.spec.ASPM, &l.pm
	if a.L1 && t >= st.link+a.L1Entry {
		l1At := st.link + a.L1Entry
		st.closed.L1 += t - l1At
		for x := range st.since {
			if a.L0s {
				st.closed.L0s[x] += max(0, l1At-(st.since[x]+a.L0sEntry))
			}
			st.since[x] = t + a.L1Exit // back in L0 and idle from the exit
		}
		l.block(&l.down, t, t+a.L1Exit)
		l.block(&l.up, t, t+a.L1Exit)
		return t + a.L1Exit
	}
	if a.L0s && t >= st.since[d]+a.L0sEntry {
		st.closed.L0s[d] += t - (st.since[d] + a.L0sEntry)
		st.since[d] = t + a.L0sExit
		if d == 0 {
			l.block(&l.down, t, t+a.L0sExit)
		} else {
			l.block(&l.up, t, t+a.L0sExit)
		}
		return t + a.L0sExit
	}
	return t
}

// block books [from, to), an exit from L0s or L1, in d as a window that carries nothing:
// later bookings go around it like around a TLP's, but it is not recorded on the resource
// (the exit is idle wire time, charged as L0) and not counted in the stats. An exit starts
// at the end of an idle gap that began after every booking of d (wake only exits a state
// the whole gap since d's or the link's last booking put it in), so the window goes after
// everything pending; one that would not is an invariant violation and panics naming it.
func (l *Link) block(d *direction, from, to sim.Time) {
	if to <= from {
		return // a zero exit latency
	}
	b := booking{start: at(from), mid: at(to), end: at(to), kind: exitWindow}
	n := len(d.pending)
	if n > d.head && b.start.less(d.pending[n-1].end) || b.start.less(d.floor) {
		l.exitOverlap(d, from)
	}
	if n == d.head || d.pending[n-1].end != b.start {
		d.run = n // a new back-to-back tail starts with the window
	}
	d.pending = append(d.pending, b)
	d.windows++
}

// exitOverlap panics on an ASPM exit window that would start before a booking of its
// direction ends (see block).
//
//go:noinline
func (l *Link) exitOverlap(d *direction, from sim.Time) {
	last := d.floor
	if n := len(d.pending); n > d.head {
		last = laterOf(last, d.pending[n-1].end)
	}
	panic(fmt.Sprintf("pcie %s: ASPM exit at %v in %s starts before its booking until %v ends "+
		"(the idle gap that put the link in a low-power state was not idle)",
		l.name, from, d.res.Name(), last.ceil()))
}

// busyUntil notes that direction d carries a booking until end.
func (l *Link) busyUntil(d int, end sim.Time) {
	st := &l.pm
	st.since[d] = max(st.since[d], end)
	st.link = max(st.link, end)
}

// Residency returns the time the link spent in L0s and L1 from time zero to t, counting
// the open idle gap up to t (t at or after the latest operation). With ASPM off it is zero.
func (l *Link) Residency(t sim.Time) Residency {
	a, st := l.spec.ASPM, &l.pm
	r := st.closed
	l1At := sim.MaxTime
	if a.L1 {
		l1At = st.link + a.L1Entry
		r.L1 += max(0, t-l1At)
	}
	if a.L0s {
		for x := range st.since {
			r.L0s[x] += max(0, min(t, l1At)-(st.since[x]+a.L0sEntry))
		}
	}
	return r
}
