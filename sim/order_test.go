package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// orderLog logs the events it receives and, for some, schedules more from inside the
// handler (at now and later, in every phase), the way models do. With ref set it runs on
// the reference queue instead of the engine.
type orderLog struct {
	e     *Engine
	rng   *RNG
	fired []int64
	spawn int
	ref   *refQueue
	next  int64
	bits  int  // delays up to 2^bits ps (0: under 50 ps)
	jump  bool // the last event a handler schedules runs at once when Engine.Jump allows
	jumps int  // events run that way
}

// refQueue is the reference model: a plain list scanned for the least (time, phase,
// scheduling order), the documented total order.
type refQueue struct {
	evs []refEvent
	seq uint64
}

type refEvent struct {
	t   Time
	ph  Phase
	seq uint64
	id  int64
}

func (q *refQueue) pop() (refEvent, bool) {
	if len(q.evs) == 0 {
		return refEvent{}, false
	}
	best := 0
	for i, ev := range q.evs {
		b := q.evs[best]
		if ev.t < b.t || ev.t == b.t && (ev.ph < b.ph || ev.ph == b.ph && ev.seq < b.seq) {
			best = i
		}
	}
	ev := q.evs[best]
	q.evs = append(q.evs[:best], q.evs[best+1:]...)
	return ev, true
}

var phases = []Phase{PhaseHardware, PhaseDefault, PhaseProcess, PhaseProcess + 1, PhaseStats}

func (r *orderLog) schedule(t Time, ph Phase) {
	id := r.next
	r.next++
	if r.ref != nil {
		r.ref.seq++
		r.ref.evs = append(r.ref.evs, refEvent{t: t, ph: ph, seq: r.ref.seq, id: id})
		return
	}
	r.e.SchedulePhase(t, ph, r, nil, id)
}

func (r *orderLog) fire(now Time, id int64) {
	r.fired = append(r.fired, id)
	for k := r.rng.IntN(3); k > 0; k-- {
		if r.spawn == 0 {
			return
		}
		r.spawn--
		d := Time(0)
		switch {
		case r.rng.IntN(2) != 0:
		case r.bits > 0:
			d = Time(r.rng.Int64N(1 << uint(1+r.rng.IntN(r.bits))))
		default:
			d = Time(r.rng.IntN(50))
		}
		t, ph := now+d, phases[r.rng.IntN(len(phases))]
		if k == 1 && r.jump && r.ref == nil && r.e.Jump(t, ph) {
			// The handler's last step: run it now, as the event would have run.
			if r.e.Now() != t {
				panic("Jump did not move the clock")
			}
			r.jumps++
			r.next++
			r.fire(t, r.next-1)
			return
		}
		r.schedule(t, ph)
	}
}

func (r *orderLog) HandleEvent(ev *Event) { r.fire(ev.Time, ev.Code) }

// TestEventOrderAgainstReference: events scheduled at random times and phases, many at the
// current time from inside handlers (the engine's FIFO path, including phases below the
// one firing) and many in the future (all within one window of its time queue), fire in
// exactly the order of the reference queue.
func TestEventOrderAgainstReference(t *testing.T) {
	checkOrder(t, 0, func(e *Engine, _ uint64) {
		e.Run()
		require.Zero(t, e.Pending())
	})
}

// checkOrder runs, for 20 seeds, 200 events at random times (under 100 ps, or under 2^bits
// ps if bits > 0) and phases that schedule 3,000 more from their handlers (delays under
// 50 ps, or of up to bits bits), once on the reference queue and once on an engine driven
// by drive, and requires the same firing order.
func checkOrder(t *testing.T, bits int, drive func(e *Engine, seed uint64)) {
	t.Helper()
	checkOrderJump(t, bits, false, drive)
}

