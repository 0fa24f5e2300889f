package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// The statistics registry's contract (issue 33): every output of a command carries the
// same statistics with the same values — the text table, the JSON document, the CSV file
// and a sweep's columns — for a machine with a fault model and, where the command can run
// one, a power cut.

// faultSets gives fastdrain-small a fault model: 3 factory-bad blocks per die and page
// programs failing with probability 0.2 % (a few failures in 0.4 simulated seconds).
var faultSets = []string{"--set", "flash.die.faults.factory_bad=3", "--set", "flash.die.faults.program_fail=0.002"}

// cutSets adds a scripted power cut at 400 ms.
var cutSets = []string{"--set", "firmware.power_loss.enabled=true", "--set", "firmware.power_loss.cut_at=400ms"}

// expectedStats are the statistics a fastdrain-small run with a fault model reports: the
// whole catalogue but page_slots_padded (one mapping unit a page: no slot is padded) and
// pages_programmed_tsb (TLC dies: no QLC top page), the per-namespace statistics (one
// namespace: none), the FDP ones (FDP off), the SLC cache's (none) and the ZNS ones (no
// zoned namespace); the word-line finality ones only with powerLoss
// (firmware.power_loss.enabled), the skip region's only with skips (an allocator skipped a
// page: the latency-aware one of FD-FTL and FD, not the sequential one).
func expectedStats(powerLoss, skips bool) []string {
	perNS := map[*sim.Stat]bool{}
	only := append(append(firmware.NamespaceStatList(), firmware.FDPStatList()...), firmware.SLCStatList()...)
	if !powerLoss {
		only = append(only, firmware.StatFinalityPads, firmware.StatFinalityFlushes, firmware.StatFinalityWait)
	}
	for _, s := range append(append(only, firmware.ZNSStatList()...), blk.ZoneStatList()...) {
		perNS[s] = true // per namespace, FDP, SLC cache or ZNS only: not on fastdrain-small
	}
	if !skips {
		for _, s := range []*sim.Stat{ftl.StatSkipRegion, ftl.StatSkipRegionFull, ftl.StatSkipReclaims} {
			perNS[s] = true // only where an allocator skipped a page (ftl.PutStats)
		}
	}
	var names []string
	for _, s := range runner.Statistics.Stats() {
		if s.Name != "page_slots_padded" && s.Name != "pages_programmed_tsb" && !perNS[s] {
			names = append(names, s.Name)
		}
	}
	return names
}

// statSet is one output's statistics: names in order, values as numbers (a time in µs).
type statSet struct {
	names []string
	vals  map[string]float64
}

func (s *statSet) add(t *testing.T, name string, v float64) {
	t.Helper()
	_, dup := s.vals[name]
	require.False(t, dup, "statistic %s twice", name)
	s.names = append(s.names, name)
	s.vals[name] = v
}

// csvStats reads a "statistic,value" file (stats.csv, replay-stats.csv, fio-stats.csv).
func csvStats(t *testing.T, path string) statSet {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	hdr, rows := readCSV(t, string(b))
	require.Equal(t, []string{"statistic", "value"}, hdr, path)
	s := statSet{vals: map[string]float64{}}
	for _, r := range rows {
		v, err := strconv.ParseFloat(r["value"], 64)
		require.NoError(t, err, path)
		s.add(t, r["statistic"], v)
	}
	return s
}

// listStats reads a JSON ssd_stats list (replay.json, fio.json, uflip.json).
func listStats(t *testing.T, raw json.RawMessage) statSet {
	t.Helper()
	var l []struct {
		Name  string  `json:"name"`
		Value float64 `json:"value"`
	}
	require.NoError(t, json.Unmarshal(raw, &l))
	s := statSet{vals: map[string]float64{}}
	for _, v := range l {
		s.add(t, v.Name, v.Value)
	}
	return s
}

// textRows reads the rows of the text table titled title in out: label → value cell.
func textRows(t *testing.T, out, title string) [][2]string {
	t.Helper()
	i := strings.Index(out, "\n"+title+"\n")
	require.GreaterOrEqual(t, i, 0, "no table %q in:\n%s", title, out)
	var rows [][2]string
	for _, line := range strings.Split(out[i+len(title)+2:], "\n")[3:] { // past the top rule, header and rule
		if strings.HasPrefix(line, "└") {
			return rows
		}
		cells := strings.Split(strings.Trim(line, "│"), "│")
		require.Len(t, cells, 2, line)
		rows = append(rows, [2]string{strings.TrimSpace(cells[0]), strings.TrimSpace(cells[1])})
	}
	t.Fatalf("table %q not closed", title)
	return nil
}

