package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestResourceAccounting(t *testing.T) {
	r := NewResource("ch[0]", "command", "data-in")
	cmd, din := r.Activity("command"), r.Activity("data-in")
	require.Equal(t, Activity(1), cmd)
	require.Equal(t, Activity(3), r.Activity("data-out"), "new names are registered in order")

	r.Occupy(100, 150, cmd) // 50 ps command
	r.Occupy(150, 400, din) // 250 ps data-in, back to back
	r.Begin(500, cmd)       // open interval
	require.Equal(t, MaxTime, r.FreeAt(600), "an open interval has no known end")
	require.Equal(t, Time(250), r.BusyAt(450, din))
	require.Equal(t, Time(250), r.BusyAt(450, din))
	require.Equal(t, Time(50+100), r.BusyAt(600, cmd), "open interval counts up to the query time")
	r.End(700)
	require.Equal(t, Time(50+200), r.BusyAt(1000, cmd))

	// Utilization over [0, 1000): command 250/1000, data-in 250/1000, idle the rest.
	s0 := NewResource("x").Snapshot(0)
	s0.Busy = make([]Time, 4)
	u := Utilization(s0, r.Snapshot(1000))
	require.InDelta(t, 0.5, u[0], 1e-12)
	require.InDelta(t, 0.25, u[cmd], 1e-12)
	require.InDelta(t, 0.25, u[din], 1e-12)

	// Window [300, 1000): data-in 100 of 700, command 200 of 700.
	u = Utilization(r.Snapshot(300), r.Snapshot(1000))
	require.InDelta(t, 100.0/700, u[din], 1e-12)
	require.InDelta(t, 200.0/700, u[cmd], 1e-12)
}

func TestResourceOccupyFutureAndOverlap(t *testing.T) {
	r := NewResource("die", "program-msb")
	p := r.Activity("program-msb")
	r.Occupy(0, 5_001*Microsecond, p)
	require.True(t, r.Busy(Millisecond))
	require.Equal(t, 5_001*Microsecond, r.FreeAt(Millisecond))
	require.Equal(t, Millisecond, r.BusyAt(Millisecond, p), "only the elapsed part counts at 1 ms")
	require.Panics(t, func() { r.Occupy(Millisecond, 2*Millisecond, p) }, "overlap is a model bug")
	r.Occupy(6*Millisecond, 7*Millisecond, p)
	require.Equal(t, 6_001*Microsecond, r.BusyAt(7*Millisecond, p))
}

func TestResourceBookingsAhead(t *testing.T) {
	// Two 640 ns transfers booked back to back at t=0 (the case the DRAM model hit): at
	// 100 ns only 100 ns have elapsed; at 700 ns, 640 + 60; at 2 µs, both in full.
	r := NewResource("dram.bus", "write")
	w := r.Activity("write")
	r.Occupy(0, 640*Nanosecond, w)
	r.Occupy(640*Nanosecond, 1280*Nanosecond, w)
	require.Equal(t, 100*Nanosecond, r.BusyAt(100*Nanosecond, w))
	require.Equal(t, 700*Nanosecond, r.BusyAt(700*Nanosecond, w))
	require.Equal(t, 1280*Nanosecond, r.BusyAt(2*Microsecond, w))
	s := r.Snapshot(100 * Nanosecond)
	require.Equal(t, Time(0), s.Busy[0], "no negative idle time")
	require.True(t, r.Busy(700*Nanosecond))
	require.False(t, r.Busy(1280*Nanosecond))
	require.Equal(t, 1280*Nanosecond, r.FreeAt(0))
	// A gap, then a booking far ahead: the gap is idle.
	r.Occupy(5*Microsecond, 6*Microsecond, w)
	require.Equal(t, 1280*Nanosecond, r.BusyAt(5*Microsecond, w))
	require.Equal(t, Idle, r.Current(3*Microsecond))
}

func TestResourceKeepsRecentIntervals(t *testing.T) {
	r := NewResource("x", "a")
	a := r.Activity("a")
	for i := 0; i < 1000; i++ {
		r.Occupy(Time(10*i), Time(10*i+5), a)
	}
	require.Equal(t, Time(5000), r.BusyAt(10_000, a))
	// The last 256 intervals are kept: a query inside them is exact, from the start of the
	// 256th last (interval 744, at 7,440: 744 intervals of 5 ps before it) on…
	require.Equal(t, Time(5*999+2), r.BusyAt(9992, a))
	require.Equal(t, Time(5*744), r.BusyAt(7440, a))
	// …and one before them is refused loudly rather than answered wrongly.
	require.Panics(t, func() { r.BusyAt(100, a) })
}

func TestResourceHook(t *testing.T) {
	r := NewResource("bus", "xfer")
	x := r.Activity("xfer")
	type iv struct{ s, e Time }
	var got []iv
	r.SetHook(func(_ *Resource, a Activity, s, e Time) {
		require.Equal(t, x, a)
		got = append(got, iv{s, e})
	})
	r.Occupy(10, 20, x)
	r.Begin(30, x)
	r.End(35)
	require.Equal(t, []iv{{10, 20}, {30, 35}}, got)
}

