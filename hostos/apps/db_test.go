package apps

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestDBSelectIssuesRandomDirectPageReads checks DB-S's mix: every request is exactly one
// 16 KiB O_DIRECT read, aligned to 16 KiB, uniform over the 2 GiB table, and nothing else
// touches the storage stack.
func TestDBSelectIssuesRandomDirectPageReads(t *testing.T) {
	o := newFakeOS()
	o.lat[kReadDirect] = 20 * sim.Microsecond
	r := runOne(t, o, oneClient(DefaultSpec()), 200*sim.Millisecond, DBS)
	res := r.Result(DBS)
	// 50 µs CPU + 20 µs read = 70 µs a request; 200 ms / 70 µs = 2857.1 → 2858 starts.
	require.EqualValues(t, 2858, res.Requests)
	require.EqualValues(t, res.Requests, o.count[kReadDirect])
	for _, k := range []opKind{kRead, kWrite, kFsync, kWriteDirect, kUnlink} {
		require.Zero(t, o.count[k], k.String())
	}
	reads := o.ops(kReadDirect)
	var sum float64
	quart := [4]int{}
	for _, op := range reads {
		require.EqualValues(t, 16*KiB, op.n)
		require.Zero(t, op.off%(16*1024))
		require.Less(t, op.off, int64(2*GiB))
		require.Equal(t, "db-s/table.ibd", op.file)
		sum += float64(op.off)
		quart[op.off/(512<<20)]++
	}
	// Uniform over [0, 2 GiB − 16 KiB]: mean ≈ 1 GiB; σ of the mean = 2 GiB/√12/√2858 ≈
	// 0.54 % of 2 GiB, so 3 % of 1 GiB is > 2.5 σ.
	require.InEpsilon(t, float64(1<<30), sum/float64(len(reads)), 0.03)
	for q, n := range quart { // each quarter ≈ 714.5 ± 3σ (σ ≈ 23)
		require.InDelta(t, 714.5, float64(n), 70, "quarter %d", q)
	}
	// Each response is exactly 70 µs: hand sum of the fake latencies and the CPU time.
	require.EqualValues(t, 70*sim.Microsecond, res.Latency.Min())
	require.EqualValues(t, 70*sim.Microsecond, res.Latency.Max())
}

// TestDBUpdateMix checks DB-U's request: page read, CPU, redo append of 512 B at the log
// tail, fsync of the log, page written back where it was read — in that (write-ahead)
// order — and that the response time is the hand sum of those steps.
func TestDBUpdateMix(t *testing.T) {
	o := newFakeOS()
	o.lat[kReadDirect] = 100 * sim.Microsecond
	o.lat[kWrite] = 5 * sim.Microsecond
	o.lat[kFsync] = 200 * sim.Microsecond
	o.lat[kWriteDirect] = 30 * sim.Microsecond
	spec := oneClient(DefaultSpec())
	spec.DBU.LogFileSize = 1 * KiB // two 512 B records, then the log wraps
	r := runOne(t, o, spec, 10*sim.Millisecond, DBU)
	res := r.Result(DBU)
	// 100 (read) + 100 (CPU) + 5 (log write) + 200 (fsync) + 30 (page write) = 435 µs;
	// starts at 0, 435, …, 22·435 = 9570 µs < 10 ms ≤ 23·435: 23 requests.
	require.EqualValues(t, 23, res.Requests)
	require.EqualValues(t, 435*sim.Microsecond, res.Latency.Min())
	require.EqualValues(t, 435*sim.Microsecond, res.Latency.Max())
	require.EqualValues(t, 23*(16*1024+512+16*1024), res.Bytes)

	// Set-up: the table and the log are created; then per request the same four calls.
	require.Equal(t, []opKind{kCreate, kCreate}, []opKind{o.log[0].kind, o.log[1].kind})
	seq := o.log[2:]
	require.Len(t, seq, 4*23)
	for i := 0; i < len(seq); i += 4 {
		rd, w, fs, wd := seq[i], seq[i+1], seq[i+2], seq[i+3]
		require.Equal(t, []opKind{kReadDirect, kWrite, kFsync, kWriteDirect}, []opKind{rd.kind, w.kind, fs.kind, wd.kind})
		require.Equal(t, "db-u/table.ibd", rd.file)
		require.EqualValues(t, 16*KiB, rd.n)
		require.Equal(t, "db-u/ib_logfile", w.file)
		require.Equal(t, "db-u/ib_logfile", fs.file)
		require.EqualValues(t, 512, w.n)
		require.EqualValues(t, (i/4)%2*512, w.off, "log tail wraps every 2 records")
		require.Equal(t, rd.off, wd.off, "the page read is the page written")
		require.EqualValues(t, 16*KiB, wd.n)
	}
	require.EqualValues(t, 23, o.count[kCompute])
	require.EqualValues(t, 23*100*sim.Microsecond, o.cpu)
}

// TestDBReadsPerOp checks that a select with 3 page reads issues 3 reads per request.
func TestDBReadsPerOp(t *testing.T) {
	o := newFakeOS()
	o.lat[kReadDirect] = 10 * sim.Microsecond
	spec := oneClient(DefaultSpec())
	spec.DBS.ReadsPerOp = 3
	spec.DBS.CPUPerOp = 0
	r := runOne(t, o, spec, 1*sim.Millisecond, DBS)
	// 3 × 10 µs = 30 µs a request: starts at 0, 30, …, 990 µs → 34 requests.
	require.EqualValues(t, 34, r.Result(DBS).Requests)
	require.EqualValues(t, 3*34, o.count[kReadDirect])
}
