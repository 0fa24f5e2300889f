package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// uflipDocJSON is uflip.json as a reader decodes it.
type uflipDocJSON struct {
	Format        string `json:"format"`
	CapacityBytes int64  `json:"capacity_bytes"`
	IOSizeBytes   int64  `json:"io_size_bytes"`
	NbRun         int64  `json:"nb_run"`
	Auto          *struct {
		RelErrFrac float64 `json:"rel_err_frac"`
		MinIOs     int64   `json:"min_ios"`
		CapIOs     int64   `json:"cap_ios"`
	} `json:"auto"`
	Devices []struct {
		Name      string `json:"name"`
		Simulated bool   `json:"simulated"`
		Runs      []struct {
			Label     string   `json:"label"`
			Bench     string   `json:"bench"`
			Point     int      `json:"point"`
			Rep       int      `json:"rep"`
			StartUs   float64  `json:"start_us"`
			EndUs     float64  `json:"end_us"`
			IOs       int64    `json:"ios"`
			Counted   int64    `json:"counted"`
			IOIgnore  int64    `json:"io_ignore"`
			IOCount   int64    `json:"io_count"`
			MeanUs    float64  `json:"mean_us"`
			StdevUs   float64  `json:"stdev_us"`
			MinUs     float64  `json:"min_us"`
			MaxUs     float64  `json:"max_us"`
			Auto      bool     `json:"auto"`
			Precision *float64 `json:"precision_frac"`
			Converged *bool    `json:"converged"`
		} `json:"runs"`
		Firmware *struct {
			PagesWritten int64 `json:"pages_written"`
		} `json:"firmware"`
		Findings []struct {
			ID        string             `json:"id"`
			Verdict   string             `json:"verdict"`
			Held      bool               `json:"held"`
			Evaluated bool               `json:"evaluated"`
			Values    map[string]float64 `json:"values"`
			Evidence  string             `json:"evidence"`
			Mechanism string             `json:"mechanism"`
		} `json:"findings"`
	} `json:"devices"`
	Calibration []map[string]any `json:"calibration"`
}

