package blk

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// benchLoop keeps one 4 KiB bio in flight at pseudo-random 4 KiB-aligned offsets (an LCG,
// so no two queued bios are likely adjacent) until budget bios have been submitted.
type benchLoop struct {
	q      *Queue
	bio    Bio
	x      uint64
	budget *int
}

func (l *benchLoop) HandleEvent(*sim.Event) { l.submit() }

func (l *benchLoop) submit() {
	if *l.budget <= 0 {
		return
	}
	*l.budget--
	l.x = l.x*6364136223846793005 + 1442695040888963407
	l.bio.Offset = int64(l.x>>40) * 4096
	l.q.Submit(&l.bio)
}

// benchQueue measures bios per wall-second through a scheduler: 64 closed-loop submitters
// (half reads, half writes) on a fake device with a 20 µs latency.
func benchQueue(b *testing.B, sched string) {
	spec := DefaultSpec()
	spec.Scheduler = sched
	eng := sim.NewEngine()
	dev := &fakeDev{eng: eng, latency: fixed(20 * sim.Microsecond)}
	q, err := New("bench", eng, spec, dev)
	if err != nil {
		b.Fatal(err)
	}
	dev.q = q
	budget := 0
	loops := make([]*benchLoop, 64)
	for i := range loops {
		op := OpRead
		if i%2 == 1 {
			op = OpWrite
		}
		loops[i] = &benchLoop{q: q, x: uint64(i), budget: &budget}
		loops[i].bio = Bio{Op: op, Size: 4096, Done: loops[i]}
	}
	run := func(n int) {
		budget = n
		for _, l := range loops {
			l.submit()
		}
		eng.Run()
	}
	run(100000) // warm up: grow maps, rings, histograms and the event heap
	b.ReportAllocs()
	b.ResetTimer()
	run(b.N)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "bios/s")
}

func BenchmarkQueueNone(b *testing.B)  { benchQueue(b, SchedNone) }
func BenchmarkQueueKyber(b *testing.B) { benchQueue(b, SchedKyber) }
func BenchmarkQueueDeadline(b *testing.B) {
	benchQueue(b, SchedMQDeadline)
}