// requireTextMatches checks that the text rows (label, "a / b / …") show exactly the
// statistics of want, each value as the text tables show it: the statistics of a row are
// the catalogue's with that Stat.Row, in catalogue order; a time (µs in want) is compared
// as a duration, a ratio to three decimals, anything else exactly.
func requireTextMatches(t *testing.T, rows [][2]string, want statSet, what string) {
	t.Helper()
	var seen []string
	for _, r := range rows {
		var stats []*sim.Stat
		for _, s := range runner.Statistics.Stats() {
			if _, ok := want.vals[s.Name]; ok && s.Row == r[0] {
				stats = append(stats, s)
			}
		}
		require.NotEmpty(t, stats, "%s: row %q is no statistic of the reference", what, r[0])
		parts := strings.Split(r[1], " / ")
		require.Len(t, parts, len(stats), "%s: row %q = %q", what, r[0], r[1])
		for i, s := range stats {
			v := want.vals[s.Name]
			switch s.Unit {
			case sim.UnitTime:
				require.Equal(t, report.Duration(sim.Time(math.Round(v*float64(sim.Microsecond)))), parts[i], "%s: %s", what, s.Name)
			case sim.UnitRatio:
				got, err := strconv.ParseFloat(parts[i], 64)
				require.NoError(t, err)
				require.InDelta(t, v, got, 0.0005, "%s: %s", what, s.Name)
			default:
				require.Equal(t, strconv.FormatFloat(v, 'f', -1, 64), parts[i], "%s: %s", what, s.Name)
			}
			seen = append(seen, s.Name)
		}
	}
	require.Equal(t, want.names, seen, "%s: the text rows show every statistic, in order", what)
}

// requireSame checks that got carries exactly want's statistics, in order, with its values.
func requireSame(t *testing.T, want, got statSet, what string) {
	t.Helper()
	require.Equal(t, want.names, got.names, what)
	for _, n := range want.names {
		require.Equal(t, want.vals[n], got.vals[n], "%s: %s", what, n)
	}
}

// smallDies is fastdrain-small's die count, read from its configuration.
func smallDies(t *testing.T) int64 {
	c, err := platforms.Load(platforms.Options{Preset: "fastdrain-small"})
	require.NoError(t, err)
	return int64(c.Flash.Channels * c.Flash.Ways * c.Flash.DiesPerPackage)
}

