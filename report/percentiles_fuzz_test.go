package report

import (
	"slices"
	"testing"
)

// FuzzParsePercentiles: any input is a list or an error, never a panic; a list is
// ascending without repeats, every entry in (0, 100), its field name reads back to it and
// its quantile is in (0, 1).
func FuzzParsePercentiles(f *testing.F) {
	for _, s := range []string{"50,90,99,99.9,99.99,99.999", "99.9,50,50", "0", "100", "5,9.95,99.5", "1e1", "50,,90", " 50 ", "0.000001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := ParsePercentiles(s)
		if err != nil {
			return
		}
		if !slices.IsSorted(ps) || len(slices.Compact(slices.Clone(ps))) != len(ps) || len(ps) > MaxPercentiles {
			t.Fatalf("%q: %v is not ascending and unique", s, ps)
		}
		for _, p := range ps {
			if !(p > 0 && p < 100) {
				t.Fatalf("%q: %v out of (0, 100)", s, p)
			}
			if back, ok := ParsePercentileKey(PercentileKey(p)); !ok || back != p {
				t.Fatalf("%q: %v → %s → %v, %v", s, p, PercentileKey(p), back, ok)
			}
			if q := Fraction(p); !(q > 0 && q < 1) {
				t.Fatalf("%q: Fraction(%v) = %v", s, p, q)
			}
		}
	})
}
