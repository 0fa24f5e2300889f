package sim

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Freq is a clock frequency in hertz.
type Freq int64

// Frequency units.
const (
	Hz  Freq = 1
	KHz Freq = 1000 * Hz
	MHz Freq = 1000 * KHz
	GHz Freq = 1000 * MHz
)

// ParseFreq parses "400MHz", "1.6GHz", "800 kHz" or "100Hz" into an exact Freq.
func ParseFreq(s string) (Freq, error) {
	str := strings.TrimSpace(s)
	units := []struct {
		suffix string
		scale  Freq
	}{{"GHz", GHz}, {"MHz", MHz}, {"kHz", KHz}, {"KHz", KHz}, {"Hz", Hz}}
	for _, u := range units {
		if strings.HasSuffix(str, u.suffix) {
			v, err := parseScaled(strings.TrimSpace(strings.TrimSuffix(str, u.suffix)), int64(u.scale))
			if err != nil {
				return 0, fmt.Errorf("frequency %q: %w", s, err)
			}
			if v <= 0 {
				return 0, fmt.Errorf("frequency %q: must be positive", s)
			}
			return Freq(v), nil
		}
	}
	return 0, UnitError("frequency", s, "Hz, kHz, MHz or GHz")
}

// String formats f in the largest unit that shows it exactly, e.g. "400MHz", "1.6GHz".
func (f Freq) String() string {
	v := int64(f)
	for _, u := range []struct {
		suffix string
		scale  int64
	}{{"GHz", int64(GHz)}, {"MHz", int64(MHz)}, {"kHz", int64(KHz)}} {
		if v >= u.scale && v%(u.scale/1000) == 0 {
			return formatScaled(v, u.scale) + u.suffix
		}
	}
	return strconv.FormatInt(v, 10) + "Hz"
}

// MarshalText implements encoding.TextMarshaler.
func (f Freq) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (f *Freq) UnmarshalText(b []byte) error {
	v, err := ParseFreq(string(b))
	if err != nil {
		return err
	}
	*f = v
	return nil
}

// Clock is the clock of one component. Its edges are at times
//
//	edge(n) = floor(n · 10¹² / f) ps,  n = 0, 1, 2, …
//
// computed exactly in 128-bit integer arithmetic. When the period is a whole number of
// picoseconds (400 MHz → 2500 ps) the edges are evenly spaced. When it is not (333 MHz →
// 3003.003… ps) individual cycles are 3003 or 3004 ps long, but edge n never drifts from the
// true edge by a picosecond or more, however long the run: the error does not accumulate.
// A zero Clock is invalid; build one with NewClock.
type Clock struct {
	freq Freq
	// period is the period when it is a whole number of picoseconds (the edges are then
	// n·period, computed with one 64-bit operation), 0 otherwise.
	period Time
}

// psPerSecond is 10¹², the number of picoseconds in a second.
const psPerSecond = uint64(Second)

// NewClock returns the clock of frequency f. It panics if f is not positive; configuration
// code validates frequencies before building clocks.
func NewClock(f Freq) Clock {
	if f <= 0 {
		panic(fmt.Sprintf("sim: clock frequency %d Hz must be positive", f))
	}
	c := Clock{freq: f}
	if psPerSecond%uint64(f) == 0 {
		c.period = Time(psPerSecond / uint64(f))
	}
	return c
}

// ClockFromPeriod returns a clock whose period is exactly p picoseconds. p must divide 10¹²
// for the frequency to be exact; otherwise it panics.
func ClockFromPeriod(p Time) Clock {
	if p <= 0 || psPerSecond%uint64(p) != 0 {
		panic(fmt.Sprintf("sim: clock period %v does not divide one second", p))
	}
	return NewClock(Freq(psPerSecond / uint64(p)))
}

// Freq returns the clock's frequency.
func (c Clock) Freq() Freq { return c.freq }

// Period returns the nominal period rounded down to a whole picosecond.
func (c Clock) Period() Time { return Time(psPerSecond / uint64(c.freq)) }

// Edge returns the time of edge n.
func (c Clock) Edge(n int64) Time {
	if c.period != 0 {
		return Time(n) * c.period
	}
	hi, lo := bits.Mul64(uint64(n), psPerSecond)
	q, _ := bits.Div64(hi, lo, uint64(c.freq))
	return Time(q)
}

// EdgeIndex returns the index of the first edge at or after t.
func (c Clock) EdgeIndex(t Time) int64 {
	if t <= 0 {
		return 0
	}
	if c.period != 0 {
		n := int64(t / c.period)
		if t%c.period != 0 {
			n++
		}
		return n
	}
	// Smallest n with floor(n·10¹²/f) ≥ t, i.e. n·10¹² ≥ t·f, i.e. n = ceil(t·f / 10¹²).
	hi, lo := bits.Mul64(uint64(t), uint64(c.freq))
	q, r := bits.Div64(hi, lo, psPerSecond)
	if r != 0 {
		q++
	}
	// For integer t, floor(x) ≥ t exactly when x ≥ t, so q is exact.
	return int64(q)
}

// NextEdge returns the first clock edge at or after t.
func (c Clock) NextEdge(t Time) Time { return c.Edge(c.EdgeIndex(t)) }

// After returns the time n cycles after the first edge at or after t: work that starts at t
// waits for the next edge and ends on an edge.
//
// For a whole-picosecond period p and t > 0 (nearly every call) the first edge at or after
// t is edge ceil(t/p) = (t-1)/p + 1, with t-1 ≥ 0 and p > 0 so one unsigned division (no
// remainder test, no signed-division fix-up) gives it: the same value as
// Edge(EdgeIndex(t)+n), which the rest takes.
func (c Clock) After(t Time, n int64) Time {
	if p := c.period; p != 0 && t > 0 {
		return (Time(n) + 1 + Time(uint64(t-1)/uint64(p))) * p
	}
	return c.Edge(c.EdgeIndex(t) + n)
}

// Cycles returns the duration of n cycles counted from edge 0, which is the duration of n
// cycles from any edge to within one picosecond.
func (c Clock) Cycles(n int64) Time { return c.Edge(n) }

// CyclesIn returns how many whole cycles fit in d.
func (c Clock) CyclesIn(d Time) int64 {
	if d <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(d), uint64(c.freq))
	q, _ := bits.Div64(hi, lo, psPerSecond)
	return int64(q)
}