// checkOrderJump is checkOrder, with the handlers' last events run at once where
// Engine.Jump allows if jump is set; it returns how many were.
func checkOrderJump(t *testing.T, bits int, jump bool, drive func(e *Engine, seed uint64)) int {
	t.Helper()
	jumps := 0
	for seed := uint64(1); seed <= 20; seed++ {
		run := func(ref *refQueue) []int64 {
			e := NewEngine()
			r := &orderLog{e: e, rng: NewRNG(seed, "order"), spawn: 3000, ref: ref, bits: bits, jump: jump}
			defer func() { jumps += r.jumps }()
			for range 200 {
				at := Time(r.rng.IntN(100))
				if bits > 0 {
					at = Time(r.rng.Int64N(1 << uint(bits)))
				}
				r.schedule(at, phases[r.rng.IntN(len(phases))])
			}
			if ref == nil {
				drive(e, seed)
				return r.fired
			}
			for ev, ok := ref.pop(); ok; ev, ok = ref.pop() {
				r.fire(ev.t, ev.id)
			}
			return r.fired
		}
		want := run(&refQueue{})
		require.Len(t, want, 3200)
		require.Equal(t, want, run(nil), "seed %d", seed)
	}
	return jumps
}

// TestJumpKeepsTheOrder: handlers that run their last scheduled event at once whenever
// Engine.Jump allows it fire every event in the reference queue's order, with delays
// within one window of the time queue, across its wheel (up to 2^26 ps) and into its coarse
// wheel and far queue (2^36 ps), and with RunUntil stopping at boundaries.
func TestJumpKeepsTheOrder(t *testing.T) {
	for _, bits := range []int{0, 12, 26, 36} {
		n := checkOrderJump(t, bits, true, func(e *Engine, _ uint64) {
			e.Run()
			require.Zero(t, e.Pending())
		})
		n += checkOrderJump(t, bits, true, func(e *Engine, seed uint64) {
			step := Time(1) << uint(max(bits-4, 4))
			for e.Pending() > 0 {
				e.RunUntil(e.Now() + step)
			}
		})
		t.Logf("delays up to 2^%d ps: %d events run by Jump", bits, n)
		if bits > 12 {
			// 3,200 events within 4 ns crowd the time queue's window: no jump then.
			require.NotZero(t, n, "bits %d: no event was run by Jump", bits)
		}
	}
}

// TestJumpRefuses: Jump says no when an event comes first (earlier, or at the same time in
// the same or a lower phase), past the run's limit and from a process, and says yes and
// moves the clock when nothing comes first.
func TestJumpRefuses(t *testing.T) {
	e := NewEngine()
	h := &nopHandler{}
	var got []bool
	e.At(100, func() {
		e.SchedulePhase(150, PhaseDefault, h, nil, 0)
		got = append(got,
			e.Jump(200, PhaseDefault),  // after the event at 150
			e.Jump(150, PhaseDefault),  // same time and phase: the pending one is first
			e.Jump(150, PhaseHardware)) // a lower phase: it would go first
		require.Equal(t, Time(150), e.Now())
	})
	e.At(300, func() {
		e.SchedulePhase(400, PhaseDefault, h, nil, 0)
		got = append(got, e.Jump(350, PhaseProcess))
		require.Equal(t, Time(350), e.Now())
	})
	e.At(1000, func() {
		got = append(got, e.Jump(1e9, PhaseDefault)) // past RunUntil's limit
	})
	e.Spawn("p", func(p *Proc) {
		p.Sleep(2e6)
		got = append(got, e.Jump(2e6+1, PhaseDefault)) // from a process
	})
	e.RunUntil(1e6)
	e.Run()
	require.Equal(t, []bool{false, false, true, true, false, false}, got)
	require.Equal(t, 2, h.n)
}

// TestPendingCountsBothQueues: Pending counts events for now and for later.
func TestPendingCountsBothQueues(t *testing.T) {
	e := NewEngine()
	h := &nopHandler{}
	e.Schedule(0, h, nil, 0)
	e.SchedulePhase(0, PhaseHardware, h, nil, 0) // lower phase after a higher one: the heap
	e.Schedule(5, h, nil, 0)
	require.Equal(t, 3, e.Pending())
	e.RunUntil(0)
	require.Equal(t, 2, h.n)
	require.Equal(t, 1, e.Pending())
	e.Run()
	require.Equal(t, 3, h.n)
}

