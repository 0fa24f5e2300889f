package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// readCSV decodes a CSV document into rows keyed by the header's names.
func readCSV(t *testing.T, doc string) ([]string, []map[string]string) {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(doc)).ReadAll()
	require.NoError(t, err)
	require.NotEmpty(t, recs)
	var rows []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, k := range recs[0] {
			m[k] = r[i]
		}
		rows = append(rows, m)
	}
	return recs[0], rows
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err, s)
	return v
}

// TestFioCSV: --format csv has one row per job and direction, numbers only. The counts are
// TestFioCommand's by hand (db: 2048 IOs of 4 KiB at rwmixread 70 → 1434 reads, 614 writes;
// log: 4 MiB / 4 KiB = 1024 writes, a flush every 16 → 64), io_bytes = IOs · 4096 (flushes
// move none), iops = ios / runtime and mb_per_s = io_bytes / runtime_us (bytes per µs are
// 10⁶ B/s); the text table shows the same IOPS rounded to units and MB/s to one decimal,
// and fio.json's lat_ns.mean is mean_us · 1000. --out writes the same table as fio/fio.csv.
func TestFioCSV(t *testing.T) {
	dir := t.TempDir()
	doc, _, err := runStdout("fio", "--format", "csv", "--out", dir, "testdata/jobs.yaml")
	require.NoError(t, err)
	hdr, rows := readCSV(t, doc)
	require.Equal(t, []string{"job", "dir", "ios", "io_bytes", "runtime_us", "iops", "mb_per_s", "mean_us", "stdev_us",
		"min_us", "p50_us", "p90_us", "p99_us", "p999_us", "p9999_us", "max_us"}, hdr)
	want := []struct {
		job, dir string
		ios      int64
		bytes    int64
	}{{"db", "read", 1434, 1434 * 4096}, {"db", "write", 614, 614 * 4096}, {"log", "write", 1024, 4 << 20}, {"log", "flush", 64, 0}}
	require.Len(t, rows, len(want))
	text, err := run("fio", "testdata/jobs.yaml")
	require.NoError(t, err)
	js, _, err := runStdout("fio", "--format", "json", "testdata/jobs.yaml")
	require.NoError(t, err)
	var fj struct {
		Jobs []map[string]json.RawMessage `json:"jobs"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &fj))
	for i, w := range want {
		r := rows[i]
		require.Equal(t, w.job, r["job"])
		require.Equal(t, w.dir, r["dir"])
		require.Equal(t, strconv.FormatInt(w.ios, 10), r["ios"])
		require.Equal(t, strconv.FormatInt(w.bytes, 10), r["io_bytes"])
		rt := num(t, r["runtime_us"])
		require.Positive(t, rt)
		iops, mbps := num(t, r["iops"]), num(t, r["mb_per_s"])
		require.InDelta(t, float64(w.ios)/(rt/1e6), iops, 1e-9*iops)
		require.InDelta(t, float64(w.bytes)/rt, mbps, 1e-9*max(mbps, 1))
		row := regexp.MustCompile(fmt.Sprintf(`%s │ +%s │ +%d │ +%.0f │ +%.1f │`, w.job, w.dir, w.ios, iops, mbps))
		require.Regexp(t, row, text)
		for _, k := range []string{"min_us", "p50_us", "p90_us", "p99_us", "p999_us", "p9999_us", "max_us"} {
			require.LessOrEqual(t, num(t, r[k]), num(t, r["max_us"]), k)
			require.GreaterOrEqual(t, num(t, r[k]), num(t, r["min_us"]), k)
		}
		if w.dir == "flush" {
			continue
		}
		var d struct {
			LatNs struct {
				Mean float64 `json:"mean"`
			} `json:"lat_ns"`
		}
		job := map[string]int{"db": 0, "log": 1}[w.job]
		require.NoError(t, json.Unmarshal(fj.Jobs[job][w.dir], &d))
		require.InDelta(t, d.LatNs.Mean, num(t, r["mean_us"])*1000, 1e-6*d.LatNs.Mean)
	}
	saved, err := os.ReadFile(filepath.Join(dir, "fio", "jobs-fastdrain-small", "fio.csv"))
	require.NoError(t, err)
	require.Equal(t, doc, string(saved))

	// --percentiles names the columns (99.9 → p999_us), sorted.
	doc, _, err = runStdout("fio", "--format", "csv", "--percentiles", "99.9,50", "testdata/jobs.yaml")
	require.NoError(t, err)
	hdr, _ = readCSV(t, doc)
	require.Equal(t, []string{"mean_us", "stdev_us", "min_us", "p50_us", "p999_us", "max_us"}, hdr[7:])

	_, err = run("fio", "--output-format", "terse", "testdata/jobs.yaml")
	require.ErrorContains(t, err, `--output-format "terse": fio's terse (semicolon) format is not written`)
}

// TestFioTimeline: --timeline on fio writes the trace-event JSON with the resources' tracks
// and an NVMe command slice for each I/O inside the window; a bad window is an error
// naming the flag.
func TestFioTimeline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tl.json")
	_, err := run("fio", "--timeline", path, "--timeline-window", "0s:1ms", "testdata/jobs.yaml")
	require.NoError(t, err)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var doc struct {
		TraceEvents []struct {
			Ph   string `json:"ph"`
			Cat  string `json:"cat"`
			Name string `json:"name"`
			Ts   float64
		} `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(b, &doc))
	cmds, counters := 0, 0
	for _, e := range doc.TraceEvents {
		if e.Cat == "nvme" {
			cmds++
		}
		if e.Ph == "C" {
			counters++
		}
	}
	require.Positive(t, cmds, "NVMe command slices")
	require.Positive(t, counters, "sampled counter tracks")
	_, err = run("fio", "--timeline", path, "--timeline-window", "2ms", "testdata/jobs.yaml")
	require.ErrorContains(t, err, "--timeline-window")
}
