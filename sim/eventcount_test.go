package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// twoKinds is a handler of two event kinds told apart by Code.
type twoKinds struct{}

func (twoKinds) HandleEvent(*Event) {}

func (twoKinds) EventKind(ev *Event) string {
	if ev.Code == 0 {
		return "even"
	}
	return "odd"
}

// oneKind is a handler without EventKind.
type oneKind struct{}

func (*oneKind) HandleEvent(*Event) {}

func TestEventCounterByHandlerKindAndPool(t *testing.T) {
	// Worked by hand: five twoKinds events (codes 0,1,0,1,0: three "even", two "odd"), two
	// oneKind events, and two processes of one pool ("w1", "w2" count as "wN") that each
	// sleep twice: a spawned process fires once to start and once per Sleep, so 2 × 3 = 6
	// process events; plus one event fired before counting starts, not counted. Total 13.
	e := NewEngine()
	e.Schedule(0, &oneKind{}, nil, 0) // fires before counting
	e.Run()
	c := e.CountEvents()
	for i := range 5 {
		e.Schedule(Time(10+i), twoKinds{}, nil, int64(i%2))
	}
	o := &oneKind{}
	e.Schedule(20, o, nil, 0)
	e.Schedule(21, o, nil, 0)
	for _, n := range []string{"w1", "w2"} {
		e.Spawn(n, func(p *Proc) { p.Sleep(5); p.Sleep(5) })
	}
	e.Run()
	require.Equal(t, []EventCount{
		{Package: "sim", Handler: "oneKind", N: 2},
		{Package: "sim", Handler: "twoKinds", Kind: "even", N: 3},
		{Package: "sim", Handler: "twoKinds", Kind: "odd", N: 2},
		{Package: "sim", Handler: "wN", N: 6},
	}, c.Counts())
	require.Equal(t, uint64(13), c.Total())
}

func TestPoolName(t *testing.T) {
	require.Equal(t, "fio/randwrite/N/wN", poolName("fio/randwrite/0/w17"))
	require.Equal(t, "flush", poolName("flush"))
}

// taskStep is a handler that is one named step of a task (TaskStepper).
type taskStep struct{ task, step string }

func (*taskStep) HandleEvent(*Event) {}

func (s *taskStep) TaskStep() (string, string) { return s.task, s.step }

func TestEventCounterTaskSteps(t *testing.T) {
	// Worked by hand: steps of two tasks share one handler type; each (task, step) is a line
	// of its own under the task's name: worker/start twice, worker/read once, gc/read once
	// (the same step name under another task is another line). Total 4.
	e := NewEngine()
	c := e.CountEvents()
	start, read, gcRead := &taskStep{"worker", "start"}, &taskStep{"worker", "read"}, &taskStep{"gc", "read"}
	for i, h := range []*taskStep{start, read, start, gcRead} {
		e.Schedule(Time(i), h, nil, 0)
	}
	e.Run()
	require.Equal(t, []EventCount{
		{Package: "sim", Handler: "gc", Kind: "read", N: 1},
		{Package: "sim", Handler: "worker", Kind: "read", N: 1},
		{Package: "sim", Handler: "worker", Kind: "start", N: 2},
	}, c.Counts())
	require.Equal(t, uint64(4), c.Total())
}
