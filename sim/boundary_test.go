package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// tally is model state: a sum the events below add to.
type tally struct{ n int64 }

// adder adds Code to its tally when it fires.
type adder struct{ t *tally }

func (a *adder) HandleEvent(ev *Event) { a.t.n += ev.Code }

// boundaryLog records, at each boundary, the time the engine reads and the tally.
type boundaryLog struct {
	e   *Engine
	t   *tally
	got []string
}

func (l *boundaryLog) AtBoundary(b Time) {
	l.got = append(l.got, fmt.Sprintf("%v now=%v n=%d", b, l.e.Now(), l.t.n))
}

// TestWatchReadsAfterEveryEventAtTheBoundary works through one run by hand: boundaries
// every 10 ps from 10; events at 3 (+1), at 10 in PhaseHardware (+10) and PhaseProcess
// (+100), a PhaseStats observer at 10 (+0) and at 37 (+1,000).
func TestWatchReadsAfterEveryEventAtTheBoundary(t *testing.T) {
	e := NewEngine()
	tl := &tally{}
	a := &adder{tl}
	log := &boundaryLog{e: e, t: tl}
	e.SchedulePhase(37, PhaseDefault, a, nil, 1000)
	e.SchedulePhase(10, PhaseProcess, a, nil, 100)
	e.SchedulePhase(10, PhaseStats, a, nil, 0)
	e.SchedulePhase(10, PhaseHardware, a, nil, 10)
	e.SchedulePhase(3, PhaseDefault, a, nil, 1)
	w := e.Observe(10, 10, log)
	e.Run()
	// By hand: the boundary at 10 is read after all three events at 10 (1 + 10 + 100 =
	// 111), those at 20 and 30 in the gap before 37, still 111 (the queue jumped from 10
	// to 37 over two boundaries). 40 is after the last event: Run ends at 37 without it.
	// The engine's time reads each boundary during the call. Five events fired, no more.
	require.Equal(t, []string{"10ps now=10ps n=111", "20ps now=20ps n=111", "30ps now=30ps n=111"}, log.got)
	require.Equal(t, uint64(5), e.Fired())
	require.Equal(t, Time(37), e.Now())
	require.Equal(t, Time(40), w.Next())
	// RunUntil(55) reaches 40 and 50 (n = 1,111) with nothing to fire, and ends at 55.
	e.RunUntil(55)
	require.Equal(t, []string{"40ps now=40ps n=1111", "50ps now=50ps n=1111"}, log.got[3:])
	require.Equal(t, Time(55), e.Now())
	// Close(60) reads the boundary at 60 with the state now; later runs read none.
	w.Close(60)
	require.Equal(t, "60ps now=55ps n=1111", log.got[5])
	e.RunUntil(100)
	require.Len(t, log.got, 6)
	require.Equal(t, uint64(5), e.Fired())
	w.Close(200) // closed: nothing more
	require.Len(t, log.got, 6)
}

// openOnce attaches a watch from inside an event, the way a meter starts mid-run.
type openOnce struct {
	e   *Engine
	log *boundaryLog
	w   *Watch
}

func (o *openOnce) HandleEvent(ev *Event) { o.w = o.e.Observe(ev.Time+4, 4, o.log) }

// TestWatchAttachedMidRun: a watch attached at 5 with a 4 ps period sees 9, 13 and 17
// before the event at 18 (+7), and two watches due at the same boundary are told in the
// order they were attached.
func TestWatchAttachedMidRun(t *testing.T) {
	e := NewEngine()
	tl := &tally{}
	first := &boundaryLog{e: e, t: tl}
	o := &openOnce{e: e, log: first}
	e.Schedule(5, o, nil, 0)
	e.Schedule(18, &adder{tl}, nil, 7)
	var order []string
	e.Observe(8, 8, observerFunc(func(b Time) { order = append(order, fmt.Sprint("A", b)) }))
	e.Observe(16, 16, observerFunc(func(b Time) { order = append(order, fmt.Sprint("B", b)) }))
	e.RunUntil(20)
	require.Equal(t, []string{"9ps now=9ps n=0", "13ps now=13ps n=0", "17ps now=17ps n=0"}, first.got)
	require.Equal(t, []string{"A8ps", "A16ps", "B16ps"}, order)
	o.w.Close(21) // 21 is the next boundary: read with the state at 20
	require.Equal(t, "21ps now=20ps n=7", first.got[3])
}

// observerFunc adapts a function to BoundaryObserver.
type observerFunc func(Time)

func (f observerFunc) AtBoundary(b Time) { f(b) }

