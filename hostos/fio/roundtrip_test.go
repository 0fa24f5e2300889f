package fio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// The readers below follow what fio's users' tools read, from their documented behaviour
// (not their code): fio-plot's JSON mapping (louwrentius/fio-plot, fiolib: every job's
// "job options" merged with "global options" must give iodepth, numjobs, bs and rw; the
// direction's bw, iops, iops_stddev, lat_ns.mean and lat_ns.stddev; the job's latency_ms,
// latency_us, latency_ns, usr_cpu and sys_cpu), fio's tools/fio_jsonplus_clat2csv (every
// job's read, write and trim clat_ns — or lat_ns — has "bins" whose keys are integer
// latencies in ns, the running total of whose counts gives each latency's percentile) and
// fio's log format (HOWTO, "Log File Formats").

// fioPlotRow reads one job as fio-plot does; a missing or mistyped key is an error.
func fioPlotRow(doc map[string]any, job map[string]any, mode string) (map[string]float64, error) {
	opts := map[string]any{}
	if g, ok := doc["global options"].(map[string]any); ok {
		for k, v := range g {
			opts[k] = v
		}
	}
	jo, ok := job["job options"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("no job options")
	}
	for k, v := range jo {
		opts[k] = v
	}
	row := map[string]float64{}
	for _, k := range []string{"iodepth", "numjobs"} {
		s, ok := opts[k].(string)
		if !ok {
			return nil, fmt.Errorf("job options: no %s", k)
		}
		n, err := strconv.Atoi(s) // fio-plot: int(...)
		if err != nil {
			return nil, fmt.Errorf("%s %q: %v", k, s, err)
		}
		row[k] = float64(n)
	}
	for _, k := range []string{"bs", "rw"} {
		if _, ok := opts[k].(string); !ok {
			return nil, fmt.Errorf("job options: no %s", k)
		}
	}
	d, ok := job[mode].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("no %s", mode)
	}
	lat, ok := d["lat_ns"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("no %s.lat_ns", mode)
	}
	for _, kv := range []struct {
		name string
		v    any
	}{{"bw", d["bw"]}, {"iops", d["iops"]}, {"iops_stddev", d["iops_stddev"]}, {"lat", lat["mean"]},
		{"lat_stddev", lat["stddev"]}, {"cpu_usr", job["usr_cpu"]}, {"cpu_sys", job["sys_cpu"]}} {
		f, ok := kv.v.(float64)
		if !ok {
			return nil, fmt.Errorf("%s is %T", kv.name, kv.v)
		}
		row[kv.name] = f
	}
	for _, k := range []string{"latency_ms", "latency_us", "latency_ns"} {
		if _, ok := job[k].(map[string]any); !ok {
			return nil, fmt.Errorf("no %s", k)
		}
	}
	return row, nil
}

// jsonPlusRows reads every job's bins as fio_jsonplus_clat2csv does and returns, per job
// and direction, the bins' (latency, count, cumulative) rows in latency order.
func jsonPlusRows(doc map[string]any) ([]map[string][][3]float64, error) {
	jobs, ok := doc["jobs"].([]any)
	if !ok {
		return nil, fmt.Errorf("no jobs")
	}
	var out []map[string][][3]float64
	for i, j := range jobs {
		job := j.(map[string]any)
		rows := map[string][][3]float64{}
		for _, ddir := range []string{"read", "write", "trim"} {
			d := job[ddir].(map[string]any)
			var bins map[string]any
			if c, ok := d["clat_ns"].(map[string]any)["bins"]; ok {
				bins = c.(map[string]any)
			} else if l, ok := d["lat_ns"].(map[string]any)["bins"]; ok {
				bins = l.(map[string]any)
			} else {
				return nil, fmt.Errorf("job %d %s: latency bins not found (json+?)", i, ddir)
			}
			var r [][3]float64
			for k, v := range bins {
				lat, err := strconv.Atoi(k)
				if err != nil {
					return nil, fmt.Errorf("bin key %q: %v", k, err)
				}
				r = append(r, [3]float64{float64(lat), v.(float64), 0})
			}
			sort.Slice(r, func(a, b int) bool { return r[a][0] < r[b][0] })
			for k := range r {
				r[k][2] = r[k][1]
				if k > 0 {
					r[k][2] += r[k-1][2]
				}
			}
			rows[ddir] = r
		}
		out = append(out, rows)
	}
	return out, nil
}

// parseLogLine reads a fio log line: time, value, direction, block size, [offset,] priority.
func parseLogLine(l string, withOffset bool) ([]int64, error) {
	f := strings.Split(l, ", ")
	want := 5
	if withOffset {
		want = 6
	}
	if len(f) != want {
		return nil, fmt.Errorf("%q: %d columns, want %d", l, len(f), want)
	}
	v := make([]int64, len(f))
	for i, s := range f {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q: column %d: %v", l, i+1, err)
		}
		v[i] = n
	}
	if v[2] < 0 || v[2] > 2 {
		return nil, fmt.Errorf("%q: direction %d", l, v[2])
	}
	return v, nil
}

