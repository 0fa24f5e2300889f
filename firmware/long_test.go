package firmware

import "testing"

// TestIntegrityLong is the long version of TestIntegrity: 10 million I/Os over the nine
// policy × allocator configurations, every read checked. It takes a couple of minutes and
// is skipped with -short. Oracle-BG, which evicts as FastDrain's background path does, is
// left to TestIntegrity so the run stays within the default test timeout.
func TestIntegrityLong(t *testing.T) {
	if testing.Short() {
		t.Skip("long integrity run; skipped with -short")
	}
	for _, pol := range []Policy{Vanilla, FastDrain, Oracle} {
		for _, alloc := range []string{"sequential", "skip-to-lsb", "latency-aware"} {
			t.Run(pol.String()+"/"+alloc, func(t *testing.T) {
				integrityRun(t, pol, alloc, 1_111_112, 99)
			})
		}
	}
}
