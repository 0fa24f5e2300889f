package comparerun

import (
	"testing"
	"time"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestWallEstimate: with the CPUs free the runs share the jobs; under load each runnable task
// gets a fair share of the CPUs. 120 s of CPU on 2 jobs and 2 idle CPUs is 60 s; at a load
// of 18 the 2 jobs get 2 × 2/20 = 0.2 CPU, so 600 s.
func TestWallEstimate(t *testing.T) {
	require.Equal(t, "about 1m0s here (2 min of CPU; load average 0.0 on 2 CPUs)", wallEstimate(2*time.Minute, 24, 2, 2, 0))
	require.Equal(t, "about 10 min here (2 min of CPU; load average 18.0 on 2 CPUs)", wallEstimate(2*time.Minute, 24, 2, 2, 18))
	require.Equal(t, "about 2 min here (2 min of CPU; 2 CPUs)", wallEstimate(2*time.Minute, 1, 0, 2, -1), "one run uses one CPU")
	// 5 s of CPU on two idle CPUs: 2.5 s of wall, said as a bound, not "about under 10s".
	require.Equal(t, "under 10s here (under 10s of CPU; load average 0.0 on 2 CPUs)", wallEstimate(5*time.Second, 24, 2, 2, 0))
	require.Contains(t, Estimate("tiny", 4, sim.Second, 1, true), "no time estimate for this preset")
}
