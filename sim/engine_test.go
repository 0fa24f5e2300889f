package sim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// recorder logs the events it receives by their Code.
type recorder struct{ log []string }

func (r *recorder) HandleEvent(ev *Event) {
	r.log = append(r.log, fmt.Sprintf("%v/%d", ev.Time, ev.Code))
}

func TestEventOrder(t *testing.T) {
	// Total order is (time, phase, scheduling sequence): the table lists events in the
	// order they are scheduled and the order they must fire.
	e := NewEngine()
	r := &recorder{}
	e.SchedulePhase(20, PhaseDefault, r, nil, 1)
	e.SchedulePhase(10, PhaseStats, r, nil, 2)
	e.SchedulePhase(10, PhaseDefault, r, nil, 3)
	e.SchedulePhase(10, PhaseHardware, r, nil, 4)
	e.SchedulePhase(10, PhaseDefault, r, nil, 5)
	e.SchedulePhase(5, PhaseStats, r, nil, 6)
	e.Run()
	require.Equal(t, []string{"5ps/6", "10ps/4", "10ps/3", "10ps/5", "10ps/2", "20ps/1"}, r.log)
	require.Equal(t, uint64(6), e.Fired())
}

func TestEventOrderManyTies(t *testing.T) {
	// 1000 events at the same time and phase fire in scheduling order, whatever the heap shape.
	e := NewEngine()
	var got []int64
	h := handlerFunc(func(ev *Event) { got = append(got, ev.Code) })
	for i := int64(0); i < 1000; i++ {
		e.Schedule(Time(7*(i%3)), h, nil, i) // three times interleaved
	}
	e.Run()
	var want []int64
	for k := int64(0); k < 3; k++ {
		for i := k; i < 1000; i += 3 {
			want = append(want, i)
		}
	}
	require.Equal(t, want, got)
}

type handlerFunc func(ev *Event)

func (f handlerFunc) HandleEvent(ev *Event) { f(ev) }

func TestRunUntilBoundary(t *testing.T) {
	e := NewEngine()
	r := &recorder{}
	e.Schedule(100, r, nil, 1)
	e.Schedule(101, r, nil, 2)
	e.RunUntil(100) // an event exactly at the limit fires
	require.Equal(t, []string{"100ps/1"}, r.log)
	require.Equal(t, Time(100), e.Now())
	e.RunUntil(150) // time advances to the limit even with nothing to do at 150
	require.Equal(t, Time(150), e.Now())
	require.Equal(t, []string{"100ps/1", "101ps/2"}, r.log)
	e.RunUntil(200)
	require.Equal(t, Time(200), e.Now())
	require.Panics(t, func() { e.RunUntil(10) })
}

type namedHandler struct{}

func (namedHandler) HandleEvent(*Event) {}
func (namedHandler) Name() string       { return "ssd.ch[0].die[1]" }

func TestPastSchedulePanics(t *testing.T) {
	e := NewEngine()
	e.At(50, func() {
		defer func() {
			msg := fmt.Sprint(recover())
			require.Contains(t, msg, "ssd.ch[0].die[1]")
			require.Contains(t, msg, "40ps")
			require.Contains(t, msg, "50ps")
		}()
		e.Schedule(40, namedHandler{}, nil, 0)
	})
	e.Run()
}

func TestStopAndDaemons(t *testing.T) {
	e := NewEngine()
	n := 0
	var tick handlerFunc
	tick = func(ev *Event) { n++; e.ScheduleDaemon(ev.Time+10, PhaseStats, tick, nil, 0) }
	e.ScheduleDaemon(0, PhaseStats, tick, nil, 0)
	e.At(35, func() {})
	e.Run() // daemons alone do not keep the run going: ticks at 0,10,20,30 fire, then 35 ends it
	require.Equal(t, 4, n)
	require.Equal(t, Time(35), e.Now())

	e2 := NewEngine()
	fired := 0
	e2.At(1, func() { fired++; e2.Stop() })
	e2.At(2, func() { fired++ })
	e2.Run()
	require.Equal(t, 1, fired)
	e2.Run() // a new Run goes on from where Stop left
	require.Equal(t, 2, fired)
}

func TestHooksSeeEveryEvent(t *testing.T) {
	e := NewEngine()
	var seen []Time
	e.AddHook(func(ev *Event) { seen = append(seen, ev.Time) })
	e.At(3, func() {})
	e.At(1, func() {})
	e.Run()
	require.Equal(t, []Time{1, 3}, seen)
}

func TestProcessOrdering(t *testing.T) {
	// Two processes that sleep the same amounts interleave in spawn order at equal times;
	// a process woken by a signal runs after the notifier blocks or returns.
	e := NewEngine()
	var log []string
	var sig Signal
	for _, name := range []string{"a", "b"} {
		e.Spawn(name, func(p *Proc) {
			for i := 0; i < 2; i++ {
				p.Sleep(10)
				log = append(log, fmt.Sprintf("%s@%v", name, p.Now()))
			}
			p.Wait(&sig)
			log = append(log, fmt.Sprintf("%s woke@%v", name, p.Now()))
		})
	}
	e.Spawn("c", func(p *Proc) {
		p.Sleep(30)
		sig.Notify()
		log = append(log, "c notified")
		p.Sleep(5)
		sig.Broadcast()
	})
	e.Run()
	require.Equal(t, []string{"a@10ps", "b@10ps", "a@20ps", "b@20ps", "c notified", "a woke@30ps", "b woke@35ps"}, log)
}