func TestResourceFollowingAnEngineKeepsBookingsAhead(t *testing.T) {
	// 1000 transfers booked back to back at time 0 (a deep DRAM backlog): with the engine's
	// clock the resource keeps them all, so a query inside the backlog is exact.
	e := NewEngine()
	r := NewResource("dram.bus", "read")
	r.Follow(e)
	a := r.Activity("read")
	for i := 0; i < 1000; i++ {
		r.Occupy(Time(10*i), Time(10*i+10), a)
	}
	require.Equal(t, Time(5000), r.BusyAt(5000, a))
	require.Equal(t, Time(10_000), r.BusyAt(20_000, a))
	// Once time has passed them, old intervals are let go instead of growing the ring.
	e.RunUntil(20_000)
	for i := 0; i < 1000; i++ {
		r.Occupy(Time(20_000+10*i), Time(20_000+10*i+5), a)
	}
	require.LessOrEqual(t, len(r.log), 2048)
	require.Equal(t, Time(10_000+1000*5), r.BusyAt(30_000, a)) // all of the second batch ended by 29,995
}

// TestResourceFollowingAnEngineStartsOverWhenIdle: a resource that is idle by the time it
// books again (a die, a core) folds its ended intervals at firstFold and keeps reusing the
// log's first slots, and queries at now and later stay exact: an interval still running at
// now is kept.
func TestResourceFollowingAnEngineStartsOverWhenIdle(t *testing.T) {
	e := NewEngine()
	r := NewResource("die", "read", "program")
	r.Follow(e)
	rd, pg := r.Activity("read"), r.Activity("program")
	for i := 0; i < 100; i++ {
		e.RunUntil(Time(1000 * i))
		r.Occupy(Time(1000*i+100), Time(1000*i+600), rd) // ended before the next booking
		require.LessOrEqual(t, r.n, firstFold, "booking %d", i)
		require.Equal(t, keptIntervals, len(r.log), "booking %d", i)
	}
	// By hand: 100 reads of 500 ps; at 99,300 the last one (99,100–99,600) has run 200 ps.
	e.RunUntil(99_300)
	require.Equal(t, Time(99*500+200), r.BusyAt(99_300, rd))
	// A program booked behind the running read keeps it: both count only their elapsed parts.
	r.Occupy(99_600, 100_600, pg)
	require.Equal(t, Time(99*500+200), r.BusyAt(99_300, rd))
	require.Equal(t, Time(400), r.BusyAt(100_000, pg))
	require.Equal(t, Time(100*500), r.BusyAt(100_000, rd))
}

// TestOccupyPairIsTwoOccupies records the same back-to-back pairs (zero-length halves
// included) with OccupyPair on one resource and two Occupy calls on another, and compares
// the busy time of each activity at every boundary; a pair starting before the previous
// one ends panics like Occupy.
func TestOccupyPairIsTwoOccupies(t *testing.T) {
	one, two := NewResource("pair", "tlp", "dllp"), NewResource("two", "tlp", "dllp")
	pairs := [][3]Time{{0, 100, 108}, {108, 208, 216}, {300, 300, 310}, {310, 400, 400}, {400, 500, 510}}
	for _, p := range pairs {
		one.OccupyPair(p[0], p[1], p[2], 1, 2)
		two.Occupy(p[0], p[1], 1)
		two.Occupy(p[1], p[2], 2)
	}
	for _, p := range pairs {
		for _, at := range p {
			for a := Activity(1); a <= 2; a++ {
				require.Equal(t, two.BusyAt(at, a), one.BusyAt(at, a), "activity %d at %v", a, at)
			}
		}
	}
	// By hand: tlp 100+100+0+90+100 = 390 ps, dllp 8+8+10+0+10 = 36 ps.
	require.Equal(t, Time(390), one.BusyAt(510, 1))
	require.Equal(t, Time(36), one.BusyAt(510, 2))
	require.Panics(t, func() { one.OccupyPair(505, 600, 610, 1, 2) })
	require.Panics(t, func() { one.OccupyPair(600, 590, 610, 1, 2) })
}

// TestOccupyPairMatchesTwoOccupiesFollowingAnEngine: random pairs on two resources that
// follow one engine — zero-length halves, pairs right behind the previous one (so the
// first half can follow an interval of its activity), gaps, bookings far ahead (the log
// grows) and the engine's clock passing them (ended intervals are folded) — leave both
// resources in the same state: busy time and activity at every query time from now on,
// and the end of the last interval.
func TestOccupyPairMatchesTwoOccupiesFollowingAnEngine(t *testing.T) {
	rng := NewRNG(3, "pairs")
	e := NewEngine()
	one, two := NewResource("pair", "tlp", "dllp"), NewResource("two", "tlp", "dllp")
	one.Follow(e)
	two.Follow(e)
	at := Time(0)
	for i := range 20_000 {
		if rng.IntN(8) == 0 {
			e.RunUntil(e.Now() + Time(rng.IntN(3000)))
		}
		switch rng.IntN(4) {
		case 0: // right behind the last interval
		case 1:
			at = max(at, e.Now()) + Time(rng.IntN(50))
		default:
			at += Time(rng.IntN(20))
		}
		mid := at + Time(rng.IntN(3))*Time(rng.IntN(40))
		end := mid + Time(rng.IntN(2))*Time(rng.IntN(10))
		one.OccupyPair(at, mid, end, 1, 2)
		two.Occupy(at, mid, 1)
		two.Occupy(mid, end, 2)
		start := at
		at = end
		require.LessOrEqual(t, one.dropped, e.Now(), "pair %d", i)
		require.Equal(t, two.lastEnd, one.lastEnd, "pair %d", i)
		for _, q := range []Time{e.Now(), start, (start + mid) / 2, mid, end} {
			if q < e.Now() {
				continue
			}
			require.Equal(t, two.Current(q), one.Current(q), "pair %d at %v", i, q)
			for a := Activity(1); a <= 2; a++ {
				require.Equal(t, two.BusyAt(q, a), one.BusyAt(q, a), "pair %d, activity %d at %v", i, a, q)
			}
		}
	}
}
