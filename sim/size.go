package sim

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Size is a number of bytes. In YAML it is written with a unit, "512MiB", "4KiB", "1.5GB",
// or as a bare integer count of bytes.
type Size int64

// Binary size units.
const (
	Byte Size = 1
	KiB  Size = 1024 * Byte
	MiB  Size = 1024 * KiB
	GiB  Size = 1024 * MiB
	TiB  Size = 1024 * GiB
)

// sizeUnits lists the accepted suffixes. Longer suffixes come first so that "MiB" is not
// read as "B". "KB" is rejected on purpose: it means 1000 to some and 1024 to others.
var sizeUnits = []struct {
	suffix string
	scale  int64
}{
	{"KiB", int64(KiB)}, {"MiB", int64(MiB)}, {"GiB", int64(GiB)}, {"TiB", int64(TiB)},
	{"kB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"B", 1},
}

// ParseSize parses a byte count: a non-negative decimal number with a unit suffix (KiB, MiB,
// GiB, TiB are powers of 1024; kB, MB, GB, TB powers of 1000; B is bytes), or a bare integer
// of bytes. A space may separate number and unit. Fractions are allowed when the result is
// a whole number of bytes ("1.5KiB" is 1536); "KB" is rejected as ambiguous.
func ParseSize(s string) (Size, error) {
	str := strings.TrimSpace(s)
	if str == "" {
		return 0, fmt.Errorf("size %q: empty", s)
	}
	if strings.HasSuffix(str, "KB") {
		return 0, fmt.Errorf("size %q: KB is ambiguous; use KiB (1024) or kB (1000)", s)
	}
	num, scale, found := str, int64(1), false
	for _, u := range sizeUnits {
		if strings.HasSuffix(str, u.suffix) {
			num, scale, found = strings.TrimSpace(strings.TrimSuffix(str, u.suffix)), u.scale, true
			break
		}
	}
	if _, unit := SplitUnit(str); !found && unit != "" {
		return 0, UnitError("size", s, "B, KiB, MiB, GiB, TiB, kB, MB, GB or TB, or a bare number of bytes")
	}
	v, err := parseSizeScaled(num, scale)
	if err != nil {
		return 0, fmt.Errorf("size %q: %w", s, err)
	}
	return Size(v), nil
}

// parseSizeScaled parses a non-negative decimal and multiplies it by scale exactly, failing if
// the product is not a whole number or does not fit in an int64. scale is at most 2^40.
func parseSizeScaled(num string, scale int64) (int64, error) {
	intPart, frac, hasDot := strings.Cut(num, ".")
	if intPart == "" && (!hasDot || frac == "") {
		return 0, fmt.Errorf("missing number")
	}
	for _, part := range []string{intPart, frac} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return 0, fmt.Errorf("bad number %q", num)
			}
		}
	}
	var whole int64
	if intPart != "" {
		w, err := strconv.ParseInt(intPart, 10, 64)
		if err != nil || w > math.MaxInt64/scale {
			return 0, fmt.Errorf("number %q out of range", num)
		}
		whole = w
	}
	v := whole * scale
	// The fraction f/10^k is worth f·scale/10^k bytes, which must be whole. Computed in
	// 128 bits: f < 10^18 and scale ≤ 2^40.
	frac = strings.TrimRight(frac, "0")
	if len(frac) > 18 {
		return 0, fmt.Errorf("%q has too many fraction digits", num)
	}
	if frac != "" {
		f, _ := strconv.ParseUint(frac, 10, 64)
		pow := uint64(1)
		for range len(frac) {
			pow *= 10
		}
		hi, lo := bits.Mul64(f, uint64(scale))
		q, r := bits.Div64(hi, lo, pow)
		if r != 0 {
			return 0, fmt.Errorf("%q is not a whole number of bytes", num)
		}
		if q > uint64(math.MaxInt64-v) {
			return 0, fmt.Errorf("number %q out of range", num)
		}
		v += int64(q)
	}
	return v, nil
}

// String formats s in the largest binary unit that shows it as a whole number ("512MiB",
// "4KiB"), else in bytes ("1000B"). Zero is "0B".
func (s Size) String() string {
	if s > 0 {
		for _, u := range []struct {
			suffix string
			scale  Size
		}{{"TiB", TiB}, {"GiB", GiB}, {"MiB", MiB}, {"KiB", KiB}} {
			if s%u.scale == 0 {
				return strconv.FormatInt(int64(s/u.scale), 10) + u.suffix
			}
		}
	}
	return strconv.FormatInt(int64(s), 10) + "B"
}

// MarshalText implements encoding.TextMarshaler, so YAML shows "512MiB".
func (s Size) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler, so YAML accepts unit strings.
func (s *Size) UnmarshalText(b []byte) error {
	v, err := ParseSize(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}
