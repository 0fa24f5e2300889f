package trace

import "testing"

// FuzzParseRatio fuzzes the --ratio option parser: accepted ratios are reduced, with a
// positive denominator and a non-negative numerator; nothing panics.
func FuzzParseRatio(f *testing.F) {
	for _, s := range []string{"3/4", "2", "0.25", "1/0", "0/5", "-1/2", "1e9", "18446744073709551615/3", "", "/", "0.0000000001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRatio(s)
		if err != nil {
			return
		}
		if r.Den <= 0 || r.Num < 0 {
			t.Fatalf("ParseRatio(%q) = %d/%d", s, r.Num, r.Den)
		}
		if g := gcd64(r.Num, r.Den); g != 1 && r.Num != 0 {
			t.Fatalf("ParseRatio(%q) = %d/%d, not reduced", s, r.Num, r.Den)
		}
	})
}

// FuzzParseFormat fuzzes the trace format names: an accepted name round-trips through
// String.
func FuzzParseFormat(f *testing.F) {
	for _, s := range []string{"disksim", "msr", "spc", "blkparse", "vscsi", "replayer", "auto", "MSR", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ft, err := ParseFormat(s)
		if err != nil {
			return
		}
		back, err := ParseFormat(ft.String())
		if err != nil || back != ft {
			t.Fatalf("ParseFormat(%q) = %v, which does not parse back (%v, %v)", s, ft, back, err)
		}
	})
}

func gcd64(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
