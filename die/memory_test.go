package die

import (
	"runtime"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestMemoryBytesMatchesHeap: a die of 2 planes × 256 blocks × 256 pages (131,072 pages)
// takes, by hand, 512 blocks × 30 B = 15,360 B of block state at build, and at its peak,
// every block programmed once, 131,072 × 8 B = 1,048,576 B of stamps more (plus the
// resources' interval rings). MemoryBytes must be within 10 % of the heap measured after
// building 64 of them and after programming every page (the program and erase calls go straight to
// the die, as the channel's would, one at a time).
func TestMemoryBytesMatchesHeap(t *testing.T) {
	s := DefaultSpec()
	s.Planes, s.BlocksPerPlane, s.PagesPerBlock, s.PageSize = 2, 256, 256, 4096
	build, peak := MemoryBytes(s)
	require.GreaterOrEqual(t, build, int64(15_360))
	require.GreaterOrEqual(t, peak-build, int64(1_048_576))
	heap := func() int64 {
		runtime.GC() // twice: the second frees what finalizers and the first cycle's sweep left
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	const n = 64 // dies, so the heap's own noise (tens of KiB: other tests' leftovers, GC timing) does not matter
	dies := make([]*Die, n)
	before := heap()
	for i := range dies {
		dies[i] = newDie(t, s)
	}
	built := (heap() - before) / n
	for _, d := range dies {
		now := d.Read(0, []Addr{{Plane: 0, Block: 0, Page: 0}}, make([]uint64, 1)) // allocates the rings
		for b := range s.BlocksPerPlane {
			for pg := range s.PagesPerBlock {
				now = d.Program(now, []Addr{{Plane: 0, Block: b, Page: pg}, {Plane: 1, Block: b, Page: pg}}, []uint64{1, 2})
				d.Complete(now)
			}
		}
	}
	full := (heap() - before) / n
	runtime.KeepAlive(dies)
	t.Logf("per die: build measured %d B, estimated %d B; peak measured %d B, estimated %d B", built, build, full, peak)
	require.InDelta(t, 1, float64(built)/float64(build), 0.10)
	require.InDelta(t, 1, float64(full)/float64(peak), 0.10)
}

// TestRunBytes: a run adds to a die each Resource's interval ring (one Resource with one
// plane; the array and two planes with two) and the stamps of one block a plane: by hand,
// 512 pages × 1 stamp × 8 B = 4,096 B for one plane, 2 × 384 × 4 × 8 = 24,576 B for two
// planes of 384 pages with four slots a page.
func TestRunBytes(t *testing.T) {
	rb, rp := sim.ResourceBytes(6)
	ring := rp - rb
	s := DefaultSpec()
	s.Planes, s.PagesPerBlock, s.Slots = 1, 512, 0
	require.Equal(t, ring+4096, RunBytes(s))
	s.Planes, s.PagesPerBlock, s.Slots = 2, 384, 4
	require.Equal(t, 3*ring+24_576, RunBytes(s))
}
