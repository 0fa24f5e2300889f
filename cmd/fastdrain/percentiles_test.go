package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPercentilesFlagErrors: every command that reports latency refuses a bad list before
// simulating, naming the flag and the entry.
func TestPercentilesFlagErrors(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "two.csv")
	require.NoError(t, os.WriteFile(trace, []byte(twoDiskTrace), 0o644))
	for _, args := range [][]string{
		{"run", "--duration", "10ms"},
		{"compare", "--duration", "10ms", "--no-files"},
		{"replay", trace},
		{"fio", "testdata/jobs.fio"},
		{"flashbench", "--ops", "10"},
	} {
		_, err := run(append(args, "--percentiles", "50,100")...)
		require.ErrorContains(t, err, `--percentiles "50,100": "100" is not a percentile strictly between 0 and 100`, args[0])
		_, err = run(append(args, "--percentiles", "50,x")...)
		require.ErrorContains(t, err, `--percentiles "50,x": "x" is not a number`, args[0])
	}
}

// TestPercentilesFlagFlashbench: the list, given unsorted, becomes the columns of the text
// table, the CSV (µs) and the JSON (ps), in ascending order, and the three agree.
func TestPercentilesFlagFlashbench(t *testing.T) {
	args := []string{"flashbench", "--channels", "1", "--ways", "1", "--ops", "200", "--percentiles", "99.9,50,99,99.999"}
	out, _, err := runStdout(append(args, "--format", "csv")...)
	require.NoError(t, err)
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"op", "count", "pages", "mean_us", "stdev_us", "min_us", "p50_us", "p99_us", "p999_us", "p99999_us", "max_us"}, rows[0])
	js, _, err := runStdout(append(args, "--format", "json")...)
	require.NoError(t, err)
	var doc struct {
		Ops map[string]map[string]float64 `json:"ops"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	read := doc.Ops["read"]
	require.Len(t, read, 8, "count, pages, mean, four percentiles, max")
	for i, k := range []string{"p50", "p99", "p999", "p99999"} {
		us, err := strconv.ParseFloat(rows[1][6+i], 64)
		require.NoError(t, err)
		require.Equal(t, "read", rows[1][0])
		require.InDelta(t, read[k+"_ps"]/1e6, us, 1e-9, k)
	}
	txt, err := run(args...)
	require.NoError(t, err)
	require.Regexp(t, `│ +op +│ +count +│ +pages +│ +mean +│ +p50 +│ +p99 +│ +p99\.9 +│ +p99\.999 +│ +max +│`, txt)
}

// TestPercentilesFlagFio: --percentiles replaces the jobs' percentile_list in fio's JSON
// (keys as fio writes them, "%f") and the text table's columns.
func TestPercentilesFlagFio(t *testing.T) {
	js, _, err := runStdout("fio", "testdata/jobs.yaml", "--percentiles", "99.9,50", "--format", "json")
	require.NoError(t, err)
	var doc struct {
		Jobs []struct {
			Read struct {
				Clat struct {
					Percentile map[string]float64 `json:"percentile"`
				} `json:"clat_ns"`
			} `json:"read"`
		} `json:"jobs"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	p := doc.Jobs[0].Read.Clat.Percentile
	require.Len(t, p, 2)
	require.Contains(t, p, "50.000000")
	require.Contains(t, p, "99.900000")
	require.Less(t, strings.Index(js, `"50.000000"`), strings.Index(js, `"99.900000"`), "ascending")
	txt, err := run("fio", "testdata/jobs.yaml", "--percentiles", "99.9,50")
	require.NoError(t, err)
	require.Regexp(t, `│ +mean +│ +p50 +│ +p99\.9 +│ +max +│`, txt)
}

// TestPercentilesFlagRun: run's apps table, apps.csv and result.json take the list.
func TestPercentilesFlagRun(t *testing.T) {
	dir := t.TempDir()
	out, _, err := runStdout("run", "--scenario", "apache-u", "--duration", "100ms", "--out", dir, "--format", "csv",
		"--percentiles", "50,99.999")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(out, "app,requests,req_per_s,mb_per_s,mean_us,stdev_us,min_us,p50_us,p99999_us,max_us\n"), out)
	b, err := os.ReadFile(filepath.Join(dir, "run", "fastdrain-tlc-custom-apache-u-100ms", "result.json"))
	require.NoError(t, err)
	var doc struct {
		Apps []map[string]any `json:"apps"`
	}
	require.NoError(t, json.Unmarshal(b, &doc))
	require.Contains(t, doc.Apps[0], "p99999_ps")
	require.NotContains(t, doc.Apps[0], "p99_ps")
	apps, err := os.ReadFile(filepath.Join(dir, "run", "fastdrain-tlc-custom-apache-u-100ms", "apps.csv"))
	require.NoError(t, err)
	require.Equal(t, out, string(apps))
}
