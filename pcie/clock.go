package pcie

import "github.com/fastdrain-sim/fastdrain/sim"

// exact is a point in time kept exactly on a link: whole picoseconds plus frac/den of a
// picosecond, where den is the link's common denominator and 0 ≤ frac < den.
type exact struct {
	whole sim.Time
	frac  uint64
}

func at(t sim.Time) exact { return exact{whole: t} }

// less reports whether a is strictly before b.
func (a exact) less(b exact) bool {
	return a.whole < b.whole || (a.whole == b.whole && a.frac < b.frac)
}

// add returns a plus bytes at the per-byte time f.
func (a exact) add(f fraction, bytes int) exact {
	w, r := f.advance(a.whole, a.frac, bytes)
	return exact{w, r}
}

// plus returns a + b, where both fractions are over den.
func (a exact) plus(b exact, den uint64) exact {
	w, f := a.whole+b.whole, a.frac+b.frac
	if f >= den {
		w, f = w+1, f-den
	}
	return exact{w, f}
}

// ceil rounds a up to a whole picosecond. Every time the link records or returns is rounded
// this way, so recorded intervals never overlap and never end before the exact time.
func (a exact) ceil() sim.Time { return ceil(a.whole, a.frac) }

func laterOf(a, b exact) exact {
	if a.less(b) {
		return b
	}
	return a
}
