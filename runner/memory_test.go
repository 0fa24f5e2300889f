package runner

import (
	"runtime"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestResultsDoNotHoldTheMachine: a Result must not keep its machine alive (the FTL's maps
// alone are hundreds of MiB on fastdrain-tlc), or sweeps and figures run out of memory.
func TestResultsDoNotHoldTheMachine(t *testing.T) {
	c, sc := setup(t, "fd", "db-s+ungzip", 100*sim.Millisecond)
	var keep []*Result
	var ms runtime.MemStats
	for i := 0; i < 3; i++ {
		r, err := Run(Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
		require.NoError(t, err)
		keep = append(keep, r)
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	// One machine's FTL alone is over 200 MiB; three retained results must stay far below.
	require.Less(t, ms.HeapAlloc, uint64(100<<20), "heap %d MiB with %d results held", ms.HeapAlloc>>20, len(keep))
}
