package platforms

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// heapNow returns the live heap plus goroutine stacks after a full collection.
func heapNow() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc + ms.StackInuse)
}

// TestMemoryEstimateMatchesHeap: the resource guard's build estimate against the heap (and
// coroutine stacks) a Build really takes, measured after a full collection, for a small
// geometry (the tiny preset: 4 dies of 2 × 32 × 64 pages, 16,384 pages) and a medium one
// (fastdrain-small: 16 dies of 512 × 512 pages, 4,194,304 pages, preconditioned half full),
// and one of many dies, where the per-die structures weigh most (the tiny die on 64
// channels × 64 dies: 4,096 dies, 16,777,216 pages), and one whose host driver weighs
// most (5 queue pairs of 2,047 command slots, each with a 1 MiB DMA buffer and one PRP list
// page: by hand 5 × 2,047 × (256 + 1) = 2,630,395 pages of host address space, 21 MB of
// page table at 8 B a page).
// The structures the estimate works out (MemoryEstimate.Heap: allocated, written or not)
// must be within 10 % of what was measured, less up to smallStructures for what it counts
// flat (the host model's queues and request pools, the controller, the engine: 3.6 MiB for
// tiny, by a heap profile). The medium build is dominated by the FTL's two maps, by hand
// 3,260,232 logical × 4 B + 4,194,304 physical × 4 B = 29,817,944 B.
func TestMemoryEstimateMatchesHeap(t *testing.T) {
	const smallStructures = 8 << 20
	cases := []struct {
		name, preset string
		sets         []string
	}{
		{"tiny", "tiny", nil},
		{"fastdrain-small", "fastdrain-small", nil},
		{"4096-dies", "tiny", []string{"flash.channels=64", "flash.ways=64", "precondition.fill=0"}},
		{"deep-host-queues", "tiny", []string{"host.nvme.queues=5", "host.nvme.queue_depth=2048",
			"host.nvme.max_transfer=1MiB", "nvme.max_transfer=1048576"}},
	}
	for _, cs := range cases {
		preset := cs.name
		t.Run(cs.name, func(t *testing.T) {
			c, err := Load(Options{Preset: cs.preset, Sets: cs.sets})
			require.NoError(t, err)
			e := c.EstimateMemory()
			before := heapNow()
			m, err := Build(c)
			require.NoError(t, err)
			got := heapNow() - before
			runtime.KeepAlive(m)
			m.Eng.Close()
			structures := e.Heap
			t.Logf("%s: measured %d B; estimated structures %d B + up to %d B uncounted", preset, got, structures, smallStructures)
			require.GreaterOrEqual(t, float64(got), 0.9*float64(structures), "the estimate counts more than is allocated")
			require.LessOrEqual(t, float64(got), 1.1*float64(structures)+smallStructures, "more is allocated than the estimate counts")
			if preset == "fastdrain-small" {
				require.Greater(t, structures, int64(29_817_944))
			}
		})
	}
}

// TestCheckMemory: a configuration over limits.memory is refused with the field path, the
// estimate and the limit; under it, accepted. The tiny preset's estimate (≈ 25 MiB at its
// peak, most of it the program) is over a 1 MiB limit and under 1 GiB. fastdrain-small with
// blocks_per_plane 524287 (16 × 524,287 × 512 = 4,294,959,104 pages), preconditioned half
// full with 10 % overwrites, writes by hand 0.5 × 3,338,471,712 = 1,669,235,856 map entries
// and 1.1 × that = 1,836,159,441 reverse-map entries, 4 B each: 13.1 GiB of touched maps, so
// it is refused at an 8 GiB limit (the whole maps, 29.0 GiB, were counted before issue 38,
// and a machine that held the touched ones was refused).
func TestCheckMemory(t *testing.T) {
	_, err := Load(Options{Preset: "tiny", Sets: []string{"limits.memory=1MiB"}})
	require.ErrorContains(t, err, "limits.memory: the configuration needs an estimated ")
	require.ErrorContains(t, err, "the limit is 1.0 MiB (limits.memory)")
	_, err = Load(Options{Preset: "tiny", Sets: []string{"limits.memory=1GiB"}})
	require.NoError(t, err)
	_, err = Load(Options{Preset: "fastdrain-small", Sets: []string{"limits.memory=8GiB", "flash.die.blocks_per_plane=524287"}})
	require.ErrorContains(t, err, "limits.memory: the configuration needs an estimated 13.4 GiB of memory at its peak (13.4 GiB at build)")
	require.ErrorContains(t, err, "firmware (FTL maps of 3338471712 logical and 4294959104 physical pages as preconditioned, buffer, per-die state) 13.2 GiB")
	_, err = Load(Options{Preset: "fastdrain-small", Sets: []string{"limits.memory=16GiB", "flash.die.blocks_per_plane=524287"}})
	require.NoError(t, err, "the touched maps fit 16 GiB")
	c, err := Decode(Source{"t", []byte("limits: {memory: 1MiB}")})
	require.NoError(t, err)
	_, err = Build(c)
	require.ErrorContains(t, err, "limits.memory: ", "Build checks too")
}