// TestUflipFormats: --format json and csv hold the runs of the text table as numbers. With
// --io-divisor 64 uFLIP's IOCounts (SR 128, RR 256, SW 1024, RW 5116; docs/sources.md §12) become 2, 4,
// 16 and 79 (5116/64 = 79.9, rounded down) and RW's IOIgnore 50/64 = 0, so every run of
// the granularity benchmark (11 IO sizes 512 B … 512 KiB × 4 bases = 44 runs, one stream)
// issues and counts io_count IOs. The JSON's means are runs.csv's picoseconds / 10⁶, the
// text table shows the same mean (report.Duration) and IO count, and the CSV is the JSON
// row for row. --out writes both documents. A bad --format names the flag.
func TestUflipFormats(t *testing.T) {
	dir := t.TempDir()
	args := []string{"uflip", "--bench", "granularity", "--io-divisor", "64", "--nbrun", "1", "--format-device", "none", "--out", dir}
	js, _, err := runStdout(append(args, "--format", "json")...)
	require.NoError(t, err)
	var doc uflipDocJSON
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	require.Equal(t, "fastdrain-uflip/1", doc.Format)
	require.Equal(t, int64(32768), doc.IOSizeBytes)
	require.Equal(t, int64(1), doc.NbRun)
	require.Equal(t, int64(1<<30), doc.CapacityBytes, "--span's default 1GiB")
	require.Nil(t, doc.Auto)
	require.Len(t, doc.Devices, 1)
	d := doc.Devices[0]
	require.Equal(t, "fastdrain-small", d.Name)
	require.True(t, d.Simulated)
	require.NotNil(t, d.Firmware)
	require.Nil(t, d.Findings, "no --findings")
	require.Len(t, d.Runs, 44)
	counts := map[string]int64{"SR": 2, "RR": 4, "SW": 16, "RW": 79}
	for _, r := range d.Runs {
		base := strings.Split(r.Label, "/")[1]
		require.Equal(t, counts[base], r.IOCount, r.Label)
		require.Zero(t, r.IOIgnore, r.Label)
		require.Equal(t, r.IOCount, r.IOs, r.Label)
		require.Equal(t, r.IOCount, r.Counted, r.Label)
		require.False(t, r.Auto)
		require.Nil(t, r.Precision)
		require.Nil(t, r.Converged)
		require.LessOrEqual(t, r.MinUs, r.MeanUs)
		require.LessOrEqual(t, r.MeanUs, r.MaxUs)
		// One synchronous stream: the run lasts at least its IOs' latencies.
		require.GreaterOrEqual(t, r.EndUs-r.StartUs, float64(r.IOs)*r.MinUs*(1-1e-12), r.Label)
	}
	saved, err := os.ReadFile(filepath.Join(dir, "uflip", "fastdrain-small", "uflip.json"))
	require.NoError(t, err)
	require.Equal(t, js, string(saved))

	// runs.csv in ps (one decimal for mean and std-dev) against the JSON's µs.
	rc, err := os.ReadFile(filepath.Join(dir, "uflip", "fastdrain-small", "runs.csv"))
	require.NoError(t, err)
	_, psRows := readCSV(t, string(rc))
	require.Len(t, psRows, len(d.Runs))
	for i, r := range psRows {
		j := d.Runs[i]
		require.Equal(t, r["label"], j.Label)
		require.InDelta(t, num(t, r["mean_ps"]), j.MeanUs*1e6, 0.05+1e-9*j.MeanUs*1e6, j.Label)
		require.InDelta(t, num(t, r["min_ps"]), j.MinUs*1e6, 1e-3, j.Label)
		require.InDelta(t, num(t, r["max_ps"]), j.MaxUs*1e6, 1e-3, j.Label)
	}

	// The CSV is the JSON row for row, and --out's uflip.csv is the same.
	doc2, _, err := runStdout(append(args, "--format", "csv")...)
	require.NoError(t, err)
	hdr, rows := readCSV(t, doc2)
	require.Equal(t, []string{"device", "bench", "run", "point", "rep", "ios", "counted", "io_ignore", "io_count", "mean_us",
		"stdev_us", "min_us", "max_us", "start_us", "end_us", "precision_frac", "converged"}, hdr)
	require.Len(t, rows, len(d.Runs))
	for i, r := range rows {
		j := d.Runs[i]
		require.Equal(t, "fastdrain-small", r["device"])
		require.Equal(t, j.Label, r["run"])
		require.Equal(t, j.Bench, r["bench"])
		for k, v := range map[string]float64{"point": float64(j.Point), "rep": float64(j.Rep), "ios": float64(j.IOs),
			"counted": float64(j.Counted), "io_ignore": float64(j.IOIgnore), "io_count": float64(j.IOCount), "mean_us": j.MeanUs,
			"stdev_us": j.StdevUs, "min_us": j.MinUs, "max_us": j.MaxUs, "start_us": j.StartUs, "end_us": j.EndUs} {
			require.Equal(t, v, num(t, r[k]), "%s %s", j.Label, k)
		}
		require.Empty(t, r["precision_frac"])
		require.Empty(t, r["converged"])
	}
	saved, err = os.ReadFile(filepath.Join(dir, "uflip", "fastdrain-small-2", "uflip.csv"))
	require.NoError(t, err)
	require.Equal(t, doc2, string(saved))

	// The text table: the same IO counts and means.
	text, _, err := runStdout(append(args[:len(args)-2], "--out", "")...)
	require.NoError(t, err)
	for _, j := range d.Runs {
		var line string
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, " "+j.Label+" ") {
				line = l
			}
		}
		require.NotEmpty(t, line, j.Label)
		cells := strings.Split(line, "│")
		require.Equal(t, strconv.FormatInt(j.Counted, 10), strings.TrimSpace(cells[4]), j.Label)
		require.Equal(t, report.Duration(sim.Time(math.Round(j.MeanUs*1e6))), strings.TrimSpace(cells[5]), j.Label)
	}

	_, err = run("uflip", "--format", "xml", "--out", "")
	require.ErrorContains(t, err, `--format "xml": want text, json or csv`)
}

