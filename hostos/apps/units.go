package apps

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Size is an amount of data in bytes ("16KiB", "1MiB", "922"); it is sim.Size, shared by
// every configuration section.
type Size = sim.Size

// Binary size units, re-exported from sim for this package's specs.
const (
	B   = sim.Byte
	KiB = sim.KiB
	MiB = sim.MiB
	GiB = sim.GiB
	TiB = sim.TiB
)

// Rate is a data rate in bytes per second. In configuration it is an integer with a unit:
// decimal "160MB/s", "1GB/s", "500kB/s" (powers of 1000, as throughput is usually quoted)
// or binary "150MiB/s", or "B/s".
type Rate int64

// rateUnits lists the accepted suffixes, longest first.
var rateUnits = []struct {
	suffix string
	scale  int64
}{
	{"GiB/s", 1 << 30}, {"MiB/s", 1 << 20}, {"KiB/s", 1 << 10},
	{"GB/s", 1e9}, {"MB/s", 1e6}, {"kB/s", 1e3}, {"KB/s", 1e3}, {"B/s", 1},
}

// ParseRate parses a positive integer with a rate unit (B/s, kB/s, MB/s, GB/s, KiB/s,
// MiB/s, GiB/s). A unit is required, so "160" is not silently read as bytes per second.
func ParseRate(s string) (Rate, error) {
	str := strings.TrimSpace(s)
	for _, u := range rateUnits {
		if !strings.HasSuffix(str, u.suffix) {
			continue
		}
		num := strings.TrimSpace(strings.TrimSuffix(str, u.suffix))
		v, err := strconv.ParseInt(num, 10, 64)
		if num == "" || err != nil || v < 0 {
			return 0, fmt.Errorf("rate %q: want a non-negative integer with a unit such as MB/s", s)
		}
		if v > int64(^uint64(0)>>1)/u.scale {
			return 0, fmt.Errorf("rate %q: too large", s)
		}
		return Rate(v * u.scale), nil
	}
	return 0, sim.UnitError("rate", s, "B/s, kB/s, MB/s, GB/s, KiB/s, MiB/s or GiB/s")
}

// String formats r in the largest decimal or binary unit that shows it exactly.
func (r Rate) String() string {
	if r != 0 {
		for _, u := range []struct {
			suffix string
			scale  int64
		}{{"GB/s", 1e9}, {"GiB/s", 1 << 30}, {"MB/s", 1e6}, {"MiB/s", 1 << 20}, {"kB/s", 1e3}, {"KiB/s", 1 << 10}} {
			if int64(r)%u.scale == 0 {
				return strconv.FormatInt(int64(r)/u.scale, 10) + u.suffix
			}
		}
	}
	return strconv.FormatInt(int64(r), 10) + "B/s"
}

// MarshalText implements encoding.TextMarshaler.
func (r Rate) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (r *Rate) UnmarshalText(b []byte) error {
	v, err := ParseRate(string(b))
	if err == nil {
		*r = v
	}
	return err
}

// Duration returns the time to move n bytes at rate r, rounded down to a picosecond, in
// exact integer arithmetic (n·10¹² / r with a 128-bit product). r must be positive and the
// result must fit in a Time; both are checked by Validate for the values models use.
func (r Rate) Duration(n int64) sim.Time {
	if r <= 0 || n < 0 {
		panic(fmt.Sprintf("apps: Rate.Duration(%d) at rate %d", n, int64(r)))
	}
	hi, lo := bits.Mul64(uint64(n), uint64(sim.Second))
	if hi >= uint64(r) {
		return sim.MaxTime
	}
	q, _ := bits.Div64(hi, lo, uint64(r))
	if q > uint64(sim.MaxTime) {
		return sim.MaxTime
	}
	return sim.Time(q)
}

// perMiB returns the CPU time for n bytes at cost per MiB: n·cost/2²⁰ in integer ps.
func perMiB(n int64, cost sim.Time) sim.Time {
	if cost == 0 || n == 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(n), uint64(cost))
	if hi >= 1<<20 {
		return sim.MaxTime
	}
	q, _ := bits.Div64(hi, lo, 1<<20)
	return sim.Time(q)
}
