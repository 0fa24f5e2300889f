package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/runner/replayrun"
	"github.com/stretchr/testify/require"
)

// twoDiskTrace is a hand-made MSR Cambridge trace of two disks (0 and 3), every request
// aligned to 4 KiB and at its own offset (the disks share offset 0 of the device):
//
//	line 2  disk 0 read   4096 B at 0
//	line 3  disk 3 write  4096 B at 1 MiB
//	line 4  disk 0 read   4096 B at 8192
//	line 5  disk 3 read  12288 B at 2 MiB
//	line 6  disk 0 write  8192 B at 3 MiB
//	line 7  disk 3 write  4096 B at 4 MiB
//	line 8  disk 0 read   4096 B at 16384
//
// so disk 0 has 4 requests (3 reads, 1 write) moving 3·4096 + 8192 = 20480 B, disk 3 has 3
// (1 read, 2 writes) moving 12288 + 2·4096 = 20480 B, and the trace 7 moving 40960 B.
const twoDiskTrace = `Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
128166372000000000,hm,0,Read,0,4096,100
128166372000010000,hm,3,Write,1048576,4096,100
128166372000020000,hm,0,Read,8192,4096,100
128166372000030000,hm,3,Read,2097152,12288,100
128166372000040000,hm,0,Write,3145728,8192,100
128166372000050000,hm,3,Write,4194304,4096,100
128166372000060000,hm,0,Read,16384,4096,100
`

// lineDisk is the disk of each trace line above.
var lineDisk = map[int]string{2: "0", 3: "3", 4: "0", 5: "3", 6: "0", 7: "3", 8: "0"}

// TestReplayPerDevice replays twoDiskTrace and checks the per-device entries against the
// counts above and against percentiles worked out from the --records file: each device's
// latencies sorted, the value at rank ⌈p/100 · n⌉. The summary's come from a histogram
// that reports a bucket's midpoint, within 1/256 of the value above 128 ps.
func TestReplayPerDevice(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "two.csv")
	require.NoError(t, os.WriteFile(path, []byte(twoDiskTrace), 0o644))
	rec := filepath.Join(dir, "records.csv")
	out, _, err := runStdout("replay", path, "--trace-format", "msr", "--format", "json", "--records", rec,
		"--percentiles", "99,50,75", "--out", dir)
	require.NoError(t, err)
	var s replayrun.Summary
	require.NoError(t, json.Unmarshal([]byte(out), &s))
	require.Len(t, s.Devices, 3)
	byDev := map[string]replayrun.DevSum{}
	for _, d := range s.Devices {
		byDev[d.Device] = d
	}
	require.Equal(t, []string{"0", "3", "all"}, []string{s.Devices[0].Device, s.Devices[1].Device, s.Devices[2].Device})
	want := map[string][4]int64{"0": {4, 3, 1, 20480}, "3": {3, 1, 2, 20480}, "all": {7, 4, 3, 40960}}
	for dev, w := range want {
		d := byDev[dev]
		require.Equal(t, w, [4]int64{d.Requests, d.Reads, d.Writes, d.BytesMoved}, dev)
		secs := s.ElapsedUs / 1e6
		require.InDelta(t, float64(w[0])/secs, d.IOPS, 1e-9*d.IOPS, dev)
		require.InDelta(t, float64(w[3])/secs/1e6, d.MBps, 1e-9*d.MBps, dev)
		require.Equal(t, []float64{50, 75, 99}, []float64(d.Pcts), "the list, sorted")
	}

	// Latencies per device from the records.
	f, err := os.Open(rec)
	require.NoError(t, err)
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	require.NoError(t, err)
	require.Equal(t, "line", rows[0][0])
	lat := map[string][]int64{}
	for _, r := range rows[1:] {
		line, _ := strconv.Atoi(r[0])
		ps, err := strconv.ParseInt(r[6], 10, 64)
		require.NoError(t, err)
		lat[lineDisk[line]] = append(lat[lineDisk[line]], ps)
		lat["all"] = append(lat["all"], ps)
	}
	for dev, ls := range lat {
		slices.Sort(ls)
		d := byDev[dev]
		for _, p := range []float64{50, 75, 99} {
			rank := int(math.Ceil(p / 100 * float64(len(ls)))) // 4 requests: p50 → 2, p75 → 3, p99 → 4
			wantUs := float64(ls[rank-1]) / 1e6
			require.InEpsilon(t, wantUs, d.At(p), 1.0/256, "device %s p%v", dev, p)
		}
		require.Equal(t, float64(ls[0])/1e6, d.MinUs, dev)
		require.Equal(t, float64(ls[len(ls)-1])/1e6, d.MaxUs, dev)
	}

	// The SSD's statistics, as run names them. The reads ask 3·1 + 3 = 6 host pages of
	// 4 KiB at addresses no request wrote, so all 6 miss the write buffer and are read from
	// flash (the preset preconditions the device, so none is unwritten); the writes put
	// 2 + 1 + 1 = 4 pages in the buffer, whose 16,384 pages keep them all: nothing is
	// evicted, programmed or collected in this short replay.
	st := map[string]float64{}
	for _, v := range s.Stats {
		st[v.Name] = v.Value
	}
	for k, v := range map[string]float64{"buffer_read_hits": 0, "buffer_read_misses": 6, "flash_reads_host_pages": 6,
		"unwritten_read_pages": 0, "buffer_peak_occupancy_pages": 4, "buffer_capacity_pages": 16384,
		"evictions_foreground_pages": 0, "pages_programmed_lsb": 0, "gc_runs": 0, "erases": 0} {
		require.Equal(t, v, st[k], k)
	}
	require.Positive(t, st["simulated_events"])

	// The files: the per-device table and the statistics as CSV, numbers only.
	b, err := os.ReadFile(filepath.Join(dir, "replay", "two-fastdrain-small", "replay-devices.csv"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	require.Equal(t, "device,requests,reads,writes,iops,moved_mb,mb_per_s,mean_us,stdev_us,min_us,p50_us,p75_us,p99_us,max_us", lines[0])
	require.Len(t, lines, 4)
	b, err = os.ReadFile(filepath.Join(dir, "replay", "two-fastdrain-small", "replay-stats.csv"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(b), "statistic,value\nbuffer_capacity_pages,"), string(b))

	// The text output has the device table (two devices) and the statistics table.
	txt, err := run("replay", path, "--trace-format", "msr")
	require.NoError(t, err)
	require.Contains(t, txt, "replay: per trace device")
	require.Contains(t, txt, "statistics (replay)")
	require.Contains(t, txt, "p9999_us") // the default percentiles
}
