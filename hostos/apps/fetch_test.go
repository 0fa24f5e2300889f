package apps

import (
	"math"
	"slices"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestFetchResponseTime checks a fetch's response time by hand: one 64 KiB file size, read
// in 16 KiB calls of 7 µs each, 50 µs request CPU and 200 µs/MiB body CPU:
// 50 + 4·7 + 64/1024·200 = 50 + 28 + 12.5 = 90.5 µs.
func TestFetchResponseTime(t *testing.T) {
	o := newFakeOS()
	o.lat[kRead] = 7 * sim.Microsecond
	spec := oneClient(DefaultSpec())
	spec.ApacheF.Dirs = 3
	spec.ApacheF.FilesPerClass = 1
	spec.ApacheF.Classes = []SizeClass{{Percent: 100, Min: 64 * KiB, Max: 64 * KiB}}
	spec.ApacheF.IOSize = 16 * KiB
	r := runOne(t, o, spec, 1*sim.Millisecond, ApacheF)
	res := r.Result(ApacheF)
	want := int64(90500 * sim.Nanosecond)
	require.Equal(t, want, res.Latency.Min())
	require.Equal(t, want, res.Latency.Max())
	// 1 ms / 90.5 µs = 11.05 → 12 starts (11·90.5 = 995.5 µs < 1 ms).
	require.EqualValues(t, 12, res.Requests)
	require.EqualValues(t, 4*12, o.count[kRead])
	require.EqualValues(t, 3, o.count[kCreate], "the data set: 3 dirs × 1 class × 1 file")
}

// TestFetchZipfPopularity checks directory popularity against Zipf(1) over 10 directories:
// the k-th most popular directory gets 1/(k·H₁₀) of the fetches, H₁₀ = 2.9290.
func TestFetchZipfPopularity(t *testing.T) {
	o := newFakeOS()
	o.lat[kRead] = 1 * sim.Microsecond
	spec := oneClient(DefaultSpec())
	spec.ApacheF.Dirs = 10
	spec.ApacheF.CPUPerRequest, spec.ApacheF.CPUPerMiB = 0, 0
	r := runOne(t, o, spec, 20*sim.Millisecond, ApacheF)
	n := float64(r.Result(ApacheF).Requests)
	perDir := map[string]float64{}
	for _, op := range o.ops(kRead) {
		if op.off == 0 {
			perDir[op.file[:len("apache-f/dir00000")]]++
		}
	}
	var counts []float64
	for _, c := range perDir {
		counts = append(counts, c)
	}
	slices.Sort(counts)
	slices.Reverse(counts)
	require.Len(t, counts, 10)
	const h10 = 2.9289682539682538
	for k, c := range counts {
		p := 1 / (float64(k+1) * h10)
		require.InDelta(t, n*p, c, 4*math.Sqrt(n*p*(1-p))+1, "rank %d", k+1)
	}
}

// TestClosedLoopConcurrency checks that closed-loop clients keep exactly Clients requests
// outstanding with no think time, and that with a constant think time the count is the
// hand-computed one.
func TestClosedLoopConcurrency(t *testing.T) {
	o := newFakeOS()
	o.lat[kReadDirect] = 50 * sim.Microsecond
	spec := DefaultSpec()
	spec.DBS.Client = ClientSpec{Clients: 3, ThinkDistribution: ThinkConstant}
	spec.DBS.CPUPerOp = 0
	r := runOne(t, o, spec, 1*sim.Millisecond, DBS)
	require.Equal(t, 3, o.peak, "never more, never fewer than 3 in flight")
	// Each client: 1 ms / 50 µs = 20 requests.
	require.EqualValues(t, 60, r.Result(DBS).Requests)

	// Think 1 ms then a 1 ms request: issues at 1, 3, 5, 7, 9 ms before the 10 ms end →
	// 5 per client, 15 in all.
	o = newFakeOS()
	o.lat[kReadDirect] = 1 * sim.Millisecond
	spec.DBS.Client.ThinkTime = 1 * sim.Millisecond
	r = runOne(t, o, spec, 10*sim.Millisecond, DBS)
	require.EqualValues(t, 15, r.Result(DBS).Requests)
	require.EqualValues(t, 1*sim.Millisecond, r.Result(DBS).Latency.Max(), "think time is not response time")
}

// TestExponentialThinkMean checks the exponential think time's mean: one client, requests
// of 10 µs, mean think 1 ms: requests ≈ 100 ms / 1.01 ms ≈ 99 (Poisson-like, σ ≈ 10).
func TestExponentialThinkMean(t *testing.T) {
	o := newFakeOS()
	o.lat[kReadDirect] = 10 * sim.Microsecond
	spec := DefaultSpec()
	spec.DBS.Client.Clients = 10
	spec.DBS.Client.ThinkTime = sim.Millisecond
	spec.DBS.CPUPerOp = 0
	r := runOne(t, o, spec, 100*sim.Millisecond, DBS)
	// 10 clients × 99 = 990, σ ≈ √990 ≈ 31.
	require.InDelta(t, 990, float64(r.Result(DBS).Requests), 4*31)
}
