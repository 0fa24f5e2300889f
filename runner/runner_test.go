package runner

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestRunSmoke(t *testing.T) {
	c, sc := setup(t, "vanilla", "apache-u+ungzip", sim.Second)
	r, err := Run(Options{Label: "vanilla", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
	require.NoError(t, err)
	require.NotNil(t, r.App("apache-u"))
	require.Positive(t, r.App("apache-u").Requests)
	t.Logf("%+v", r.Firmware)
	t.Logf("util rows %d", len(r.Utilization.Rows))
}

func TestWriteDir(t *testing.T) {
	c, sc := setup(t, "fd", "apache-u+ungzip", sim.Second)
	r, err := Run(Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, r.WriteDir(dir))
	for _, f := range []string{"config.yaml", "result.json", "apps.csv", "stats.csv", "utilization.csv",
		"series.csv", "latency-cdf.png", "latency-cdf.svg", "response-apache-u.png", "buffer.svg"} {
		st, err := os.Stat(filepath.Join(dir, f))
		require.NoError(t, err, f)
		require.Positive(t, st.Size(), f)
	}
	var b bytes.Buffer
	require.NoError(t, r.WriteText(&b))
	require.Contains(t, b.String(), "dies utilization (fd)")
}

// TestThroughput: 300 MB written over a 2 s measured window is 150 MB/s; an app that did
// not run reports 0.
func TestThroughput(t *testing.T) {
	r := &Result{Began: sim.Second, Ended: 3 * sim.Second, Apps: []AppResult{{App: "ungzip", Bytes: 300_000_000}}}
	require.InDelta(t, 150.0, r.Throughput("ungzip"), 1e-9)
	require.Zero(t, r.Throughput("db-s"))
}
