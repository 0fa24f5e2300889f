package fio

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// sizeUnits maps lower-case unit suffixes to multipliers; all are powers of 1024 (see the
// package documentation for how this relates to fio's kb_base).
var sizeUnits = []struct {
	suffix string
	mult   int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40}, {"pib", 1 << 50},
	{"kb", 1 << 10}, {"mb", 1 << 20}, {"gb", 1 << 30}, {"tb", 1 << 40}, {"pb", 1 << 50},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40}, {"p", 1 << 50},
	{"b", 1},
}

// ParseSize parses a fio-style size: "4096", "4k", "4KiB", "1m", "2g" (powers of 1024).
func ParseSize(s string) (int64, error) {
	str := strings.ToLower(strings.TrimSpace(s))
	num, mult := str, int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(str, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(str, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseInt(num, 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a size (an integer with an optional k, m, g, t, p unit)", s)
	}
	if v > math.MaxInt64/mult {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return v * mult, nil
}

// ParseSizeBase parses a size as fio does in INI job files, where kb_base (1024 or 1000)
// decides the prefixes: with fio's default 1024 ("compatibility mode") k/kb/m/mb... are
// powers of 1024 and kib/mib... powers of 1000; with kb_base=1000 it is the other way
// round (k/kb = 1000, kib = 1024). Suffixes are case-insensitive.
//
// kbBase yamlKB (0) is the YAML job convention instead: every unit a power of 1024.
func ParseSizeBase(s string, kbBase int64) (int64, error) {
	if kbBase == yamlKB {
		return ParseSize(s)
	}
	str := strings.ToLower(strings.TrimSpace(s))
	num, exp, iec := str, 0, false
	for _, u := range sizeUnits {
		if strings.HasSuffix(str, u.suffix) {
			num = strings.TrimSpace(strings.TrimSuffix(str, u.suffix))
			exp = bits.Len64(uint64(u.mult)) / 10 // 1<<10 → 1, 1<<20 → 2, …, 1 → 0
			iec = strings.HasSuffix(u.suffix, "ib")
			break
		}
	}
	base := kbBase
	if iec {
		base = 2024 - kbBase // the other base: 1024 ↔ 1000
	}
	v, err := strconv.ParseInt(num, 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a size (an integer with an optional k, m, g, t, p unit)", s)
	}
	for range exp {
		if v > math.MaxInt64/base {
			return 0, fmt.Errorf("size %q is too large", s)
		}
		v *= base
	}
	return v, nil
}

// yamlKB selects ParseSize's convention (all units powers of 1024) in ParseSizeBase.
const yamlKB = 0

// durationUnits are the units that sim.ParseTime does not know, each as a sim unit and a
// whole multiplier, so fractions stay exact ("1.5min" = 1.5 s × 60).
var durationUnits = []struct {
	suffix, unit string
	mult         int64
}{
	{"usec", "us", 1}, {"msec", "ms", 1}, {"sec", "s", 1},
	{"min", "s", 60}, {"h", "s", 3600}, {"d", "s", 86400},
}

// ParseDuration parses a fio-style time: a plain integer is seconds ("30"); otherwise a
// number with a unit: ps, ns, us/usec, ms/msec, s/sec, m/min, h, d ("500ms", "1.5s", "2m").
// The result is exact in picoseconds; no floating point is used.
func ParseDuration(s string) (sim.Time, error) {
	str := strings.TrimSpace(s)
	bad := fmt.Errorf("%q is not a time (seconds, or a number with ps, ns, us, ms, s, m, h or d)", s)
	if v, err := strconv.ParseInt(str, 10, 64); err == nil {
		if v < 0 || v > int64(sim.MaxTime/sim.Second) {
			return 0, fmt.Errorf("time %q is out of range", s)
		}
		return sim.Time(v) * sim.Second, nil
	}
	for _, u := range durationUnits {
		if num, ok := strings.CutSuffix(str, u.suffix); ok {
			return scaled(s, num+u.unit, u.mult, bad)
		}
	}
	if t, err := sim.ParseTime(str); err == nil {
		if t < 0 {
			return 0, bad
		}
		return t, nil
	}
	if num, ok := strings.CutSuffix(str, "m"); ok {
		return scaled(s, num+"s", 60, bad)
	}
	return 0, bad
}

// scaled parses t with sim.ParseTime and multiplies it by mult, checking range.
func scaled(orig, t string, mult int64, bad error) (sim.Time, error) {
	v, err := sim.ParseTime(t)
	if err != nil || v < 0 {
		return 0, bad
	}
	if int64(v) > int64(sim.MaxTime)/mult {
		return 0, fmt.Errorf("time %q is out of range", orig)
	}
	return v * sim.Time(mult), nil
}

// ParseBool parses fio's boolean values: 0, 1, true, false.
func ParseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true":
		return true, nil
	case "0", "false":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a boolean (0, 1, true, false)", s)
}