// TestStatsSameInEveryRunOutput: run with a fault model and a power cut. stats.csv holds
// the catalogue but page_slots_padded; the text table, result.json's stats table and a
// sweep point of the same configuration carry the same values. Worked by hand:
// bad_blocks_factory = 3 blocks × fastdrain-small's dies (the cut used to report 0);
// flash_pages_used = the LSB + CSB + MSB pages programmed; utilization.csv holds fractions
// of the window, each in [0, 1] (the cut used to write percentages).
func TestStatsSameInEveryRunOutput(t *testing.T) {
	dir := t.TempDir()
	args := append(append([]string{"run", "--preset", "fastdrain-small", "--variant", "fd", "--scenario", "db-s+ungzip",
		"--duration", "600ms", "--out", dir}, faultSets...), cutSets...)
	out, _, err := runStdout(args...)
	require.NoError(t, err)
	require.Contains(t, out, "power loss (fd)")
	rd := filepath.Join(dir, "run", "fastdrain-small-fd-db-s+ungzip-600ms")
	want := csvStats(t, filepath.Join(rd, "stats.csv"))
	require.Equal(t, expectedStats(true, true), want.names)
	require.Equal(t, float64(3*smallDies(t)), want.vals["bad_blocks_factory"])
	require.Positive(t, want.vals["flash_program_failures"], "the fault model engaged")
	require.Equal(t, want.vals["pages_programmed_lsb"]+want.vals["pages_programmed_csb"]+want.vals["pages_programmed_msb"],
		want.vals["flash_pages_used"])

	requireTextMatches(t, textRows(t, out, "statistics (fd)"), want, "run text")
	b, err := os.ReadFile(filepath.Join(rd, "result.json"))
	require.NoError(t, err)
	var doc struct {
		Stats       report.Table `json:"stats"`
		FlashUsed   float64      `json:"flash_pages_used"`
		FlashWasted float64      `json:"flash_pages_wasted"`
	}
	require.NoError(t, json.Unmarshal(b, &doc))
	var jrows [][2]string
	for _, r := range doc.Stats.Rows {
		jrows = append(jrows, [2]string{r[0], r[1]})
	}
	requireTextMatches(t, jrows, want, "result.json stats")
	require.Equal(t, want.vals["flash_pages_used"], doc.FlashUsed)
	require.Equal(t, want.vals["pages_wasted"], doc.FlashWasted)

	b, err = os.ReadFile(filepath.Join(rd, "utilization.csv"))
	require.NoError(t, err)
	hdr, urows := readCSV(t, string(b))
	require.NotEmpty(t, urows)
	for _, r := range urows {
		for _, h := range hdr[1:] {
			v, err := strconv.ParseFloat(r[h], 64)
			require.NoError(t, err, "utilization.csv %s %s = %q", r[hdr[0]], h, r[h])
			require.True(t, v >= 0 && v <= 1, "utilization.csv %s %s = %v is no fraction", r[hdr[0]], h, v)
		}
	}

	// A sweep point of the same configuration: its statistics columns, under their
	// historical names, hold the same values.
	sargs := append([]string{"sweep", "--kind", "run", "--preset", "fastdrain-small", "--variant", "fd",
		"--scenario", "db-s+ungzip", "--duration", "600ms", "--no-files", "--format", "json", "--jobs", "1",
		"--axis", "firmware.power_loss.cut_at=400ms", "--set", "firmware.power_loss.enabled=true"}, faultSets...)
	js, _, err := runStdout(sargs...)
	require.NoError(t, err)
	var sw struct {
		Columns []string `json:"columns"`
		Rows    []struct {
			Metrics []float64 `json:"metrics"`
			Error   string    `json:"error"`
		} `json:"rows"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &sw))
	require.Len(t, sw.Rows, 1)
	require.Empty(t, sw.Rows[0].Error)
	sweepNames := map[string]string{"waf": "waf", "flash_used_pages": "flash_pages_used", "flash_wasted_pages": "pages_wasted",
		"gc_runs": "gc_runs", "gc_pages_moved": "gc_pages_moved", "erases": "erases", "evictions_fg": "evictions_foreground_pages",
		"evictions_bg": "evictions_background_pages", "stalls": "writes_stalled", "stall_time_us": "write_stall_time_us",
		"buffer_peak_pages": "buffer_peak_occupancy_pages", "victimizations": "page_victimizations",
		"pages_written_back": "pages_written_back", "throttle_time_us": "writer_throttle_time_us"}
	n := 0
	for i, c := range sw.Columns {
		if s, ok := sweepNames[c]; ok {
			require.Equal(t, want.vals[s], sw.Rows[0].Metrics[i], "sweep column %s (%s)", c, s)
			n++
		}
	}
	require.Equal(t, len(sweepNames), n, "every statistics column is in the sweep")
}

// topSSDStats returns the ssd_stats member of a JSON document (replay.json, fio.json).
func topSSDStats(t *testing.T, b []byte) json.RawMessage {
	var d struct {
		S json.RawMessage `json:"ssd_stats"`
	}
	require.NoError(t, json.Unmarshal(b, &d))
	return d.S
}

// TestStatsSameInReplayFioUflip: replay, fio and uflip on fastdrain-small with the fault
// model (a power cut stops their workloads mid-request, which they do not take yet): each
// carries the catalogue but page_slots_padded, with the same values in its text table, its
// JSON document's ssd_stats and its statistics CSV file; bad_blocks_factory is 3 blocks ×
// the dies.
func TestStatsSameInReplayFioUflip(t *testing.T) {
	dies := smallDies(t)
	for _, c := range []struct {
		name, csv, json, title string
		args                   []string
		ssd                    func(t *testing.T, b []byte) json.RawMessage
	}{
		{"replay", "replay/small-fastdrain-small/replay-stats.csv", "replay/small-fastdrain-small/replay.json", "statistics (replay)",
			[]string{"replay", "--preset", "fastdrain-small", "testdata/small.disksim"},
			topSSDStats},
		{"fio", "fio/jobs-fastdrain-small/fio-stats.csv", "fio/jobs-fastdrain-small/fio.json", "statistics (fio)",
			[]string{"fio", "--preset", "fastdrain-small", "testdata/jobs.yaml"},
			topSSDStats},
		{"uflip", "uflip/fastdrain-small/stats.csv", "uflip/fastdrain-small/uflip.json", "statistics (fastdrain-small)",
			[]string{"uflip", "--preset", "fastdrain-small", "--bench", "granularity", "--nbrun", "1", "--io-divisor", "16", "--span", "64MiB"},
			func(t *testing.T, b []byte) json.RawMessage {
				var d struct {
					Devices []struct {
						S json.RawMessage `json:"ssd_stats"`
					} `json:"devices"`
				}
				require.NoError(t, json.Unmarshal(b, &d))
				require.Len(t, d.Devices, 1)
				return d.Devices[0].S
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			out, _, err := runStdout(append(append(c.args, "--out", dir), faultSets...)...)
			require.NoError(t, err)
			want := csvStats(t, filepath.Join(dir, c.csv))
			require.Equal(t, expectedStats(false, false), want.names)
			require.Equal(t, float64(3*dies), want.vals["bad_blocks_factory"])
			requireTextMatches(t, textRows(t, out, c.title), want, c.name+" text")
			b, err := os.ReadFile(filepath.Join(dir, c.json))
			require.NoError(t, err)
			requireSame(t, want, listStats(t, c.ssd(t, b)), c.name+" JSON ssd_stats")
		})
	}
}

// TestFlashbenchSameInEveryOutput: one flashbench point (the tiny preset's array, QD 16,
// 2,000 operations) reports the same operation counts, mean latencies, IOPS and elapsed
// time in its text table, flashbench.json, flashbench.csv and a sweep point of the same
// array and stream. The counts add up to the 2,000 operations asked for.
func TestFlashbenchSameInEveryOutput(t *testing.T) {
	dir := t.TempDir()
	out, _, err := runStdout("flashbench", "--preset", "tiny", "--ops", "2000", "--qd", "16", "--out", dir)
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(dir, "flashbench", "tiny-2ch-4dies", "flashbench.json"))
	require.NoError(t, err)
	var doc struct {
		ElapsedPS int64   `json:"elapsed_ps"`
		IOPS      float64 `json:"iops"`
		Ops       map[string]struct {
			Count  int64   `json:"count"`
			MeanPS float64 `json:"mean_ps"`
		} `json:"ops"`
	}
	require.NoError(t, json.Unmarshal(b, &doc))
	b, err = os.ReadFile(filepath.Join(dir, "flashbench", "tiny-2ch-4dies", "flashbench.csv"))
	require.NoError(t, err)
	_, rows := readCSV(t, string(b))
	js, _, err := runStdout("sweep", "--kind", "flashbench", "--preset", "tiny", "--ops", "2000", "--qd", "16",
		"--axis", "flashbench.seed=1", "--no-files", "--format", "json", "--jobs", "1")
	require.NoError(t, err)
	var sw struct {
		Columns []string `json:"columns"`
		Rows    []struct {
			Metrics []float64 `json:"metrics"`
		} `json:"rows"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &sw))
	require.Len(t, sw.Rows, 1)
	col := func(name string) float64 {
		i := slices.Index(sw.Columns, name)
		require.GreaterOrEqual(t, i, 0, name)
		return sw.Rows[0].Metrics[i]
	}
	require.Equal(t, doc.IOPS, col("iops"))
	require.Equal(t, float64(doc.ElapsedPS)/float64(sim.Microsecond), col("elapsed_us"))
	var total int64
	for _, r := range rows {
		op := r["op"]
		if op == "all" {
			require.Equal(t, strconv.FormatInt(total, 10), r["count"])
			continue
		}
		j := doc.Ops[op]
		require.Equal(t, strconv.FormatInt(j.Count, 10), r["count"], op)
		require.Equal(t, float64(j.Count), col(op+"_ops"), op)
		if j.Count > 0 {
			mean, err := strconv.ParseFloat(r["mean_us"], 64)
			require.NoError(t, err)
			require.Equal(t, j.MeanPS/float64(sim.Microsecond), mean, op)
			require.Equal(t, mean, col(op+"_mean_us"), op)
			require.Regexp(t, `│ +`+op+` │ +`+strconv.FormatInt(j.Count, 10)+` │`, out)
		}
		total += j.Count
	}
	require.Equal(t, int64(2000), total)
}
