package apps

import "testing"

// FuzzParseRate fuzzes the rate parser of the apps YAML (B/s … GiB/s): nothing panics, an
// accepted rate is not negative and its String form parses back to the same rate.
func FuzzParseRate(f *testing.F) {
	for _, s := range []string{"160MB/s", "1GiB/s", "3kB/s", "160", "0B/s", "-1MB/s", "99999999999999999GB/s", "1.5MB/s", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRate(s)
		if err != nil {
			return
		}
		if r < 0 {
			t.Fatalf("ParseRate(%q) = %d, negative", s, int64(r))
		}
		back, err := ParseRate(r.String())
		if err != nil || back != r {
			t.Fatalf("ParseRate(%q) = %d, String %q parses to %d (%v)", s, int64(r), r.String(), int64(back), err)
		}
	})
}