// TestNotifyAtDefersTheWakeUp: a waiter notified with NotifyAt(t) resumes at t, and a time
// in the past means now.
func TestNotifyAtDefersTheWakeUp(t *testing.T) {
	e := NewEngine()
	var s Signal
	var woke []Time
	for range 2 {
		e.Spawn("w", func(p *Proc) {
			p.Wait(&s)
			woke = append(woke, p.Now())
		})
	}
	e.At(10, func() { s.NotifyAt(25) })
	e.At(30, func() { s.NotifyAt(5) })
	e.Run()
	require.Equal(t, []Time{25, 30}, woke)
}

// TestCoreBook: work booked by events queues behind work booked by processes, in arrival
// order, each starting on a clock edge: a 1 GHz core (1000 ps cycles).
func TestCoreBook(t *testing.T) {
	e := NewEngine()
	c := NewCore("cpu", NewClock(1_000_000_000))
	act := c.Res.Activity("work")
	var end Time
	e.Spawn("p", func(p *Proc) {
		p.Sleep(500)         // arrives mid-cycle: starts on the edge at 1000
		p.Compute(c, act, 3) // 1000 → 4000
		end = p.Now()
	})
	var booked Time
	e.At(600, func() { booked = c.Book(600, act, 2) }) // behind the process: 4000 → 6000
	e.Run()
	require.Equal(t, Time(4000), end)
	require.Equal(t, Time(6000), booked)
	require.Equal(t, int64(5), c.Cycles())
	require.Equal(t, int64(2), c.Services())
	require.Equal(t, Time(600), c.Book(600, act, 0), "no work: returns the arrival time")
}

// TestCoreBookMatchesDefinition books random work on cores with a whole-picosecond period
// (400 MHz: 2500 ps) and a fractional one (3 GHz), with intervals recorded directly on the
// core's resource in between, and checks every Book against its definition: start at the
// first edge at or after max(now, end of booked work), end n cycles after that edge.
func TestCoreBookMatchesDefinition(t *testing.T) {
	for _, f := range []Freq{400 * MHz, 3 * GHz} {
		c := NewCore("cpu", NewClock(f))
		act := c.Res.Activity("work")
		other := c.Res.Activity("other")
		rng := NewRNG(7, "book")
		now := Time(0)
		for i := range 20_000 {
			now += Time(rng.IntN(6000))
			if rng.IntN(8) == 0 {
				// Work recorded by someone else, ending off the clock's edges.
				s := max(now, c.Res.FreeAt(now))
				c.Res.Occupy(s, s+Time(1+rng.IntN(3000)), other)
				continue
			}
			n := int64(rng.IntN(5))
			free := c.Res.FreeAt(now)
			wantStart := c.Clock.NextEdge(max(now, free))
			want := c.Clock.Edge(c.Clock.EdgeIndex(wantStart) + n)
			if n == 0 {
				want = now
			}
			if got := c.Book(now, act, n); got != want {
				t.Fatalf("%v step %d: Book(%v, %d) = %v, want %v", f, i, now, n, got, want)
			}
		}
	}
}

// TestEventOrderWideTimes: as TestEventOrderAgainstReference, with delays from 0 to 2^40 ps
// (so the far queue's radix heap fills and empties at every level, and its keys move to
// the wheel) and the engine driven by RunUntil in steps of random length (which moves its
// clock, and the queue's window, past stretches with no events). The order is the
// reference's.
func TestEventOrderWideTimes(t *testing.T) {
	checkOrder(t, 40, func(e *Engine, seed uint64) {
		steps := NewRNG(seed, "steps")
		for e.Pending() > 0 {
			e.RunUntil(e.Now() + Time(steps.Int64N(1<<uint(steps.IntN(42)))))
		}
	})
}

// TestEventOrderWheelTimes: delays of up to 2^28 ps, four times the time queue's wheel, so
// events land in the current window, in wheel slots all round it (wrapping) and in the far
// queue, and move between them; driven by Run, then by RunUntil steps. The order is the
// reference's.
func TestEventOrderWheelTimes(t *testing.T) {
	checkOrder(t, 28, func(e *Engine, _ uint64) {
		e.Run()
		require.Zero(t, e.Pending())
	})
	checkOrder(t, 28, func(e *Engine, seed uint64) {
		steps := NewRNG(seed, "steps")
		for e.Pending() > 0 {
			e.RunUntil(e.Now() + Time(steps.Int64N(1<<uint(steps.IntN(30)))))
		}
	})
}
