package sim

import "testing"

type nopHandler struct{ n int }

func (h *nopHandler) HandleEvent(*Event) { h.n++ }

// BenchmarkEvent measures one event scheduled and fired with 1000 other events pending.
// Target (issue 2): ≤ 50 ns and 0 allocations per event.
func BenchmarkEvent(b *testing.B) {
	e := NewEngine()
	h := &nopHandler{}
	for i := 0; i < 1000; i++ {
		e.ScheduleDaemon(MaxTime-1, PhaseDefault, h, nil, 0)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.Schedule(e.Now()+Time(i%64), h, nil, 0)
		e.RunUntil(e.Now() + Time(i%64))
	}
}

// BenchmarkEventBurst schedules 1024 events at spread times and then fires them all.
func BenchmarkEventBurst(b *testing.B) {
	e := NewEngine()
	h := &nopHandler{}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += 1024 {
		now := e.Now()
		for j := 0; j < 1024; j++ {
			e.Schedule(now+Time((j*7919)%1000), h, nil, int64(j))
		}
		e.Run()
	}
}

// BenchmarkProcSwitch measures one process sleep-and-resume (two coroutine switches and one
// event). Target (issue 2): ≤ 200 ns per switch.
func BenchmarkProcSwitch(b *testing.B) {
	e := NewEngine()
	n := b.N
	e.Spawn("sleeper", func(p *Proc) {
		for i := 0; i < n; i++ {
			p.Sleep(1)
		}
	})
	b.ReportAllocs()
	b.ResetTimer()
	e.Run()
}

// BenchmarkQueuePingPong measures a send and receive between two processes.
func BenchmarkQueuePingPong(b *testing.B) {
	e := NewEngine()
	q := NewQueue[int]("q", 1)
	n := b.N
	e.Spawn("prod", func(p *Proc) {
		for i := 0; i < n; i++ {
			q.Send(p, i)
		}
	})
	e.Spawn("cons", func(p *Proc) {
		for i := 0; i < n; i++ {
			q.Recv(p)
		}
	})
	b.ReportAllocs()
	b.ResetTimer()
	e.Run()
}

// BenchmarkHistogramRecord measures one latency sample.
func BenchmarkHistogramRecord(b *testing.B) {
	var h Histogram
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h.Record(int64(i) * 997)
	}
}

// mixHandler keeps the queue in the shape the whole-stack benchmarks give it: every event it
// receives schedules one more, near (2^10 to 2^24 ps ahead, log-uniform: controller, host and
// channel steps) or, for one in twenty, far (2^30 to 2^31 ps: flash programs), until left
// runs out.
type mixHandler struct {
	e    *Engine
	rng  *RNG
	left int
}

func (h *mixHandler) HandleEvent(*Event) {
	if h.left--; h.left <= 0 {
		h.e.Stop()
		return
	}
	var d Time
	if h.rng.IntN(20) == 0 {
		d = 1<<30 + Time(h.rng.Int64N(1<<30))
	} else {
		b := 10 + h.rng.IntN(14)
		d = 1<<b + Time(h.rng.Int64N(1<<b))
	}
	h.e.Schedule(h.e.Now()+d, h, nil, 0)
}

// BenchmarkEventMix measures one event fired and one scheduled with ≈ 40 near and ≈ 480 far
// events pending, at the spread of delays of the whole-stack write benchmark (the random
// draws included: ≈ 10 ns).
func BenchmarkEventMix(b *testing.B) {
	e := NewEngine()
	h := &mixHandler{e: e, rng: NewRNG(1, "mix"), left: b.N}
	for range 480 {
		e.Schedule(1<<30+Time(h.rng.Int64N(1<<30)), h, nil, 0)
	}
	for range 40 {
		e.Schedule(Time(h.rng.Int64N(1<<20)), h, nil, 0)
	}
	b.ReportAllocs()
	b.ResetTimer()
	e.Run()
}
