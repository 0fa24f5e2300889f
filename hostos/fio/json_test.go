package fio

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestReportJSON: bs=4k, io_size=4m ⇒ 4194304/4096 = 1024 sequential writes, each 10 µs at
// iodepth 1 (psync), so the job takes 1024 × 10 µs = 10.24 ms:
// io_bytes 4194304, io_kbytes 4096, runtime round(10.24) = 10 ms, bw_bytes 4194304 B /
// 0.01024 s = 409600000, bw 409600000/1024 = 400000 KiB/s, iops 1024/0.01024 = 100000;
// every latency is 10 µs = 10000 ns: min = max = mean = 10000, stddev 0. fio reports
// percentiles as the midpoint of their latency bin: 10000 lies in [8192, 16384), whose 64
// bins are 128 ns wide; bin 14 is [9984, 10111], midpoint 8192 + 14·128 + 64 = 10048.
// No reads: read.total_ios 0 and runtime 0, as fio writes for an idle direction.
func TestReportJSON(t *testing.T) {
	jobs, err := decodeINIString("[w]\nrw=write\nbs=4k\nio_size=4m\n")
	require.NoError(t, err)
	us := sim.Microsecond
	res, err := runJobs(t, &fakeDev{lat: [3]sim.Time{0, 10 * us, 0}}, jobs)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, Report(jobs, res, "fastdrain-test").WriteJSON(&buf))

	// Decode generically, as a fio-JSON parser would, and check keys and types.
	var doc map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))
	require.Equal(t, "fastdrain-test", doc["fio version"])
	js := doc["jobs"].([]any)
	require.Len(t, js, 1)
	j := js[0].(map[string]any)
	require.Equal(t, "w", j["jobname"])
	require.Equal(t, "write", j["job options"].(map[string]any)["rw"])
	w := j["write"].(map[string]any)
	for k, want := range map[string]float64{"io_bytes": 4194304, "io_kbytes": 4096, "runtime": 10,
		"bw_bytes": 409600000, "bw": 400000, "iops": 100000, "total_ios": 1024} {
		require.InDelta(t, want, w[k].(float64), 1e-6, k)
	}
	clat := w["clat_ns"].(map[string]any)
	for k, want := range map[string]float64{"min": 10000, "max": 10000, "mean": 10000, "stddev": 0, "N": 1024} {
		require.InDelta(t, want, clat[k].(float64), 1e-6, k)
	}
	pct := clat["percentile"].(map[string]any)
	require.Len(t, pct, 17)
	for _, k := range []string{"1.000000", "50.000000", "99.000000", "99.900000", "99.950000", "99.990000"} {
		require.InDelta(t, 10048, pct[k].(float64), 1e-6, k)
	}
	for _, k := range []string{"slat_ns", "lat_ns"} {
		require.Contains(t, w, k)
	}
	require.InDelta(t, 10000, w["lat_ns"].(map[string]any)["mean"].(float64), 1e-6)
	require.InDelta(t, 0, j["read"].(map[string]any)["total_ios"].(float64), 0)
	require.Contains(t, j, "trim")
	// Percentile keys appear in fio's numeric order, not sorted as strings.
	require.Less(t, strings.Index(buf.String(), `"5.000000"`), strings.Index(buf.String(), `"10.000000"`))
}

// TestReportGroupReporting: two jobs of 100 reads each at 5 µs and 15 µs, merged: N 200,
// mean (100·5000 + 100·15000)/200 = 10000 ns, population stddev 5000 ns (each sample is
// 5000 from the mean); percentile_list 50 gives one key.
func TestReportGroupReporting(t *testing.T) {
	jobs, err := decodeINIString("[global]\ngroup_reporting\npercentile_list=50\nio_size=400k\n[a]\n[b]\n")
	require.NoError(t, err)
	us := sim.Microsecond
	res := make([]JobResult, 2)
	for i, lat := range []sim.Time{5 * us, 15 * us} {
		r, err := runJobs(t, &fakeDev{lat: [3]sim.Time{lat, 0, 0}}, jobs[i:i+1])
		require.NoError(t, err)
		res[i] = r[0]
	}
	rep := Report(jobs, res, "v")
	require.Len(t, rep.Jobs, 1)
	c := rep.Jobs[0].Read.ClatNs
	require.Equal(t, "a", rep.Jobs[0].JobName)
	require.Equal(t, uint64(200), c.N)
	require.InDelta(t, 10000, c.Mean, 1e-6)
	require.InDelta(t, 5000, c.Stddev, 1e-3)
	require.Equal(t, []float64{50}, c.Percentile.P)
}

// TestWriteLatLog: fio 3.x's log columns without log_offset (ms, ns, direction, bs,
// command priority): a 4 KiB write done at 10 µs (ms 0) after 10 µs = 10000 ns, a flush
// (not logged), a write at offset 4096 done at 1.5 ms (ms 1); priority is always 0.
func TestWriteLatLog(t *testing.T) {
	us := sim.Microsecond
	r := JobResult{Log: []LatRecord{{At: 10 * us, Lat: 10 * us, Op: 1, Size: 4096},
		{At: 15 * us, Lat: 5 * us, Op: 2}, {At: 1500 * us, Lat: 10 * us, Op: 1, Size: 4096, Offset: 4096}}}
	var b bytes.Buffer
	require.NoError(t, WriteLatLog(&b, &r))
	require.Equal(t, "0, 10000, 1, 4096, 0\n1, 10000, 1, 4096, 0\n", b.String())
}

// TestReportCopies: numjobs=2 with io_size=40k is two copies of 40960/4096 = 10 reads each.
// fio lists each copy as a job of the same name: two entries of 10; the job's merged result
// holds 20; group_reporting makes one entry of 20.
func TestReportCopies(t *testing.T) {
	jobs, err := decodeINIString("[a]\nnumjobs=2\nio_size=40k\n")
	require.NoError(t, err)
	res, err := runJobs(t, &fakeDev{lat: [3]sim.Time{sim.Microsecond, 0, 0}}, jobs)
	require.NoError(t, err)
	require.Equal(t, int64(20), res[0].Read.IOs)
	rep := Report(jobs, res, "v")
	require.Len(t, rep.Jobs, 2)
	for _, j := range rep.Jobs {
		require.Equal(t, "a", j.JobName)
		require.Equal(t, int64(10), j.Read.TotalIOs)
	}
	jobs[0].GroupReporting = true
	rep = Report(jobs, res, "v")
	require.Len(t, rep.Jobs, 1)
	require.Equal(t, int64(20), rep.Jobs[0].Read.TotalIOs)
}
