package sim

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Time is a point in, or a span of, simulated time: an integer count of picoseconds.
// An int64 covers about 106 simulated days, far beyond any run. Time arithmetic never uses
// floating point.
type Time int64

// Units of simulated time.
const (
	Picosecond  Time = 1
	Nanosecond  Time = 1000 * Picosecond
	Microsecond Time = 1000 * Nanosecond
	Millisecond Time = 1000 * Microsecond
	Second      Time = 1000 * Millisecond
)

// MaxTime is the largest representable time; it stands for "never".
const MaxTime Time = math.MaxInt64

// timeUnits lists the accepted unit suffixes, longest first so that "ms" wins over "s".
var timeUnits = []struct {
	suffix string
	scale  Time
}{
	{"ps", Picosecond},
	{"ns", Nanosecond},
	{"us", Microsecond},
	{"µs", Microsecond},
	{"ms", Millisecond},
	{"s", Second},
}

// ParseTime parses a decimal number with a unit suffix ("558us", "13.75ns", "2.2ms", "1s",
// "0", "250 ps") into an exact Time. The number may have a fraction as long as the result is
// a whole number of picoseconds; "0.5ps" is an error. A bare "0" is accepted; any other
// number without a unit is an error, so a missing unit is never silently read as picoseconds.
func ParseTime(s string) (Time, error) {
	str := strings.TrimSpace(s)
	if str == "" {
		return 0, fmt.Errorf("time %q: empty", s)
	}
	if str == "0" {
		return 0, nil
	}
	num, unit := SplitUnit(str)
	for _, u := range timeUnits {
		if unit == u.suffix {
			v, err := parseScaled(num, int64(u.scale))
			if err != nil {
				return 0, fmt.Errorf("time %q: %w", s, err)
			}
			return Time(v), nil
		}
	}
	err := UnitError("time", s, "ps, ns, us, ms or s")
	if sec, ok := longUnits[strings.ToLower(unit)]; ok && num != "" {
		// Minutes, hours and days are not units of simulated time: say what to write.
		if v, perr := parseScaled(num, sec); perr == nil {
			return 0, fmt.Errorf("%w; %s is %ds", err, str, v)
		}
	}
	return 0, err
}

// longUnits are the units of longer times people write, in seconds, for ParseTime's hint.
var longUnits = map[string]int64{"m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
	"h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600, "d": 86400, "day": 86400, "days": 86400}

// parseScaled parses a non-negative decimal string and multiplies it by scale exactly,
// failing if the product is not an integer or overflows int64.
func parseScaled(num string, scale int64) (int64, error) {
	if num == "" {
		return 0, fmt.Errorf("missing number")
	}
	neg := false
	if num[0] == '-' {
		neg = true
		num = num[1:]
	} else if num[0] == '+' {
		num = num[1:]
	}
	intPart, frac, hasDot := strings.Cut(num, ".")
	if intPart == "" && (!hasDot || frac == "") {
		return 0, fmt.Errorf("bad number")
	}
	for _, c := range intPart + frac {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("bad number %q", num)
		}
	}
	var whole int64
	if intPart != "" {
		w, err := strconv.ParseInt(intPart, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("number %q out of range", num)
		}
		whole = w
	}
	if whole > math.MaxInt64/scale {
		return 0, fmt.Errorf("number %q out of range", num)
	}
	v := whole * scale
	// Fractional digits: each digit is worth scale/10^k; it must divide exactly.
	unit := scale
	for i := 0; i < len(frac); i++ {
		d := int64(frac[i] - '0')
		if unit%10 != 0 {
			if d != 0 || strings.TrimRight(frac[i:], "0") != "" {
				return 0, fmt.Errorf("%q is finer than the resolution", num)
			}
			break
		}
		unit /= 10
		v += d * unit
	}
	if v < 0 {
		return 0, fmt.Errorf("number %q out of range", num)
	}
	if neg {
		v = -v
	}
	return v, nil
}

// String formats t in the largest unit that shows it exactly with at most three fraction
// digits, e.g. "558us", "13.75ns", "2.2ms", "1.5ns". Zero is "0s".
func (t Time) String() string {
	if t == 0 {
		return "0s"
	}
	if t == MaxTime {
		return "never"
	}
	sign := ""
	v := int64(t)
	if v < 0 {
		sign = "-"
		v = -v
	}
	units := []struct {
		suffix string
		scale  int64
	}{{"s", int64(Second)}, {"ms", int64(Millisecond)}, {"us", int64(Microsecond)}, {"ns", int64(Nanosecond)}}
	for _, u := range units {
		// Use the unit when t is at least one of it and exact to three fraction digits.
		if v >= u.scale && v%(u.scale/1000) == 0 {
			return sign + formatScaled(v, u.scale) + u.suffix
		}
	}
	return sign + strconv.FormatInt(v, 10) + "ps"
}

// formatScaled writes v/scale as a decimal with the trailing zeros of the fraction removed.
func formatScaled(v, scale int64) string {
	whole := v / scale
	rem := v % scale
	s := strconv.FormatInt(whole, 10)
	if rem == 0 {
		return s
	}
	digits := 0
	for x := scale; x > 1; x /= 10 {
		digits++
	}
	f := strconv.FormatInt(rem, 10)
	f = strings.Repeat("0", digits-len(f)) + f
	return s + "." + strings.TrimRight(f, "0")
}

// Seconds returns t in seconds as a float64, for reports only; never for time arithmetic.
func (t Time) Seconds() float64 { return float64(t) / float64(Second) }

// MarshalText implements encoding.TextMarshaler, so YAML and JSON show "558us".
func (t Time) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler, so YAML and JSON accept unit strings.
func (t *Time) UnmarshalText(b []byte) error {
	v, err := ParseTime(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}
