package pagecache

import (
	"fmt"
	"strconv"
	"strings"
)

// Size is an amount of memory or storage in bytes. In configuration it is written as an
// integer with a binary unit: "4GiB", "512MiB", "128KiB", "4096B", or a bare byte count.
type Size int64

// Binary size units.
const (
	B   Size = 1
	KiB Size = 1024 * B
	MiB Size = 1024 * KiB
	GiB Size = 1024 * MiB
	TiB Size = 1024 * GiB
)

// sizeUnits lists the accepted suffixes, longest first so that "KiB" is tried before "B".
var sizeUnits = []struct {
	suffix string
	scale  Size
}{{"TiB", TiB}, {"GiB", GiB}, {"MiB", MiB}, {"KiB", KiB}, {"B", B}}

// ParseSize parses a non-negative integer with an optional binary unit (B, KiB, MiB, GiB,
// TiB) into a Size. Fractions and decimal units (kB, MB) are rejected so that a value is
// always a whole, unambiguous number of bytes.
func ParseSize(s string) (Size, error) {
	str := strings.TrimSpace(s)
	scale := B
	for _, u := range sizeUnits {
		if strings.HasSuffix(str, u.suffix) {
			str = strings.TrimSpace(strings.TrimSuffix(str, u.suffix))
			scale = u.scale
			break
		}
	}
	if str == "" {
		return 0, fmt.Errorf("size %q: missing number", s)
	}
	v, err := strconv.ParseInt(str, 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("size %q: want a non-negative integer with unit B, KiB, MiB, GiB or TiB", s)
	}
	if v > int64(^uint64(0)>>1)/int64(scale) {
		return 0, fmt.Errorf("size %q: too large", s)
	}
	return Size(v) * scale, nil
}

// String formats s in the largest binary unit that shows it exactly, e.g. "4GiB".
func (s Size) String() string {
	if s != 0 {
		for _, u := range sizeUnits[:4] {
			if s%u.scale == 0 {
				return strconv.FormatInt(int64(s/u.scale), 10) + u.suffix
			}
		}
	}
	return strconv.FormatInt(int64(s), 10) + "B"
}

// MarshalText implements encoding.TextMarshaler.
func (s Size) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Size) UnmarshalText(b []byte) error {
	v, err := ParseSize(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}
