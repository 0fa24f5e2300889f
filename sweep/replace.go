package sweep

import "fmt"

// Seal returns s as a Result of Run records it: the digests of the base configuration and
// of the applications file filled in, the lists copied. It reads the configuration files.
func Seal(s Spec) (Spec, error) { return s.sealed() }

// CheckReplace reports whether the result file at path may be replaced by shard sh of the
// sweep sealed (as Seal returns it) without losing anything: nil when the file holds the
// same sweep (the fields Merge compares) and the same shard, whose new file has the same
// bytes (a retried batch task); otherwise an error saying what the file holds instead.
func CheckReplace(path string, sealed Spec, sh Shard) error {
	r, err := ReadFile(path)
	if err != nil {
		return fmt.Errorf("%s exists and is not a sweep result this sweep may replace: %w", path, err)
	}
	if d := specDiff(r.Spec, sealed); d != "" {
		return fmt.Errorf("%s holds the results of another sweep (%s differ)", path, d)
	}
	if r.Shard != sh {
		return fmt.Errorf("%s holds shard %s of this sweep, not %s", path, r.Shard, sh)
	}
	return nil
}