// TestUflipFormatAuto: with --auto the JSON gives each run's chosen IOIgnore (MSER-5: a
// multiple of 5, at most half the IOs) and IOCount (at least --auto-min 100, at most
// --auto-cap 200), counted = io_count − io_ignore for one stream, the precision as a
// fraction and whether it converged; the CSV writes converged as 1 or 0.
func TestUflipFormatAuto(t *testing.T) {
	args := []string{"uflip", "--bench", "granularity", "--auto", "0.1", "--auto-cap", "200", "--nbrun", "1",
		"--format-device", "none", "--span", "16MiB", "--out", ""}
	js, _, err := runStdout(append(args, "--format", "json")...)
	require.NoError(t, err)
	var doc uflipDocJSON
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	require.NotNil(t, doc.Auto)
	require.Equal(t, 0.1, doc.Auto.RelErrFrac)
	require.Equal(t, int64(200), doc.Auto.CapIOs)
	require.Equal(t, int64(128), doc.Auto.MinIOs, "--auto-min's default, uFLIP's smallest IOCount")
	runs := doc.Devices[0].Runs
	require.NotEmpty(t, runs)
	c, _, err := runStdout(append(args, "--format", "csv")...)
	require.NoError(t, err)
	recs, err := csv.NewReader(strings.NewReader(c)).ReadAll()
	require.NoError(t, err)
	for i, r := range runs {
		require.True(t, r.Auto)
		require.NotNil(t, r.Precision)
		require.NotNil(t, r.Converged)
		require.Zero(t, r.IOIgnore%5, r.Label)
		require.LessOrEqual(t, 2*r.IOIgnore, r.IOCount, r.Label)
		require.GreaterOrEqual(t, r.IOCount, int64(128), r.Label)
		require.LessOrEqual(t, r.IOCount, int64(200), r.Label)
		require.Equal(t, r.IOCount-r.IOIgnore, r.Counted, r.Label)
		if *r.Converged {
			require.LessOrEqual(t, *r.Precision, 0.1, r.Label)
		}
		row := recs[i+1]
		require.Equal(t, *r.Precision, num(t, row[15]))
		require.Equal(t, map[bool]string{true: "1", false: "0"}[*r.Converged], row[16])
	}
}