// TestOutputsRoundTrip: a job file with fio's usual reporting options runs on a fake
// machine (reads 50 µs, writes 100 µs); its JSON loads in fio-plot's mapping, its json+ in
// fio_jsonplus_clat2csv's reading (the bins add up to clat_ns.N: 1:1 with the I/Os), and its
// logs parse as fio's. With 0.3 s of 4 KiB randrw at rwmixread 70 on a sync engine the
// copy does one I/O at a time, ≈ 0.7·50 + 0.3·100 = 65 µs each.
func TestOutputsRoundTrip(t *testing.T) {
	us := sim.Microsecond
	m := newFakeMachine([3]sim.Time{50 * us, 100 * us, 0})
	jobs, res := runMachine(t, m, "[global]\nrw=randrw\nrwmixread=70\nbs=4k\nsize=16m\nruntime=300ms\ntime_based\n"+
		"numjobs=2\niodepth=4\nioengine=psync\n[mixed]\nwrite_lat_log=m\nwrite_bw_log=m\nwrite_iops_log\nlog_offset=1\n"+
		"[avg]\nwrite_lat_log=a\nlog_avg_msec=100\n")
	for _, plus := range []bool{false, true} {
		rep := Report(jobs, res, "fastdrain test")
		if plus {
			rep = ReportPlus(jobs, res, "fastdrain test")
		}
		var b bytes.Buffer
		require.NoError(t, rep.WriteJSON(&b))
		var doc map[string]any
		require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
		js := doc["jobs"].([]any)
		require.Len(t, js, 4, "two jobs of two copies each")
		for _, j := range js {
			for _, mode := range []string{"read", "write"} {
				row, err := fioPlotRow(doc, j.(map[string]any), mode)
				require.NoError(t, err)
				require.Equal(t, float64(4), row["iodepth"])
				require.Equal(t, float64(2), row["numjobs"])
				require.Positive(t, row["iops"])
			}
		}
		rows, err := jsonPlusRows(doc)
		if !plus {
			require.ErrorContains(t, err, "latency bins not found")
			continue
		}
		require.NoError(t, err)
		for i, r := range rows {
			for _, ddir := range []string{"read", "write"} {
				n := js[i].(map[string]any)[ddir].(map[string]any)["clat_ns"].(map[string]any)["N"].(float64)
				last := r[ddir][len(r[ddir])-1]
				require.Equal(t, n, last[2], "job %d %s: the bins hold every I/O", i, ddir)
				// Every read took 50 µs: one bin, at 50,000's midpoint: 50,000 lies in
				// [32768, 65536), bins of 512 ns; bin 33 = [49664, 50175], midpoint 49920.
				if ddir == "read" {
					require.Equal(t, [3]float64{49920, n, n}, last)
				}
			}
			require.Empty(t, r["trim"])
		}
	}
	dir := t.TempDir()
	require.NoError(t, WriteLogs(dir, jobs, res))
	names := LogFiles(jobs)
	require.Equal(t, []string{"m_lat.1.log", "m_clat.1.log", "m_slat.1.log", "m_bw.1.log", "mixed_iops.1.log",
		"m_lat.2.log", "m_clat.2.log", "m_slat.2.log", "m_bw.2.log", "mixed_iops.2.log",
		"a_lat.3.log", "a_clat.3.log", "a_slat.3.log", "a_lat.4.log", "a_clat.4.log", "a_slat.4.log"}, names)
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		require.NoError(t, err)
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		if strings.Contains(n, "_slat") {
			require.Equal(t, "", string(data), "the model does not split submission from completion")
			continue
		}
		var prev int64
		for _, l := range lines {
			v, err := parseLogLine(l, strings.HasPrefix(n, "m_") || strings.HasPrefix(n, "mixed"))
			require.NoError(t, err, n)
			require.GreaterOrEqual(t, v[0], prev, "%s: times in order", n)
			prev = v[0]
			switch {
			case strings.HasPrefix(n, "a_"):
				// log_avg_msec=100: one row per direction and window, at the window's end
				// (100, 200, 300 ms), block size 0; the mean latency is 50 µs or 100 µs.
				require.Zero(t, v[0]%100, l)
				require.Zero(t, v[3], l)
				require.Equal(t, map[int64]int64{0: 50000, 1: 100000}[v[2]], v[1], l)
			case strings.Contains(n, "_iops"):
				require.Equal(t, int64(1), v[1], "per-I/O IOPS logs hold 1 (fio HOWTO)")
			case strings.Contains(n, "_bw"):
				// 4096 B in 50 µs = 81,920,000 B/s = 80,000 KiB/s per read; in 100 µs, 40,000.
				require.Equal(t, map[int64]int64{0: 80000, 1: 40000}[v[2]], v[1], l)
			default:
				require.Equal(t, map[int64]int64{0: 50000, 1: 100000}[v[2]], v[1], l)
				require.Equal(t, int64(4096), v[3])
			}
		}
		require.NotEmpty(t, lines, n)
	}
}
