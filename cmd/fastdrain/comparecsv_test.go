package main

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// textTables splits compare's text output into its tables by title: each a header and rows
// of trimmed cells (the box-drawing table of report.Table.WriteText).
func textTables(out string) map[string][][]string {
	tabs := map[string][][]string{}
	var title string
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "│"):
			var cells []string
			for _, c := range strings.Split(strings.Trim(line, "│"), "│") {
				cells = append(cells, strings.TrimSpace(c))
			}
			tabs[title] = append(tabs[title], cells)
		case line != "" && !strings.HasPrefix(line, "┌") && !strings.HasPrefix(line, "├") && !strings.HasPrefix(line, "└"):
			title = line
		}
	}
	return tabs
}

// textValue reads a text-table cell as the CSV's unit: a report.Duration ("3.955ms",
// "572.5us", "13.75ns") in µs, or a plain number. tol is half a unit of its last digit.
func textValue(t *testing.T, s string) (v, tol float64) {
	scale := 1.0
	for _, u := range []struct {
		suffix string
		us     float64
	}{{"ms", 1e3}, {"us", 1}, {"ns", 1e-3}, {"ps", 1e-6}, {"s", 1e6}} {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			s, scale = n, u.us
			break
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err, s)
	dec := 0
	if _, frac, ok := strings.Cut(s, "."); ok {
		dec = len(frac)
	}
	return v * scale, 0.5 * math.Pow(10, -float64(dec)) * scale
}

// TestCompareCSVsAreNumbers: p99.csv, mean.csv, corunner.csv and energy.csv hold numbers
// with the unit in the column names, and each equals the text table's cell to the text's
// precision (four significant digits for times, two or one decimals for the rest).
func TestCompareCSVsAreNumbers(t *testing.T) {
	dir := t.TempDir()
	out, err := run("compare", "--duration", "100ms", "--scenarios", "apache-u+ungzip", "--variants", "vanilla,fd", "--out", dir)
	require.NoError(t, err)
	tabs := textTables(out)
	for _, c := range []struct {
		file, title string
		header      []string
		key         int // the columns before the numbers: app (and scenario in p99.csv)
		textCol     func(csvCol int) int
	}{
		{"p99.csv", "p99 response time per variant (each app co-located with ungzip)",
			[]string{"app", "scenario", "vanilla_p99_us", "fd_p99_us", "fd_p99_norm"}, 2, func(c int) int { return c - 1 }},
		{"mean.csv", "mean response time and p99/mean per variant",
			[]string{"app", "vanilla_mean_us", "vanilla_p99_per_mean", "fd_mean_us", "fd_p99_per_mean"}, 1, func(c int) int { return c }},
		{"corunner.csv", "co-runner (ungzip) write throughput per variant, MB/s",
			[]string{"scenario", "vanilla_corunner_mb_per_s", "fd_corunner_mb_per_s"}, 1, func(c int) int { return c }},
		{"energy.csv", "SSD average power, peak power and energy per GB written per variant",
			[]string{"scenario", "vanilla_ssd_avg_w", "vanilla_ssd_peak_w", "vanilla_ssd_j_per_gb_written", "fd_ssd_avg_w",
				"fd_ssd_peak_w", "fd_ssd_j_per_gb_written"}, 1, func(c int) int { return c }},
	} {
		f, err := os.Open(filepath.Join(dir, "compare", "fastdrain-tlc-100ms", c.file))
		require.NoError(t, err)
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		require.NoError(t, err, c.file)
		require.Equal(t, c.header, rows[0], c.file)
		text := tabs[c.title]
		require.Len(t, text, 2, "%s: header and one row", c.title)
		require.Len(t, rows, 2, c.file)
		require.Equal(t, text[1][0], rows[1][0], c.file)
		for col := c.key; col < len(rows[1]); col++ {
			got, err := strconv.ParseFloat(rows[1][col], 64)
			require.NoError(t, err, "%s %s", c.file, rows[0][col])
			want, tol := textValue(t, text[1][c.textCol(col)])
			require.InDelta(t, want, got, tol, "%s %s: text %q", c.file, rows[0][col], text[1][c.textCol(col)])
		}
	}
	// engagement.csv: a row per app and variant, each count the one in that run's stats.csv.
	b, err := os.ReadFile(filepath.Join(dir, "compare", "fastdrain-tlc-100ms", "engagement.csv"))
	require.NoError(t, err)
	head, eng := readCSV(t, string(b))
	require.Len(t, eng, 2)
	for i, v := range []string{"vanilla", "fd"} {
		require.Equal(t, "apache-u", eng[i]["app"])
		require.Equal(t, v, eng[i]["variant"])
		sb, err := os.ReadFile(filepath.Join(dir, "compare", "fastdrain-tlc-100ms", "apache-u+ungzip", v, "stats.csv"))
		require.NoError(t, err)
		_, st := readCSV(t, string(sb))
		stats := map[string]string{}
		for _, row := range st {
			stats[row["statistic"]] = row["value"]
		}
		for _, name := range head[2:] {
			want, ok := stats[name]
			require.True(t, ok, name)
			require.Equal(t, want, eng[i][name], "%s %s", v, name)
		}
	}
	require.Len(t, tabs["engagement of the mechanisms per variant (shares of the measured run)"], 3)
}
