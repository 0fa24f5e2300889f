package blk

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// dispatched is one request as the fake device saw it.
type dispatched struct {
	Op     Op
	Offset int64
	Size   int64
	Bios   int
	At     sim.Time
	Tag    int
	Hint   Hint
	// WriteStream is the request's write stream.
	WriteStream uint8
	// Life is the request's write-lifetime hint.
	Life WriteHint
}

// fakeDev is a Driver that completes each request after latency(rq), optionally holding
// at most limit requests (refusing more, then restarting the queue on a completion).
type fakeDev struct {
	q       *Queue
	eng     *sim.Engine
	latency func(now sim.Time, rq *Request) sim.Time
	limit   int
	busy    int
	maxBusy int
	refused bool
	log     []dispatched
	record  bool
	err     error // every request completes with it (nil: success)
}

func (d *fakeDev) QueueRequest(now sim.Time, rq *Request) bool {
	if d.limit > 0 && d.busy >= d.limit {
		d.refused = true
		return false
	}
	d.busy++
	d.maxBusy = max(d.maxBusy, d.busy)
	if d.record {
		d.log = append(d.log, dispatched{rq.Op, rq.Offset, rq.Size, len(rq.Bios), now, rq.Tag, rq.Hint, rq.WriteStream, rq.WriteHint})
	}
	d.eng.Schedule(now+d.latency(now, rq), d, rq, 0)
	return true
}

func (d *fakeDev) HandleEvent(ev *sim.Event) {
	d.busy--
	d.q.Complete(ev.Time, ev.Data.(*Request), d.err)
	if d.refused {
		d.refused = false
		d.q.Restart(ev.Time)
	}
}

func fixed(l sim.Time) func(sim.Time, *Request) sim.Time {
	return func(sim.Time, *Request) sim.Time { return l }
}

// newTestQueue builds a queue on a fresh engine with a recording fake device.
func newTestQueue(t testing.TB, spec Spec, lat func(sim.Time, *Request) sim.Time) (*sim.Engine, *Queue, *fakeDev) {
	eng := sim.NewEngine()
	dev := &fakeDev{eng: eng, latency: lat, record: true}
	q, err := New("nvme0n1", eng, spec, dev)
	require.NoError(t, err)
	dev.q = q
	return eng, q, dev
}

// doneLog records every Done event.
type doneLog struct {
	at    map[*Bio][]sim.Time
	order []*Bio
}

func newDoneLog() *doneLog { return &doneLog{at: map[*Bio][]sim.Time{}} }

func (l *doneLog) HandleEvent(ev *sim.Event) {
	b := ev.Data.(*Bio)
	l.at[b] = append(l.at[b], ev.Time)
	l.order = append(l.order, b)
}

const kib = int64(1024)
