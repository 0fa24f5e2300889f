package trace

import (
	"math"
	"math/bits"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// stamp is a timestamp as written in the trace, parsed exactly: a whole number of the
// format's time unit plus the fraction of a unit in picoseconds. Keeping the whole part in
// native units lets absolute timestamps that would overflow int64 picoseconds (Windows
// filetimes are ~1.3e17 ticks of 100 ns) be made relative to the trace start first.
type stamp struct {
	whole int64 // native units
	frac  int64 // picoseconds, 0 ≤ frac < unit
}

// less orders stamps of the same unit.
func (s stamp) less(o stamp) bool {
	return s.whole < o.whole || (s.whole == o.whole && s.frac < o.frac)
}

// parseStamp parses a non-negative decimal number of time units ("45.304", "938513000",
// "0.000001850") exactly; unit is the value of one unit in picoseconds. A fraction finer
// than one picosecond is an error unless its extra digits are zeros.
func parseStamp(b []byte, unit int64) (stamp, error) {
	intPart, frac := b, []byte(nil)
	for i, c := range b {
		if c == '.' {
			intPart, frac = b[:i], b[i+1:]
			break
		}
	}
	if len(intPart) == 0 && len(frac) == 0 {
		return stamp{}, errNotNumber
	}
	var s stamp
	if len(intPart) > 0 {
		w, err := parseUint(intPart)
		if err != nil {
			return stamp{}, err
		}
		s.whole = w
	}
	step := unit
	for i, c := range frac {
		if c < '0' || c > '9' {
			return stamp{}, errNotNumber
		}
		if step%10 != 0 {
			// Below one picosecond: only zeros may follow.
			for _, z := range frac[i:] {
				if z < '0' || z > '9' {
					return stamp{}, errNotNumber
				}
				if z != '0' {
					return stamp{}, errFine
				}
			}
			break
		}
		step /= 10
		s.frac += int64(c-'0') * step
	}
	return s, nil
}

// since returns s - base in picoseconds; s must not be earlier than base.
func (s stamp) since(base stamp, unit int64) (sim.Time, error) {
	d := s.whole - base.whole
	if d < 0 || d > (math.MaxInt64-unit)/unit {
		return 0, errRange
	}
	return sim.Time(d*unit + s.frac - base.frac), nil
}

// scaleTime returns t·num/den rounded down, computed in 128 bits so that no intermediate
// product overflows; ok is false when the result does not fit a sim.Time.
func scaleTime(t sim.Time, num, den int64) (sim.Time, bool) {
	if num == den {
		return t, true
	}
	hi, lo := bits.Mul64(uint64(t), uint64(num))
	if hi >= uint64(den) {
		return 0, false
	}
	q, _ := bits.Div64(hi, lo, uint64(den))
	if q > math.MaxInt64 {
		return 0, false
	}
	return sim.Time(q), true
}
