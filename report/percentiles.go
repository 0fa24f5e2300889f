package report

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Percentiles is a list of latency percentiles to report, each strictly between 0 and 100,
// ascending and without repeats (ParsePercentiles sorts a list and drops repeats). Commands
// take one with --percentiles; nil means each output's own default set.
type Percentiles []float64

// DefaultPercentiles is the set the machine-readable outputs report when --percentiles is
// not given: p50, p90, p99, p99.9 and p99.99 (the tail levels storage papers quote).
var DefaultPercentiles = Percentiles{50, 90, 99, 99.9, 99.99}

// MaxPercentiles bounds the length of a --percentiles list (fio's percentile_list allows 64).
const MaxPercentiles = 64

// maxPercentileDecimals bounds the decimals of one percentile: fio's JSON spells
// percentiles with six ("99.999900"), and a field name must say which percentile it is.
const maxPercentileDecimals = 6

// ParsePercentiles reads a comma-separated list such as "50,90,99,99.9": every entry a
// decimal number strictly between 0 and 100 with at most six decimals, at most
// MaxPercentiles of them. The result is sorted ascending and repeats are dropped. The error
// names the offending entry (the caller adds the flag's name).
func ParsePercentiles(s string) (Percentiles, error) {
	parts := strings.Split(s, ",")
	if len(parts) > MaxPercentiles {
		return nil, fmt.Errorf("has %d entries, more than %d", len(parts), MaxPercentiles)
	}
	var ps Percentiles
	var errs []error
	for _, part := range parts {
		part = strings.TrimSpace(part)
		if part == "" {
			errs = append(errs, errors.New("has an empty entry (want a list such as 50,90,99,99.9)"))
			continue
		}
		p, err := strconv.ParseFloat(part, 64)
		switch {
		case err != nil || math.IsNaN(p) || math.IsInf(p, 0):
			errs = append(errs, fmt.Errorf("%q is not a number (want a list such as 50,90,99,99.9)", part))
		case p <= 0 || p >= 100:
			errs = append(errs, fmt.Errorf("%q is not a percentile strictly between 0 and 100 (p0 is min_us, p100 max_us)", part))
		case decimals(p) > maxPercentileDecimals:
			errs = append(errs, fmt.Errorf("%q has more than %d decimals", part, maxPercentileDecimals))
		default:
			ps = append(ps, p)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	slices.Sort(ps)
	return slices.Compact(ps), nil
}

// decimals returns the number of digits after the point in p's shortest decimal form.
func decimals(p float64) int {
	_, frac, _ := strings.Cut(strconv.FormatFloat(p, 'f', -1, 64), ".")
	return len(frac)
}

// digits splits p's shortest decimal form into its integer and fraction digits.
func digits(p float64) (whole, frac string) {
	whole, frac, _ = strings.Cut(strconv.FormatFloat(p, 'f', -1, 64), ".")
	return whole, frac
}

// PercentileKey is the name of percentile p in JSON fields and CSV columns, before the unit:
// "p" and p's digits without the point, the integer part written with two digits, so the
// name says where the point was: 50 → "p50", 99.9 → "p999", 99.99 → "p9999", 5 → "p05",
// 9.95 → "p0995" (while 99.5 → "p995").
func PercentileKey(p float64) string {
	whole, frac := digits(p)
	if len(whole) < 2 {
		whole = "0" + whole
	}
	return "p" + whole + frac
}

// PercentileLabel is percentile p in a text table's header: "p50", "p99.9", "p99.999".
func PercentileLabel(p float64) string { return "p" + strconv.FormatFloat(p, 'f', -1, 64) }

// Fraction returns percentile p as the quantile Histogram.Quantile takes: the double nearest
// to p/100 written in decimal. Dividing in floating point is not always that: 99.9/100 is
// 0.9990000000000001, one unit above 0.999, which over 1,000 samples asks for rank
// ⌈999.0000000000001⌉ = 1,000 instead of 999.
func Fraction(p float64) float64 {
	whole, frac := digits(p)
	for len(whole) < 2 {
		whole = "0" + whole
	}
	// p < 100, so whole has two digits and p/100 is 0.<whole><frac>.
	q, err := strconv.ParseFloat("0."+whole+frac, 64)
	if err != nil || len(whole) > 2 {
		return p / 100 // not a percentile in (0, 100); Quantile clamps
	}
	return q
}

// Quantiles returns h's value (ps) at each percentile of ps, in order.
func (ps Percentiles) Quantiles(h *sim.Histogram) []int64 {
	out := make([]int64, len(ps))
	for i, p := range ps {
		out[i] = h.Quantile(Fraction(p))
	}
	return out
}

// Or returns ps, or def when ps is nil (no --percentiles given).
func (ps Percentiles) Or(def Percentiles) Percentiles {
	if ps == nil {
		return def
	}
	return ps
}

// Keys returns the field names of ps with the unit suffix appended, e.g. "_us":
// p50_us, p999_us.
func (ps Percentiles) Keys(unit string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = PercentileKey(p) + unit
	}
	return out
}

// Labels returns the text-table headers of ps (PercentileLabel).
func (ps Percentiles) Labels() []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = PercentileLabel(p)
	}
	return out
}

// ParsePercentileKey reads a field name's percentile back (the inverse of PercentileKey,
// without the unit): "p999" → 99.9, "p05" → 5; ok is false for other names ("mean", "p99_norm").
func ParsePercentileKey(key string) (p float64, ok bool) {
	d, found := strings.CutPrefix(key, "p")
	if !found || len(d) < 2 || strings.Trim(d, "0123456789") != "" {
		return 0, false
	}
	s := d[:2]
	if len(d) > 2 {
		s += "." + d[2:]
	}
	p, err := strconv.ParseFloat(s, 64)
	if err != nil || p <= 0 || PercentileKey(p) != key {
		return 0, false
	}
	return p, true
}
