package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/testtier"
)

// TestIntegrityLong is the long version of TestIntegrity: 10 million I/Os over the nine
// policy × allocator configurations, every read checked (Oracle-BG, whose eviction code is
// FD-Buf's background path, stays in TestIntegrity). It is in the long tier
// (FASTDRAIN_LONG=1): about 3 minutes on a quiet 2-core machine, 13-15 loaded (issue 18), so
// the default go test ./... leaves it to .ci/run's long pass, which gives it its own
// -timeout.
func TestIntegrityLong(t *testing.T) {
	testtier.SkipUnlessLong(t, "10 M-I/O integrity run")
	for _, pol := range []Policy{Vanilla, FastDrain, Oracle} {
		for _, alloc := range []string{"sequential", "skip-to-lsb", "latency-aware"} {
			t.Run(pol.String()+"/"+alloc, func(t *testing.T) {
				integrityRun(t, pol, alloc, 1_111_112, 99)
			})
		}
	}
}
