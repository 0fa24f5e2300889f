package bench

import (
	"runtime"
	"testing"

	"github.com/fastdrain-sim/fastdrain/platforms"
)

// BenchmarkBuild400GB builds the whole fastdrain-tlc machine with SimpleSSD's Intel 750
// 400 GB geometry (512 blocks per plane: 480 dies × 512 blocks × 512 pages of 4 KiB =
// 125.8 M pages, 480 GiB raw, 97.8 M logical pages after 22.27 % over-provisioning),
// preconditioned as the preset says (half the logical space in random order, 10 % of it
// overwritten). Targets: < 0.5 s per build and < 1 GiB resident. It reports the heap the
// machine holds ("MiB", after a collection), that per physical page ("B/page"), and each
// target over what was measured ("x-time-target": 0.5 s over the time per build;
// "x-heap-target": 1 GiB over the heap; ≥ 1: met).
func BenchmarkBuild400GB(b *testing.B) {
	heap := benchBuild(b, "flash.die.blocks_per_plane=512")
	b.ReportMetric(buildTarget/(b.Elapsed().Seconds()/float64(b.N)), "x-time-target")
	b.ReportMetric(heapTarget/float64(heap), "x-heap-target")
}

// BenchmarkBuild120GB builds the preset as it is (128 blocks per plane, a quarter of the
// 400 GB device).
func BenchmarkBuild120GB(b *testing.B) { benchBuild(b) }

// benchBuild builds the preset with sets b.N times, reports the heap a machine holds, and
// returns it in bytes.
func benchBuild(b *testing.B, sets ...string) uint64 {
	c, err := platforms.Load(platforms.Options{Preset: "fastdrain-tlc", Sets: sets})
	if err != nil {
		b.Fatal(err)
	}
	var heap uint64
	var pages int64
	for b.Loop() {
		b.StopTimer()
		runtime.GC() // the previous iteration's machine
		b.StartTimer()
		m, err := platforms.Build(c)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap = ms.HeapAlloc
		pages = int64(c.Flash.Dies()) * int64(c.Flash.Die.Planes*c.Flash.Die.BlocksPerPlane*c.Flash.Die.PagesPerBlock)
		m.Eng.Close() // ends the machine's processes, so the next collection frees it
		b.StartTimer()
	}
	b.ReportMetric(float64(heap)/(1<<20), "MiB")
	b.ReportMetric(float64(heap)/float64(pages), "B/page")
	return heap
}
