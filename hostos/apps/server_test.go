package apps

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// uploads groups the fake host's log into the calls of each upload, by created file.
func uploads(t *testing.T, o *fakeOS, prefix string) [][]fakeOp {
	var out [][]fakeOp
	for _, op := range o.log {
		if !strings.HasPrefix(op.file, prefix) {
			continue
		}
		if op.kind == kCreate {
			out = append(out, nil)
		}
		require.NotEmpty(t, out, "call before the first create: %+v", op)
		out[len(out)-1] = append(out[len(out)-1], op)
	}
	return out
}

// TestApacheUploadWritesThenFsyncs checks Apache-U's request: create a new file, write
// it sequentially in 128 KiB calls, fsync it, and that each response time equals the hand
// sum of the fake latencies and the CPU time for its size.
func TestApacheUploadWritesThenFsyncs(t *testing.T) {
	o := newFakeOS()
	o.lat[kCreate] = 2 * sim.Microsecond
	o.lat[kWrite] = 10 * sim.Microsecond
	o.lat[kFsync] = 300 * sim.Microsecond
	r := runOne(t, o, oneClient(DefaultSpec()), 100*sim.Millisecond, ApacheU)
	res := r.Result(ApacheU)
	ups := uploads(t, o, "apache-u/upload/")
	require.Len(t, ups, int(res.Requests))
	pts := res.Series.Points()
	require.Len(t, pts, len(ups))
	var total int64
	for i, u := range ups {
		require.Equal(t, kCreate, u[0].kind)
		require.Equal(t, kFsync, u[len(u)-1].kind, "fsync is the last call of an upload")
		var size int64
		for _, w := range u[1 : len(u)-1] {
			require.Equal(t, kWrite, w.kind)
			require.Equal(t, size, w.off, "sequential writes")
			require.LessOrEqual(t, w.n, int64(128*KiB))
			size += w.n
		}
		writes := int64(len(u) - 2)
		require.Equal(t, (size+128*1024-1)/(128*1024), writes)
		// 50 µs request CPU + 2 µs create + 10 µs per write + 300 µs fsync
		// + size·200 µs/MiB body CPU (integer ps, rounded down).
		want := 50*sim.Microsecond + 2*sim.Microsecond + sim.Time(writes)*10*sim.Microsecond +
			300*sim.Microsecond + sim.Time(size*int64(200*sim.Microsecond)/(1<<20))
		require.Equal(t, want, pts[i].Latency, "upload %d of %d B", i, size)
		total += size
	}
	require.Equal(t, total, res.Bytes)
	require.Zero(t, o.count[kRead]+o.count[kReadDirect]+o.count[kWriteDirect])
}

// TestUploadSizeMix checks that uploads follow the SPECweb99 class mix (35/50/14/1 %)
// within 4 σ of a binomial count, and use only the nine sizes of each class.
func TestUploadSizeMix(t *testing.T) {
	o := newFakeOS()
	o.lat[kWrite] = 1 * sim.Microsecond
	spec := oneClient(DefaultSpec())
	spec.ApacheU.CPUPerRequest, spec.ApacheU.CPUPerMiB = 0, 0
	spec.ApacheU.Retain = 1 // keeps the fake's file table small
	r := runOne(t, o, spec, 40*sim.Millisecond, ApacheU)
	res := r.Result(ApacheU)
	n := float64(res.Requests)
	require.Greater(t, n, 15000.0)
	// Sizes per class, by hand from SPECweb96 Table 2 with evenly spaced sizes.
	classes := []struct {
		pct   float64
		sizes []int64
	}{
		{35, []int64{102, 204, 307, 409, 512, 614, 717, 819, 922}},
		{50, []int64{1024, 2048, 3072, 4096, 5120, 6144, 7168, 8192, 9216}},
		{14, []int64{10240, 20480, 30720, 40960, 51200, 61440, 71680, 81920, 92160}},
		{1, []int64{102400, 204800, 307200, 409600, 512000, 614400, 716800, 819200, 921600}},
	}
	counts := make([]float64, len(classes))
	for _, u := range uploads(t, o, "apache-u/upload/") {
		var size int64
		for _, op := range u {
			if op.kind == kWrite {
				size += op.n
			}
		}
		found := false
		for c, cl := range classes {
			if slices.Contains(cl.sizes, size) {
				counts[c]++
				found = true
			}
		}
		require.True(t, found, "size %d is not a class size", size)
	}
	for c, cl := range classes {
		p := cl.pct / 100
		sigma := math.Sqrt(n * p * (1 - p))
		require.InDelta(t, n*p, counts[c], 4*sigma, "class %d", c)
	}
	// Retain 1: every upload but the last was unlinked after its response.
	require.Equal(t, o.count[kCreate]-1, o.count[kUnlink])
}

// TestImgServerSizes checks ImgServer-F and -U sizes: within [100 KiB, 1 MiB] and with a
// mean of (100 KiB + 1 MiB)/2 = 562 KiB (nine evenly spaced sizes, uniform choice) within
// 4 σ; fetches read whole files with buffered reads of at most 128 KiB.
func TestImgServerSizes(t *testing.T) {
	o := newFakeOS()
	o.lat[kRead] = 5 * sim.Microsecond
	o.lat[kWrite] = 5 * sim.Microsecond
	spec := oneClient(DefaultSpec())
	spec.ImgServerF.Dirs = 20 // a smaller album set keeps set-up short; sizes are per album
	r := runOne(t, o, spec, 100*sim.Millisecond, ImgServerF, ImgServerU)
	// σ of one size: nine sizes 115.5 KiB apart → 115.5·√((9²−1)/12) ≈ 298 KiB.
	const mean, sigma1 = 562 * 1024.0, 300 * 1024.0
	for _, app := range []string{ImgServerF, ImgServerU} {
		res := r.Result(app)
		n := float64(res.Requests)
		require.Greater(t, n, 100.0, app)
		require.InDelta(t, mean, float64(res.Bytes)/n, 4*sigma1/math.Sqrt(n), app)
	}
	// One client: fetches are serial, so the reads run 0, 128 KiB, … up to the size of one
	// file before the next fetch starts again at 0.
	cur, next := "", int64(0)
	done := func() {
		if cur != "" {
			f := o.files[cur]
			require.Equal(t, f.size, next, "%s read to %d of %d", cur, next, f.size)
			require.GreaterOrEqual(t, f.size, int64(100*KiB))
			require.LessOrEqual(t, f.size, int64(MiB))
		}
	}
	for _, op := range o.ops(kRead) {
		require.LessOrEqual(t, op.n, int64(128*KiB))
		if op.off == 0 {
			done()
			cur = op.file
		} else {
			require.Equal(t, cur, op.file)
			require.Equal(t, next, op.off)
		}
		next = op.off + op.n
	}
	done()
}
