package blk

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// checkDev is a fake device that checks the queue's contract on every request: tags are
// unique among requests in flight, sizes within the limit, every listed bio overlaps the
// request's range and has its operation.
type checkDev struct {
	fakeDev
	t      testing.TB
	tags   map[int]bool
	maxReq int64
}

func (d *checkDev) QueueRequest(now sim.Time, rq *Request) bool {
	if d.limit > 0 && d.busy >= d.limit {
		d.refused = true
		return false
	}
	require.False(d.t, d.tags[rq.Tag], "tag %d in use twice", rq.Tag)
	d.tags[rq.Tag] = true
	require.LessOrEqual(d.t, rq.Size, d.maxReq)
	for _, b := range rq.Bios {
		require.Equal(d.t, rq.Op, b.Op)
		require.True(d.t, b.Op == OpFlush || (b.Offset < rq.End() && rq.Offset < b.End()), "bio outside its request")
	}
	d.busy++
	d.eng.Schedule(now+d.latency(now, rq), d, rq, 0)
	return true
}

func (d *checkDev) HandleEvent(ev *sim.Event) {
	rq := ev.Data.(*Request)
	delete(d.tags, rq.Tag)
	d.fakeDev.HandleEvent(ev)
}

// FuzzQueue drives a queue with bios decoded from the input (4 bytes each: op and flags,
// offset, size, gap before the next) and checks that every bio completes exactly once and
// the queue ends empty, for every scheduler, tag depth and device limit the header picks.
func FuzzQueue(f *testing.F) {
	f.Add([]byte{0, 4, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 2, 1, 0})
	f.Add([]byte{1, 2, 3, 0, 0, 0, 200, 0, 1, 50, 200, 0, 2, 0, 0, 0, 3, 9, 1, 5})
	f.Add([]byte{2, 1, 1, 0, 0x41, 0, 3, 0, 0x81, 3, 2, 9, 1, 0, 1, 0, 5, 6, 7, 8})
	f.Fuzz(runFuzzBody)
}

// runFuzzBody is FuzzQueue's body: decode the input, run it, check the invariants.
func runFuzzBody(t *testing.T, data []byte) {
	if len(data) < 4 {
		return
	}
	spec := DefaultSpec()
	spec.Scheduler = []string{SchedNone, SchedMQDeadline, SchedKyber}[int(data[0])%3]
	spec.QueueDepth = 1 + int(data[1])%8
	spec.MaxRequestBytes = sim.Size(4096 * (1 + int(data[2])%8))
	spec.Merges = data[3]&1 == 0
	spec.Deadline.FifoBatch = 1 + int(data[3]>>1)%4
	if spec.Scheduler != SchedNone {
		spec.NrRequests = 1 + int(data[3]>>3)%16
	}
	eng := sim.NewEngine()
	eng.AddHook(func(*sim.Event) {
		if eng.Fired() > 200000 {
			panic("endless events")
		}
	})
	dev := &checkDev{t: t, tags: map[int]bool{}, maxReq: int64(spec.MaxRequestBytes)}
	dev.eng = eng
	dev.limit = int(data[1]>>4) % 4
	dev.latency = func(_ sim.Time, rq *Request) sim.Time {
		return sim.Time(1+rq.Offset%7) * sim.Microsecond
	}
	q, err := New("fuzz", eng, spec, dev)
	require.NoError(t, err)
	dev.q = q
	done := newDoneLog()
	var bios []*Bio
	at := sim.Time(0)
	for i := 4; i+4 <= len(data) && len(bios) < 200; i += 4 {
		op := Op(data[i] & 3)
		b := &Bio{Op: op, Offset: int64(data[i+1]) * 2048, Size: int64(1+data[i+2]%32) * 2048,
			Sync: data[i]&0x40 != 0, FUA: data[i]&0x80 != 0, Done: done}
		if op == OpFlush {
			b.Size = 0
		}
		bios = append(bios, b)
		eng.At(at, func() { q.Submit(b) })
		at += sim.Time(data[i+3]%4) * sim.Microsecond
	}
	eng.Run()
	for i, b := range bios {
		require.Len(t, done.at[b], 1, "bio %d completes exactly once", i)
		require.GreaterOrEqual(t, done.at[b][0], b.Issued)
	}
	require.Zero(t, q.Allocated())
	require.Zero(t, q.Waiting())
	require.Zero(t, q.InDriver())
	require.Equal(t, int64(len(bios)), q.Stats().Bios)
}