func TestProcessPanicNamesProcess(t *testing.T) {
	e := NewEngine()
	e.Spawn("ssd.fw.hil", func(p *Proc) {
		p.Sleep(7 * Nanosecond)
		panic("bad command")
	})
	defer func() {
		msg := fmt.Sprint(recover())
		require.True(t, strings.HasPrefix(msg, "sim: process ssd.fw.hil panicked at 7ns: bad command"), msg)
	}()
	e.Run()
	t.Fatal("Run should have panicked")
}

func TestCoreFIFOAndEdges(t *testing.T) {
	// A 400 MHz core (2500 ps cycles). Process a asks for 4 cycles at t=1000: it starts on
	// the edge at 2500 and ends at 2500+4·2500 = 12500. b asks for 2 cycles at t=1000 too and
	// waits: 12500 → 17500. a asks again at 12500 for 1 cycle: it queues behind b, 17500 → 20000.
	e := NewEngine()
	core := NewCore("ctrl.core[0]", NewClock(400*MHz))
	act := core.Res.Activity("parse")
	ends := map[string][]Time{}
	e.Spawn("a", func(p *Proc) {
		p.Sleep(1000)
		p.Compute(core, act, 4)
		ends["a"] = append(ends["a"], p.Now())
		p.Compute(core, act, 1)
		ends["a"] = append(ends["a"], p.Now())
	})
	e.Spawn("b", func(p *Proc) {
		p.Sleep(1000)
		p.Compute(core, act, 2)
		ends["b"] = append(ends["b"], p.Now())
	})
	e.Run()
	require.Equal(t, []Time{12500, 20000}, ends["a"])
	require.Equal(t, []Time{17500}, ends["b"])
	require.Equal(t, int64(7), core.Cycles())
	// Busy 7 cycles = 17500 ps of the 20000 ps run.
	require.Equal(t, Time(17500), core.Res.BusyAt(20000, act))
}

func TestQueueBlocksSenderWhenFull(t *testing.T) {
	e := NewEngine()
	q := NewQueue[int]("q", 1)
	var sentAt []Time
	e.Spawn("prod", func(p *Proc) {
		for i := 0; i < 3; i++ {
			q.Send(p, i)
			sentAt = append(sentAt, p.Now())
		}
	})
	e.Spawn("cons", func(p *Proc) {
		for i := 0; i < 3; i++ {
			p.Sleep(100)
			require.Equal(t, i, q.Recv(p))
		}
	})
	e.Run()
	// The first send fits at once; each later one waits for the consumer's receive 100 ps apart.
	require.Equal(t, []Time{0, 100, 200}, sentAt)
}

func TestCloseUnwindsBlockedProcesses(t *testing.T) {
	e := NewEngine()
	var sig Signal
	unwound := 0
	for i := 0; i < 3; i++ {
		e.Spawn(fmt.Sprint("waiter", i), func(p *Proc) {
			defer func() { unwound++ }()
			p.Wait(&sig) // nobody ever notifies
		})
	}
	e.Run()
	require.Equal(t, 3, e.Processes())
	e.Close()
	require.Equal(t, 3, unwound, "deferred functions ran")
	require.Equal(t, 0, e.Pending())
}

// TestPendingAcrossStop checks the queue's count and order around a taken event: Pending
// inside a handler, a Stop in the middle of a run, and scheduling from outside afterwards. Events at 10, 20, 30 ns; the one at 10 adds one at
// 15 (taking the root's place) and the one at 15 stops the run, so by hand the order is
// 10, 15, then (after 25 is added from outside) 20, 25, 30.
func TestPendingAcrossStop(t *testing.T) {
	e := NewEngine()
	var order []Time
	var pendingIn []int
	var h handlerFunc
	h = func(ev *Event) {
		order = append(order, ev.Time)
		pendingIn = append(pendingIn, e.Pending())
		switch ev.Time {
		case 10 * Nanosecond:
			e.Schedule(15*Nanosecond, h, nil, 0)
			pendingIn = append(pendingIn, e.Pending())
		case 15 * Nanosecond:
			e.Stop()
		}
	}
	for _, at := range []Time{30, 10, 20} {
		e.Schedule(at*Nanosecond, h, nil, 0)
	}
	e.Run()
	require.Equal(t, []Time{10 * Nanosecond, 15 * Nanosecond}, order)
	// In the handler at 10: 20 and 30 pending, then 15 added; at 15: 20 and 30.
	require.Equal(t, []int{2, 3, 2}, pendingIn)
	require.Equal(t, 2, e.Pending(), "after Stop: 20 and 30")
	e.Schedule(25*Nanosecond, h, nil, 0)
	require.Equal(t, 3, e.Pending())
	e.Run()
	require.Equal(t, []Time{10, 15, 20, 25, 30}, func() []Time {
		ns := make([]Time, len(order))
		for i, o := range order {
			ns[i] = o / Nanosecond
		}
		return ns
	}())
}

// TestProcIDs: processes are numbered 0, 1, 2, … in spawn order, including those spawned
// by other processes.
func TestProcIDs(t *testing.T) {
	e := NewEngine()
	var ids []int
	a := e.Spawn("a", func(p *Proc) {
		ids = append(ids, p.ID())
		c := e.Spawn("c", func(p *Proc) { ids = append(ids, p.ID()) })
		require.Equal(t, 2, c.ID())
	})
	b := e.Spawn("b", func(p *Proc) { ids = append(ids, p.ID()) })
	require.Equal(t, 0, a.ID())
	require.Equal(t, 1, b.ID())
	e.Run()
	require.Equal(t, []int{0, 1, 2}, ids)
}
