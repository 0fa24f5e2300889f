package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// stepper is a chain of steps 1,000 ps apart: each step adds 1 to its tally and the next
// runs at once when Jump allows, else as a scheduled event.
type stepper struct {
	e     *Engine
	t     *tally
	steps int
}

func (s *stepper) HandleEvent(ev *Event) {
	for s.steps > 0 {
		s.steps--
		s.t.n++
		if s.steps == 0 {
			return
		}
		next := s.e.Now() + 1000
		if !s.e.Jump(next, PhaseDefault) {
			s.e.Schedule(next, s, nil, 0)
			return
		}
	}
}

// TestLateWatchCostsNoEvent works through one chain by hand: ten steps at 0, 1,000, …,
// 9,000 ps with nothing else pending. Without a watch the first step is an event and the
// other nine are Jumps: 1 event. An exact watch at 5,500 refuses the Jump from 5,000 to
// 6,000 (it must read the state at 5,500, before the step at 6,000): 2 events, the
// boundary read with n = 6 (steps 0 … 5,000). A late watch at 5,500 refuses nothing: 1
// event, as without it, and it is told of 5,500 once the chain's event has returned, with
// the engine's time reading 9,000 and n = 10.
func TestLateWatchCostsNoEvent(t *testing.T) {
	run := func(watch func(e *Engine, o BoundaryObserver) *Watch) (uint64, []string) {
		e := NewEngine()
		tl := &tally{}
		log := &boundaryLog{e: e, t: tl}
		e.Schedule(0, &stepper{e: e, t: tl, steps: 10}, nil, 0)
		if watch != nil {
			watch(e, log)
		}
		e.RunUntil(10_000)
		require.Equal(t, int64(10), tl.n)
		return e.Fired(), log.got
	}
	n, got := run(nil)
	require.Equal(t, uint64(1), n)
	require.Empty(t, got)
	n, got = run(func(e *Engine, o BoundaryObserver) *Watch { return e.Observe(5500, 100_000, o) })
	require.Equal(t, uint64(2), n)
	require.Equal(t, []string{"5.5ns now=5.5ns n=6"}, got)
	n, got = run(func(e *Engine, o BoundaryObserver) *Watch { return e.ObserveLate(5500, 100_000, o) })
	require.Equal(t, uint64(1), n)
	require.Equal(t, []string{"5.5ns now=9ns n=10"}, got)
}

// rearm re-arms its late watch from each boundary to the time in its list, and stops the
// engine at the last.
type rearm struct {
	e    *Engine
	w    *Watch
	next []Time
	got  []string
}

func (r *rearm) AtBoundary(b Time) {
	r.got = append(r.got, fmt.Sprintf("%v now=%v", b, r.e.Now()))
	if len(r.next) == 0 {
		r.e.Stop()
		return
	}
	r.w.SetNext(r.next[0])
	r.next = r.next[1:]
}

// TestSetNextRearms: a watch at 100 with period 1,000 re-armed from its boundaries to 150,
// then 2,000 (later than the period's 1,150), is told of 100, 150 and 2,000, and its Stop
// there ends Run, though an event at 5,000 keeps the run alive. SetNext from outside a run
// (or before now) moves the boundary (or panics).
func TestSetNextRearms(t *testing.T) {
	e := NewEngine()
	e.Schedule(5000, &adder{&tally{}}, nil, 1)
	r := &rearm{e: e, next: []Time{150, 2000}}
	r.w = e.ObserveLate(100, 1000, r)
	e.Run()
	require.Equal(t, []string{"100ps now=100ps", "150ps now=150ps", "2ns now=2ns"}, r.got)
	require.Equal(t, Time(2000), e.Now(), "Stop at the boundary ends the run there")
	require.Equal(t, Time(3000), r.w.Next())
	r.w.SetNext(2500)
	require.Equal(t, Time(2500), r.w.Next())
	require.Panics(t, func() { r.w.SetNext(1999) })
}

// TestSetNextFromAnEventResumes: an event at 10 moves a watch's boundary from 1,000 to 20;
// the run loop, heading for 1,000, starts again so the observer is told of 20 before the
// event at 30 fires, and the event count is unchanged (2).
func TestSetNextFromAnEventResumes(t *testing.T) {
	e := NewEngine()
	tl := &tally{}
	log := &boundaryLog{e: e, t: tl}
	w := e.ObserveLate(1000, 1000, log)
	e.At(10, func() { w.SetNext(20) })
	e.Schedule(30, &adder{tl}, nil, 5)
	e.Run()
	require.Equal(t, []string{"20ps now=20ps n=0"}, log.got)
	require.Equal(t, uint64(2), e.Fired())
}

// TestLive counts the events that keep Run going: two ordinary ones and a daemon give 2;
// after Run (which returns with the daemon still pending) 0.
func TestLive(t *testing.T) {
	e := NewEngine()
	a := &adder{&tally{}}
	e.Schedule(10, a, nil, 1)
	e.Schedule(20, a, nil, 1)
	e.ScheduleDaemon(30, PhaseStats, a, nil, 1)
	require.Equal(t, 2, e.Live())
	require.Equal(t, 3, e.Pending())
	e.Run()
	require.Equal(t, 0, e.Live())
	require.Equal(t, 1, e.Pending())
}
