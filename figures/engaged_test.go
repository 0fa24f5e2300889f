package figures

import (
	"bytes"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// fakeRun is a run result with one latency (every request of app takes lat) and the
// mechanism counters given.
func fakeRun(app string, lat sim.Time, peak, capacity int, fg int64) *runner.Result {
	h := &sim.Histogram{}
	h.Record(int64(lat))
	r := &runner.Result{Apps: []runner.AppResult{{App: app, Requests: 1, Latency: h}}, BufferPages: capacity}
	r.Buffer.PeakOccupancy = peak
	r.Firmware.ForegroundEvictions = fg
	return r
}

// TestClaimsNotEngagedAndTies: made-up results for every latency-critical app. Vanilla's
// 100-page buffer peaks at 60 pages (never full), so Fig. 2b's claim is "not engaged"
// whatever the Oracle measured (here 10 ms → 1 ms, a 90 % cut, within the paper's
// 91 ± 15 %). FD-Buf and LSB-only both evict in the foreground and give the same p99 on
// every app: Fig. 3a is a tie. Then Vanilla's buffer fills (100 of 100) on one app and 2b
// is judged: reproduced. LSB-only with no foreground eviction makes 3a "not engaged" again.
func TestClaimsNotEngagedAndTies(t *testing.T) {
	set := &Set{runs: map[key]*runner.Result{}}
	put := func(v string, r func(app string) *runner.Result) {
		for _, a := range apps.LatencyCritical() {
			set.runs[key{a + "+" + apps.Ungzip, v, ""}] = r(a)
		}
	}
	ms := sim.Millisecond
	put("vanilla", func(a string) *runner.Result { return fakeRun(a, 10*ms, 60, 100, 0) })
	put("oracle", func(a string) *runner.Result { return fakeRun(a, ms, 0, 0, 0) })
	put("fd-buf", func(a string) *runner.Result { return fakeRun(a, 5*ms, 100, 100, 7) })
	put("lsb-only", func(a string) *runner.Result { return fakeRun(a, 5*ms, 100, 100, 7) })

	c2b := set.fig2b().Claims[0]
	require.InDelta(t, 90, c2b.Measured, 1e-9)
	require.Equal(t, "not engaged: vanilla: buffer never filled", c2b.Verdict())
	c3a := set.fig3a().Claims[0]
	require.True(t, c3a.Tie)
	require.Equal(t, "tie", c3a.Verdict())
	var b bytes.Buffer
	require.NoError(t, WriteText(&b, []*Figure{set.fig2b(), set.fig3a()}))
	require.Contains(t, b.String(), "verdicts: 0 reproduced, 0 not reproduced, 1 not engaged, 1 ties, 0 not run")

	set.runs[key{apps.ApacheU + "+" + apps.Ungzip, "vanilla", ""}] = fakeRun(apps.ApacheU, 10*ms, 100, 100, 3)
	c2b = set.fig2b().Claims[0]
	require.Equal(t, "reproduced", c2b.Verdict())
	require.Equal(t, "vanilla: buffer filled in 1 of 6 apps", c2b.Engaged)

	put("lsb-only", func(a string) *runner.Result { return fakeRun(a, 2*ms, 100, 100, 0) })
	require.Equal(t, "not engaged: lsb-only: no foreground eviction", set.fig3a().Claims[0].Verdict())
}