func TestObserveRejectsBadBoundaries(t *testing.T) {
	e := NewEngine()
	e.RunUntil(10)
	nop := observerFunc(func(Time) {})
	require.PanicsWithValue(t, "sim: boundary period 0s must be positive", func() { e.Observe(20, 0, nop) })
	require.PanicsWithValue(t, "sim: first boundary 5ps is before now (10ps)", func() { e.Observe(5, 1, nop) })
	w := e.Observe(20, 10, nop)
	require.PanicsWithValue(t, "sim: watch closed at 3ps, before now (10ps)", func() { w.Close(3) })
}

// TestWatchStopsWithTheEngine: a Stop inside an event ends the run before any later
// boundary, as it would before a later sampler event.
func TestWatchStopsWithTheEngine(t *testing.T) {
	e := NewEngine()
	tl := &tally{}
	log := &boundaryLog{e: e, t: tl}
	e.Observe(10, 10, log)
	e.At(15, e.Stop)
	e.Schedule(40, &adder{tl}, nil, 1)
	e.Run()
	require.Equal(t, []string{"10ps now=10ps n=0"}, log.got)
	e.Run()
	// 20 and 30 come before the event at 40; 40 is not read (Run ends with that event).
	require.Equal(t, []string{"10ps now=10ps n=0", "20ps now=20ps n=0", "30ps now=30ps n=0"}, log.got)
}

// randomModel is a model whose events change its state and schedule more events, at
// random phases and at times that often land on a boundary.
type randomModel struct {
	e     *Engine
	rng   *rand.Rand
	state int64
	left  int
}

func (m *randomModel) HandleEvent(ev *Event) {
	m.state = m.state*31 + ev.Code
	k := 1
	if m.rng.IntN(4) == 0 {
		k = 2
	}
	for ; k > 0 && m.left > 0; k-- {
		m.left--
		// 0 to 100 ps in steps of 25 (often on a 50 ps boundary), or a gap of 400 ps that
		// jumps over several boundaries.
		d := []Time{0, 25, 50, 75, 100, 400}[m.rng.IntN(6)]
		ph := []Phase{PhaseHardware, PhaseDefault, PhaseProcess}[m.rng.IntN(3)]
		m.e.SchedulePhase(m.e.Now()+d, ph, m, nil, int64(m.rng.IntN(1000)))
	}
}

// daemonProbe is the way the energy meter read its buckets before watches: a daemon in
// PhaseStats at every boundary, scheduling the next.
type daemonProbe struct {
	e      *Engine
	period Time
	read   func(Time)
}

func (d *daemonProbe) HandleEvent(ev *Event) {
	d.read(ev.Time)
	d.e.ScheduleDaemon(ev.Time+d.period, PhaseStats, d, nil, 0)
}

// TestWatchMatchesDaemon runs random models twice, once read by a PhaseStats daemon at
// every 50 ps boundary and once by a watch: the readings are the same, and the watch's run
// fires exactly one event fewer per boundary the daemon read.
func TestWatchMatchesDaemon(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		run := func(daemon bool) ([]string, uint64) {
			e := NewEngine()
			m := &randomModel{e: e, rng: rand.New(rand.NewPCG(seed, 7)), left: 400}
			var got []string
			read := func(b Time) { got = append(got, fmt.Sprintf("%v:%d@%v", b, m.state, e.Now())) }
			for i := 0; i < 4; i++ {
				e.SchedulePhase(Time(m.rng.IntN(3))*50, PhaseDefault, m, nil, int64(i))
			}
			if daemon {
				e.ScheduleDaemon(50, PhaseStats, &daemonProbe{e: e, period: 50, read: read}, nil, 0)
				e.Run()
				return got, e.Fired()
			}
			w := e.Observe(50, 50, observerFunc(read))
			e.Run()
			n := len(got)
			w.Close(e.Now()) // the boundary at the last event's time, if it is one
			require.LessOrEqual(t, len(got)-n, 1)
			return got, e.Fired()
		}
		want, firedDaemon := run(true)
		got, fired := run(false)
		require.Greater(t, len(want), 3, "seed %d", seed)
		require.Equal(t, want, got[:len(want)], "seed %d", seed)
		require.Equal(t, firedDaemon-uint64(len(want)), fired, "seed %d", seed)
	}
}

// TestEngineCloseDetachesWatches: after Close, a watch is told of nothing more, even by
// its own Close.
func TestEngineCloseDetachesWatches(t *testing.T) {
	e := NewEngine()
	log := &boundaryLog{e: e, t: &tally{}}
	w := e.Observe(10, 10, log)
	e.Close()
	e.RunUntil(100)
	w.Close(100)
	require.Empty(t, log.got)
}
