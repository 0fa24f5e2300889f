package runner

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/energy"
	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestRunSmoke(t *testing.T) {
	c, sc := setup(t, "vanilla", "apache-u+ungzip", sim.Second)
	r, err := Run(Options{Label: "vanilla", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
	require.NoError(t, err)
	require.NotNil(t, r.App("apache-u"))
	require.Positive(t, r.App("apache-u").Requests)
	t.Logf("%+v", r.Firmware)
	t.Logf("util rows %d", len(r.Utilization.Rows))
}

func TestWriteDir(t *testing.T) {
	c, sc := setup(t, "fd", "apache-u+ungzip", sim.Second)
	r, err := Run(Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, r.WriteDir(dir))
	for _, f := range []string{"config.yaml", "result.json", "apps.csv", "stats.csv", "utilization.csv",
		"energy.csv", "series.csv", "latency-cdf.png", "latency-cdf.svg", "response-apache-u.png", "buffer.svg", "power.png", "power.svg",
		"heatmap-channels.png", "heatmap-channels.svg", "heatmap-dies.png", "heatmap-dies.svg", "throughput.png", "throughput.svg",
		"tail.png", "tail.svg"} {
		st, err := os.Stat(filepath.Join(dir, f))
		require.NoError(t, err, f)
		require.Positive(t, st.Size(), f)
	}
	var b bytes.Buffer
	require.NoError(t, r.WriteText(&b))
	require.Contains(t, b.String(), "dies utilization (fd)")
	require.Contains(t, b.String(), "energy (fd)")

	// The CSV files hold numbers with units in the names: apps.csv's p99_us is the
	// histogram's p99 in ps / 10⁶; stats.csv's waf is the FTL's; utilization.csv's busy
	// shares are fractions in [0, 1].
	rows := func(name string) [][]string {
		f, err := os.Open(filepath.Join(dir, name))
		require.NoError(t, err)
		defer f.Close()
		recs, err := csv.NewReader(f).ReadAll()
		require.NoError(t, err)
		return recs
	}
	a := rows("apps.csv")
	require.Equal(t, []string{"app", "requests", "req_per_s", "mb_per_s", "mean_us", "stdev_us", "min_us", "p50_us", "p90_us", "p99_us", "p999_us", "p9999_us", "max_us"}, a[0])
	for _, row := range a[1:] {
		if row[0] == "apache-u" {
			p99, err := strconv.ParseFloat(row[9], 64)
			require.NoError(t, err)
			require.Equal(t, float64(r.App("apache-u").Latency.Quantile(0.99))/1e6, p99)
		}
	}
	var waf string
	for _, row := range rows("stats.csv")[1:] {
		_, err := strconv.ParseFloat(row[1], 64)
		require.NoError(t, err, row[0])
		if row[0] == "waf" {
			waf = row[1]
		}
	}
	require.Equal(t, strconv.FormatFloat(r.FTL.WAF(), 'g', -1, 64), waf)
	u := rows("utilization.csv")
	require.Equal(t, "busy_frac", u[0][len(u[0])-1])
	for _, row := range u[1:] {
		v, err := strconv.ParseFloat(row[len(row)-1], 64)
		require.NoError(t, err, row[0])
		require.True(t, v >= 0 && v <= 1, row[0])
	}
}

// TestRunEnergy: a run's energy account starts where the utilization snapshots are taken
// (the measuring process's first 1 ms poll after the data sets exist) and ends with the
// run, and its power trace joins the series at their 10 ms interval.
func TestRunEnergy(t *testing.T) {
	c, sc := setup(t, "fd", "apache-u+ungzip", sim.Second)
	r, err := Run(Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
	require.NoError(t, err)
	a := r.Energy
	require.NotNil(t, a)
	require.GreaterOrEqual(t, a.From, r.Began)
	require.Less(t, a.From, r.Began+sim.Millisecond+1)
	require.GreaterOrEqual(t, a.To, r.Ended)
	// The link's L0 standby is steady: 2 directions × 4 lanes × 30 mW = 240 mW over the
	// window (Gen3 x4, the default 30 mW per lane and direction).
	for i, row := range energy.Rows() {
		if row == (energy.Row{Component: energy.PCIeLink, Activity: "L0 standby"}) {
			require.InEpsilon(t, 0.240*(a.To-a.From).Seconds(), a.J[i], 1e-9)
		}
	}
	require.Positive(t, a.Component(energy.NANDArray))
	require.Positive(t, a.Commands)
	var total *sim.Series
	for _, s := range r.Series {
		if s.Name == "energy.total_mW" {
			total = s
		}
	}
	require.NotNil(t, total)
	require.Equal(t, a.From+10*sim.Millisecond, total.Samples[0].At)
	// The peak over 1 ms is at least the peak over 10 ms, which is at least the average.
	require.GreaterOrEqual(t, a.Peaks[0].Watts, a.Peaks[1].Watts)
	require.GreaterOrEqual(t, a.Peaks[1].Watts, a.AveragePower())
}

// TestThroughput: 300 MB written over a 2 s measured window is 150 MB/s; an app that did
// not run reports 0.
func TestThroughput(t *testing.T) {
	r := &Result{Began: sim.Second, Ended: 3 * sim.Second, Apps: []AppResult{{App: "ungzip", Bytes: 300_000_000}}}
	require.InDelta(t, 150.0, r.Throughput("ungzip"), 1e-9)
	require.Zero(t, r.Throughput("db-s"))
}

// TestPowerLinesStack: components of 1, 2, 3, 4 and 5 W stack to lines at 1, 3, 6, 10 and
// 15 W, the last the total.
func TestPowerLinesStack(t *testing.T) {
	r := &Result{}
	for i, c := range energy.Components {
		r.Series = append(r.Series, &sim.Series{Name: "energy." + strings.ReplaceAll(c, " ", "_") + "_mW",
			Samples: []sim.Sample{{At: 10 * sim.Millisecond, Value: int64(1000 * (i + 1))}}})
	}
	lines := r.PowerLines()
	require.Len(t, lines, 5)
	for i, want := range []float64{1, 3, 6, 10, 15} {
		require.InDelta(t, want, lines[i].Y[0], 1e-12)
		require.InDelta(t, 0.01, lines[i].X[0], 1e-12)
	}
	require.Equal(t, "+ pcie link", lines[4].Name)
	require.Nil(t, (&Result{}).PowerLines())
}

// TestRunCheckData (issue 22, hole 9): the data check on the path run and compare use: at
// the end of a co-located run every page the applications wrote through the page cache (or
// read) reads back from the device as last written, and the check changes no simulated
// result: the run's JSON is byte-identical with and without it.
func TestRunCheckData(t *testing.T) {
	// 64 MiB of host memory and a 4 MiB SSD buffer, so the applications' data leaves the
	// page cache and the SSD's DRAM and is read back from flash.
	c, sc := setup(t, "fd", "db-s+ungzip", sim.Second, append(smallSets, "host.pagecache.memory=64MiB", "firmware.buffer.pages=1024")...)
	sc.Warmup = 100 * sim.Millisecond
	var out [2][]byte
	for i, check := range []bool{false, true} {
		r, err := Run(Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}, CheckData: check})
		require.NoError(t, err)
		if check {
			t.Logf("%d pages checked", r.DataChecked)
			require.Positive(t, r.DataChecked)
		}
		out[i], err = json.Marshal(r.JSON())
		require.NoError(t, err)
	}
	require.Equal(t, string(out[0]), string(out[1]))
}

// TestMeasurementStartsWithoutSetUp: apache-u alone (uploads: nothing to set up) begins at
// time 0, and measurement starts there, not at the end of the run: the energy account
// covers the whole run and the utilization window has work in it.
func TestMeasurementStartsWithoutSetUp(t *testing.T) {
	c, sc := setup(t, "vanilla", "apache-u", 200*sim.Millisecond)
	r, err := Run(Options{Label: "vanilla", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
	require.NoError(t, err)
	require.Equal(t, sim.Time(0), r.Began)
	require.NotNil(t, r.Energy)
	require.Equal(t, sim.Time(0), r.Energy.From)
	require.GreaterOrEqual(t, r.Energy.To, r.Ended)
	require.Positive(t, r.Energy.Total())
}
