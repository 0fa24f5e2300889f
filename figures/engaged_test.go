package figures

import (
	"bytes"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/hostos/pagecache"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// fakeRun is a one-second run result with one latency (every request of app takes lat), a
// buffer of capacity pages whose occupancy is peak at both of its samples, and, if fg > 0,
// fg foreground evictions in a foreground episode over the whole run.
func fakeRun(app string, lat sim.Time, peak, capacity int, fg int64) *runner.Result {
	h := &sim.Histogram{}
	h.Record(int64(lat))
	r := &runner.Result{Apps: []runner.AppResult{{App: app, Requests: 1, Latency: h}}, BufferPages: capacity,
		Began: 0, Ended: sim.Second}
	r.Buffer.PeakOccupancy = peak
	r.Series = []*sim.Series{{Name: "ssd.fw.buffer.occupancy", Samples: []sim.Sample{{At: 0, Value: int64(peak)}, {At: sim.Second, Value: int64(peak)}}}}
	r.Firmware.ForegroundEvictions = fg
	if fg > 0 {
		r.ModeChanges = []firmware.ModeChange{{At: 0, Foreground: true}}
	}
	return r
}

// TestEngagementShares: shares worked by hand. Foreground from 0.2 s to 0.3 s and from 0.9 s
// to the end of a 1 s run: 0.1 + 0.1 = 20 %. The high ratio set from 0.5 s to the end: 50 %.
// Occupancy samples 99, 100, 98, 100 of 100 pages: three at 99 % or more, 75 %.
func TestEngagementShares(t *testing.T) {
	ms := sim.Millisecond
	r := &runner.Result{Began: 0, Ended: sim.Second, BufferPages: 100}
	r.ModeChanges = []firmware.ModeChange{{At: 200 * ms, Foreground: true}, {At: 300 * ms}, {At: 900 * ms, Foreground: true}}
	r.Switches = []pagecache.RatioSwitch{{At: 500 * ms, High: true}}
	var smp []sim.Sample
	for i, v := range []int64{99, 100, 98, 100} {
		smp = append(smp, sim.Sample{At: sim.Time(i) * 250 * ms, Value: v})
	}
	r.Series = []*sim.Series{{Name: "ssd.fw.buffer.occupancy", Samples: smp}}
	require.InDelta(t, 0.2, foreground.share(r), 1e-12)
	require.InDelta(t, 0.5, switched.share(r), 1e-12)
	require.InDelta(t, 0.75, filled.share(r), 1e-12)
	// 0.5 % of the run is under the 1 % a p99 claim needs.
	r.ModeChanges = []firmware.ModeChange{{At: 0, Foreground: true}, {At: 5 * ms}}
	require.False(t, foreground.happened(r))
	r.ModeChanges[1].At = 10 * ms
	require.True(t, foreground.happened(r))
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
			set.runs[key{scenario: a + "+" + apps.Ungzip, variant: v}] = r(a)
		}
	}
	ms := sim.Millisecond
	put("vanilla", func(a string) *runner.Result { return fakeRun(a, 10*ms, 60, 100, 0) })
	put("oracle", func(a string) *runner.Result { return fakeRun(a, ms, 0, 0, 0) })
	put("fd-buf", func(a string) *runner.Result { return fakeRun(a, 5*ms, 100, 100, 7) })
	put("lsb-only", func(a string) *runner.Result { return fakeRun(a, 5*ms, 100, 100, 7) })

	c2b := set.fig2b().Claims[0]
	require.InDelta(t, 90, c2b.Measured, 1e-9)
	require.Equal(t, "not engaged: vanilla: buffer full in force under 1.0 % of the run (at most 0.0 %)", c2b.Verdict())
	c3a := set.fig3a().Claims[0]
	require.True(t, c3a.Tie)
	require.Equal(t, "tie", c3a.Verdict())
	var b bytes.Buffer
	require.NoError(t, WriteText(&b, []*Figure{set.fig2b(), set.fig3a()}))
	require.Contains(t, b.String(), "verdicts: 0 reproduced, 0 not reproduced, 1 not engaged, 1 ties, 0 not run")

	set.runs[key{scenario: apps.ApacheU + "+" + apps.Ungzip, variant: "vanilla"}] = fakeRun(apps.ApacheU, 10*ms, 100, 100, 3)
	c2b = set.fig2b().Claims[0]
	require.Equal(t, "reproduced", c2b.Verdict())
	require.Equal(t, "vanilla: buffer full ≥ 1.0 % of the run in 1 of 6 apps", c2b.Engaged)

	put("lsb-only", func(a string) *runner.Result { return fakeRun(a, 2*ms, 100, 100, 0) })
	require.Equal(t, "not engaged: lsb-only: foreground eviction in force under 1.0 % of the run (at most 0.0 %)", set.fig3a().Claims[0].Verdict())
}