// TestUflipFindingsJSON: the findings of TestUflipFindingsOnAPreset as JSON: every check
// with its verdict, the text's numbers line as evidence, and values from which the verdict
// follows by the rule docs/uflip.md states (the thresholds are the values named _min, _max
// and _below); locality and parallel do not hold, as the text says.
func TestUflipFindingsJSON(t *testing.T) {
	args := []string{"uflip", "--findings", "--io-divisor", "64", "--nbrun", "1", "--format-device", "none", "--span", "64MiB", "--out", ""}
	js, _, err := runStdout(append(args, "--format", "json")...)
	require.NoError(t, err)
	var doc uflipDocJSON
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	text, _, err := runStdout(args...)
	require.NoError(t, err)
	fs := doc.Devices[0].Findings
	require.Len(t, fs, 7)
	byID := map[string]int{}
	for i, f := range fs {
		byID[f.ID] = i
		require.Contains(t, text, "["+f.Verdict+"] "+f.ID+": ")
		require.Contains(t, text, "numbers: "+f.Evidence+"\n")
		require.Equal(t, f.Verdict == "held", f.Held)
		require.True(t, f.Evaluated, f.ID)
		require.Equal(t, f.Held, f.Mechanism == "", f.ID)
	}
	v := func(id string) map[string]float64 { return fs[byID[id]].Values }
	loc := v("locality")
	require.InDelta(t, loc["focused_rw_mean_us"]/loc["sw_mean_us"], loc["focused_per_sw"], 1e-12)
	require.InDelta(t, loc["large_rw_mean_us"]/loc["focused_rw_mean_us"], loc["large_per_focused"], 1e-12)
	require.Equal(t, loc["focused_per_sw"] <= loc["focused_per_sw_max"] && loc["large_per_focused"] >= loc["large_per_focused_min"],
		fs[byID["locality"]].Held)
	require.False(t, fs[byID["locality"]].Held)
	par := v("parallel")
	gain := 0.0
	for _, b := range []string{"sr", "rr", "sw", "rw"} {
		gain = max(gain, par[b+"_throughput_gain"])
	}
	require.Equal(t, gain, par["throughput_gain"])
	require.Equal(t, 1.25, par["throughput_gain_below"])
	require.Equal(t, par["throughput_gain"] < par["throughput_gain_below"], fs[byID["parallel"]].Held)
	require.False(t, fs[byID["parallel"]].Held)
	seq := v("sequential")
	require.Equal(t, seq["sw_per_rw_mean"] <= seq["sw_per_rw_mean_max"], fs[byID["sequential"]].Held)
	er := v("erases")
	require.Equal(t, er["rw_per_slowest_other"] >= er["rw_per_slowest_other_min"] && er["rw_max_per_min"] >= er["rw_max_per_min_min"],
		fs[byID["erases"]].Held)
	pa := v("partitions")
	require.Equal(t, pa["few_per_one"] <= pa["few_per_one_max"] && pa["many_per_one"] >= pa["many_per_one_min"], fs[byID["partitions"]].Held)
	pz := v("pause")
	require.Equal(t, pz["paused_per_ref"] <= pz["paused_per_ref_max"], fs[byID["pause"]].Held)
	al := v("alignment")
	require.Equal(t, al["unaligned_per_aligned"] >= al["unaligned_per_aligned_min"], fs[byID["alignment"]].Held)
}

// TestUflipCalibrationJSON: the same granularity plan on fastdrain-small and tiny; the JSON's
// calibration rows are the text table's: per base, the points both ran (11 IO sizes) and the
// average of the point means on each device (one run per point with --nbrun 1, so the
// average of the runs' mean_us of that base), and a_per_b = mean_a_us / mean_b_us; the
// "all" row averages all 44 points.
func TestUflipCalibrationJSON(t *testing.T) {
	js, _, err := runStdout("uflip", "--bench", "granularity", "--io-divisor", "64", "--nbrun", "1", "--format-device", "none",
		"--span", "16MiB", "--vs", "tiny", "--out", "", "--format", "json")
	require.NoError(t, err)
	var doc uflipDocJSON
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	require.Len(t, doc.Devices, 2)
	avg := func(dev int, base string) (float64, int) {
		sum, n := 0.0, 0
		for _, r := range doc.Devices[dev].Runs {
			if base == "all" || strings.Split(r.Label, "/")[1] == base {
				sum += r.MeanUs
				n++
			}
		}
		return sum / float64(n), n
	}
	require.Len(t, doc.Calibration, 5, "SR, RR, SW, RW and all")
	for _, c := range doc.Calibration {
		require.Equal(t, "fastdrain-small", c["device_a"])
		require.Equal(t, "tiny", c["device_b"])
		require.Equal(t, "granularity", c["bench"])
		base := c["base"].(string)
		a, n := avg(0, base)
		b, _ := avg(1, base)
		require.Equal(t, float64(n), c["points"], base)
		require.InDelta(t, a, c["mean_a_us"].(float64), 1e-9*a, base)
		require.InDelta(t, b, c["mean_b_us"].(float64), 1e-9*b, base)
		require.InDelta(t, a/b, c["a_per_b"].(float64), 1e-9*a/b, base)
	}
}
