package runner

import (
	"encoding/json"
	"runtime"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// smallSets shrinks fastdrain-tlc's flash to 12 channels × 2 dies (24 dies, 6 GiB raw) and
// its host to 1 GiB, so the reference run builds and runs in about a second.
var smallSets = []string{"flash.ways=1", "flash.dies_per_package=2", "host.pagecache.memory=1GiB"}

// referenceRun is the determinism check's reference: a small fastdrain-tlc machine with the
// full FastDrain variant, a latency-critical app (db-s) co-located with ungzip for one
// simulated second (~95 k events), marshalled as result.json is.
func referenceRun(t *testing.T) []byte {
	t.Helper()
	c, sc := setup(t, "fd", "db-s+ungzip", sim.Second, smallSets...)
	sc.Warmup = 100 * sim.Millisecond
	r, err := Run(Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
	require.NoError(t, err)
	require.Positive(t, r.Events)
	t.Logf("events %d, ungzip requests %d, db-s %d", r.Events, r.App("ungzip").Requests, r.App("db-s").Requests)
	b, err := json.Marshal(r.JSON())
	require.NoError(t, err)
	return b
}

// TestDeterminism runs the reference twice under GOMAXPROCS 1 and twice under 2 and
// requires byte-identical JSON: same configuration and seed ⇒ same output, whatever the
// Go scheduler does (the model uses no goroutines, maps in behaviour-changing order, or
// wall-clock time).
func TestDeterminism(t *testing.T) {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	want := referenceRun(t)
	require.Equal(t, string(want), string(referenceRun(t)), "second run, GOMAXPROCS=1")
	runtime.GOMAXPROCS(2)
	require.Equal(t, string(want), string(referenceRun(t)), "GOMAXPROCS=2")
	// Two at once on two goroutines, as RunAll sweeps do.
	c, sc := setup(t, "fd", "db-s+ungzip", sim.Second, smallSets...)
	sc.Warmup = 100 * sim.Millisecond
	o := Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}}
	res, errs := RunAll([]Options{o, o}, 2, nil)
	for i := range res {
		require.NoError(t, errs[i])
		b, err := json.Marshal(res[i].JSON())
		require.NoError(t, err)
		require.Equal(t, string(want), string(b), "run %d of a 2-worker sweep", i)
	}
}
