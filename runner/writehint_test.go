package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/stretchr/testify/require"
)

// hintMachine builds the tiny preset with FDP (handles reclaim unit handles, one per
// placement identifier of namespace 1) and the file system's hint mapping streams ("none"
// or "f2fs"), runs the fio job file doc on it and returns the machine.
func hintMachine(t *testing.T, handles int, streams, doc string) *platforms.Machine {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hints.yaml")
	cfg := fmt.Sprintf("nvme:\n  hint_carrier: cdw2\n  fdp:\n    enabled: true\n    handles: %d\nhost:\n  pagecache:\n    hint_streams: %s\n", handles, streams)
	require.NoError(t, os.WriteFile(p, []byte(cfg), 0o644))
	m, fm, raw := tinyMachine(t, p)
	require.Equal(t, handles, raw.WriteStreams())
	for _, r := range runJobs(t, m, fm, doc) {
		require.Empty(t, r.Err)
	}
	require.NoError(t, m.SSD.FW.FTL().Check(), "the invariant checker, isolation included")
	return m
}

// placementJobs reads a job file of docs/placement-jobs.
func placementJobs(t *testing.T, name string) string {
	b, err := os.ReadFile(filepath.Join("..", "docs", "placement-jobs", name))
	require.NoError(t, err)
	return string(b)
}

// fileHandles counts, per reclaim unit handle, the logical pages of file name (its extents
// on namespace 1, 4 KiB pages) whose data was last written through that handle.
func fileHandles(t *testing.T, m *platforms.Machine, name string) map[int]int {
	f := m.Host.Cache.Lookup(name)
	require.NotNil(t, f, name)
	got := map[int]int{}
	for _, e := range f.Extents() {
		for lpn := e[0] / 4096; lpn < (e[0]+e[1])/4096; lpn++ {
			got[m.SSD.FW.FTL().HandleOf(lpn)]++
		}
	}
	return got
}

// TestWriteHintsWholeStack is docs/placement.md's hint study: per-file hints from fio's
// write_hint, carried by the page cache's writeback, mapped to write streams by f2fs's
// rule and sent by the NVMe driver as placement identifiers, against two controls. The
// drive has two handles, so f2fs's classes take streams 1 (hot and warm) and 2 (cold).
//
// Worked by hand: each job writes 8,192 pages (32 MiB of 4 KiB) and fsyncs every 32
// writes; fio's random map writes a page at most once per pass (hot's 1,024-page pass is
// 32 fsync intervals long, so it ends on an fsync), so no page is written twice while
// dirty and the drive gets all 16,384. With hints and f2fs: hot.dat (short: hot, stream 1)
// all through handle 0, cold.dat (extreme: cold, stream 2) through handle 1, 8,192 host
// pages each; cold's 8,192 distinct pages of its 10,240 are the pages tagged with handle 1
// at the end. Handle 1's reclaim units hold only cold data written once, so none of their
// pages is ever invalid and greedy GC never picks one: 0 GC pages there.
//
// Controls: the jobs without hints on f2fs (every file warm: stream 1, handle 0) and the
// jobs with hints on the default file system (ext4/XFS: the hints ride in bi_write_hint,
// which the NVMe driver ignores, so no write names a placement identifier and everything
// goes through handle 0, as a write without a directive does). The two must agree to the
// page: a directive naming handle 0 and no directive place data alike.
func TestWriteHintsWholeStack(t *testing.T) {
	ctl := hintMachine(t, 2, "f2fs", placementJobs(t, "hints.fio"))
	ext4 := hintMachine(t, 2, "none", placementJobs(t, "hints-f2fs.fio"))
	m := hintMachine(t, 2, "f2fs", placementJobs(t, "hints-f2fs.fio"))

	f := m.SSD.FW.FTL()
	h0, h1 := f.HandleStats(0), f.HandleStats(1)
	require.Equal(t, int64(8192), h0.HostWrites)
	require.Equal(t, int64(8192), h1.HostWrites)
	require.Zero(t, h1.GCWrites)
	require.Equal(t, map[int]int{0: 1024}, fileHandles(t, m, "hot.dat"))
	require.Equal(t, map[int]int{0: 10240 - 8192, 1: 8192}, fileHandles(t, m, "cold.dat"))
	require.Equal(t, uint64(2*32<<20), m.SSD.FW.FDPInfo().HostBytes)

	for name, c := range map[string]*platforms.Machine{"no hints": ctl, "hints on ext4": ext4} {
		cf := c.SSD.FW.FTL()
		require.Equal(t, ftl.HandleStats{ReclaimUnits: 1}, cf.HandleStats(1), name+": handle 1 never left its first reclaim unit")
		require.Equal(t, int64(16384), cf.HandleStats(0).HostWrites, name)
		require.Equal(t, map[int]int{0: 10240}, fileHandles(t, c, "cold.dat"), name)
	}
	require.Equal(t, ctl.SSD.FW.FTL().Stats, ext4.SSD.FW.FTL().Stats, "a hint the NVMe driver does not send changes nothing on the drive")

	waf, ctlWAF := f.Stats.WAF(), ctl.SSD.FW.FTL().Stats.WAF()
	t.Logf("WAF without hints %.3f, hints on ext4 %.3f, hints on f2fs %.3f (handle 0 %.3f, handle 1 %.3f)",
		ctlWAF, ext4.SSD.FW.FTL().Stats.WAF(), waf, h0.WAF(), h1.WAF())
	require.Less(t, waf, ctlWAF)
	require.Less(t, h0.GCWrites, ctl.SSD.FW.FTL().HandleStats(0).GCWrites)
}

// hintClassJobs writes 16 pages to each of six files, one per write_hint value (f0 none
// set), and fsyncs them.
const hintClassJobs = `[global]
ioengine=psync
bs=4k
rw=write
size=64k
end_fsync=1
[f0]
filename=f0
[f1]
filename=f1
write_hint=none
[f2]
filename=f2
write_hint=short
[f3]
filename=f3
write_hint=medium
[f4]
filename=f4
write_hint=long
[f5]
filename=f5
write_hint=extreme
`

// TestWriteHintClassesOnStreams: five hints (and none) fall into f2fs's three classes,
// and the classes onto as many of the device's streams as there are, by hand from f2fs's
// rule (pagecache.TestF2FSHintStreamTable): with 4 handles short → stream 1 (handle 0),
// not set, none, medium and long → stream 2 (handle 1), extreme → stream 3 (handle 2),
// and handle 3 is never used; with 2 handles only extreme is apart (handle 1); with 1
// handle everything shares it. Each file's 16 pages are all in its handle.
func TestWriteHintClassesOnStreams(t *testing.T) {
	for _, c := range []struct {
		handles int
		want    [6]int // handle of f0 … f5
	}{
		{4, [6]int{1, 1, 0, 1, 1, 2}},
		{2, [6]int{0, 0, 0, 0, 0, 1}},
		{1, [6]int{0, 0, 0, 0, 0, 0}},
	} {
		m := hintMachine(t, c.handles, "f2fs", hintClassJobs)
		used := make([]int64, c.handles)
		for i, h := range c.want {
			require.Equal(t, map[int]int{h: 16}, fileHandles(t, m, fmt.Sprintf("f%d", i)), "%d handles, f%d", c.handles, i)
			used[h] += 16
		}
		for h := range c.handles {
			require.Equal(t, used[h], m.SSD.FW.FTL().HandleStats(h).HostWrites, "%d handles, handle %d", c.handles, h)
		}
	}
}
