package nvmedrv

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// BenchmarkRequest measures simulated 4 KiB requests per wall-second through driver,
// controller and stub device, 32 in flight on one queue pair, alternating reads and
// stamped writes; each completion resubmits its request.
func BenchmarkRequest(b *testing.B) {
	const depth = 32
	r := newRig(b, DefaultSpec(), ctrlSpec(), 1)
	r.dev.keep, r.up.keep = false, false
	left := 0
	rqs := make([]*blk.Request, depth)
	for i := range rqs {
		op := blk.OpRead
		if i%2 == 1 {
			op = blk.OpWrite
		}
		off := int64(i) * 4096
		rqs[i] = &blk.Request{Op: op, Offset: off, Size: 4096, Hint: blk.Hint{Victim: op == blk.OpWrite, Pages: 100},
			Bios: []*blk.Bio{{Op: op, Offset: off, Size: 4096, Private: &Data{Stamps: []uint64{uint64(i)}}}}}
	}
	r.up.onComplete = func(now sim.Time, rq *blk.Request) {
		if left > 0 {
			left--
			if !r.d.QueueRequest(now, rq) {
				b.Fatal("refused")
			}
		}
	}
	run := func(n int) {
		left = n
		for _, rq := range rqs {
			r.d.QueueRequest(r.eng.Now(), rq)
		}
		r.eng.Run()
	}
	run(4096) // warm up: rings, buffers and the stub's stamp map exist afterwards
	b.ReportAllocs()
	b.ResetTimer()
	run(b.N)
	b.StopTimer()
	b.ReportMetric(float64(b.N+depth)/b.Elapsed().Seconds(), "reqs/s")
}
