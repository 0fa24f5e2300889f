package fio

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// FuzzUnits fuzzes the job file's value parsers (sizes in both conventions, durations,
// booleans, rw modes):
// none may panic; a size is never negative and a duration never negative when accepted.
func FuzzUnits(f *testing.F) {
	for _, s := range []string{"4k", "4KiB", "1m", "10g", "512", "-1", "1.5m", "9223372036854775807k",
		"10s", "500ms", "2us", "1h", "3", "true", "0", "on", "randread", "randrw", "rw", "", " ", "k"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n, err := ParseSize(s); err == nil && n < 0 {
			t.Fatalf("ParseSize(%q) = %d, negative", s, n)
		}
		for _, kb := range []int64{1000, 1024} {
			if n, err := ParseSizeBase(s, kb); err == nil && n < 0 {
				t.Fatalf("ParseSizeBase(%q, %d) = %d, negative", s, kb, n)
			}
		}
		if d, err := ParseDuration(s); err == nil && d < 0 {
			t.Fatalf("ParseDuration(%q) = %v, negative", s, sim.Time(d))
		}
		_, _ = ParseBool(s)
		_, _ = ParseRW(s)
	})
}
