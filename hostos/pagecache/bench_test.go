package pagecache

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// BenchmarkBufferedWrite measures simulated buffered 4 KiB writes per wall-clock second
// through the page cache, dirty throttling and the flusher against a 50 µs fake device. The
// writer cycles over a 32 MiB file on a 64 MiB host with dirty_ratio 10/5, so pages are
// dirtied, throttled, written back and redirtied all the time.
func BenchmarkBufferedWrite(b *testing.B) {
	s := testSpec()
	s.Dirty.Ratio, s.Dirty.BackgroundRatio = 10, 5
	r := newRig(b, s, 50*sim.Microsecond)
	r.dev.noLog = true
	const filePages = 8192
	b.ReportAllocs()
	r.spawn("writer", func(t *Task) {
		f, _ := r.c.Create(t, "f")
		for i := 0; i < b.N; i++ {
			if _, err := r.c.Write(t, f, int64(i%filePages)*PageSize, PageSize); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.ResetTimer()
	r.eng.Run()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "writes/s")
	b.ReportMetric(float64(r.c.Stats().PagesWrittenBack)/float64(b.N), "writeback/op")
}

// BenchmarkCachedRead measures 4 KiB page-cache hits per wall-clock second.
func BenchmarkCachedRead(b *testing.B) {
	r := newRig(b, testSpec(), 50*sim.Microsecond)
	r.dev.noLog = true
	const filePages = 1024
	b.ReportAllocs()
	r.spawn("reader", func(t *Task) {
		f, _ := r.c.Create(t, "f")
		_ = r.c.Fallocate(f, filePages*PageSize)
		for i := 0; i < b.N; i++ {
			if _, err := r.c.Read(t, f, int64(i%filePages)*PageSize, PageSize); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.ResetTimer()
	r.eng.Run()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "reads/s")
}
