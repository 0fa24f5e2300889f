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
	// Plain comparisons, not require: this runs for every request of every fuzz input, and
	// require's t.Helper stack walks and eager formatting made up most of an execution.
	if d.tags[rq.Tag] {
		d.t.Fatalf("tag %d in use twice", rq.Tag)
	}
	d.tags[rq.Tag] = true
	if rq.Size > d.maxReq {
		d.t.Fatalf("request of %d bytes over the %d-byte limit", rq.Size, d.maxReq)
	}
	for _, b := range rq.Bios {
		if b.Op != rq.Op {
			d.t.Fatalf("%v bio in a %v request", b.Op, rq.Op)
		}
		if b.Op != OpFlush && (b.Offset >= rq.End() || rq.Offset >= b.End()) {
			d.t.Fatalf("bio [%d, %d) outside its request [%d, %d)", b.Offset, b.End(), rq.Offset, rq.End())
		}
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

// FuzzQueue drives a queue with bios decoded from the input (4 bytes each: op and flags —
// sync 0x40, FUA 0x80, REQ_IDLE 0x20, REQ_BACKGROUND 0x10 —, offset, size, gap before the
// next; header byte 2's top bits turn the write cache (0x40) and writeback throttling
// (0x80) off) and checks that every bio completes exactly once and
// the queue ends empty, for every scheduler, tag depth and device limit the header picks.
// At most fuzzMaxBios bios are decoded, so an execution takes well under a millisecond.
func FuzzQueue(f *testing.F) {
	f.Add([]byte{0, 4, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 2, 1, 0})
	f.Add([]byte{1, 2, 3, 0, 0, 0, 200, 0, 1, 50, 200, 0, 2, 0, 0, 0, 3, 9, 1, 5})
	f.Add([]byte{2, 1, 1, 0, 0x41, 0, 3, 0, 0x81, 3, 2, 9, 1, 0, 1, 0, 5, 6, 7, 8})
	f.Fuzz(runFuzzBody)
}

// fuzzMaxBios bounds the bios one FuzzQueue input submits: 64 is 4× the largest
// nr_requests (16) and 8× the largest tag depth (8) the header can pick, so inputs still
// fill the queue, wait for requests and merge, while an execution stays short (at 200 it
// took 1–3 ms, and Go's 60 s minimization of each new input stalled the fuzzer for minutes).
const fuzzMaxBios = 64

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
	// Writeback throttling on (default 2 ms) or off, with or without a write cache.
	spec.WriteCache = WriteCacheOn
	if data[2]&0x40 != 0 {
		spec.WriteCache = WriteCacheOff
	}
	if data[2]&0x80 != 0 {
		spec.WBTLat = 0
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
	for i := 4; i+4 <= len(data) && len(bios) < fuzzMaxBios; i += 4 {
		op := Op(data[i] & 3)
		b := &Bio{Op: op, Offset: int64(data[i+1]) * 2048, Size: int64(1+data[i+2]%32) * 2048,
			Sync: data[i]&0x40 != 0, FUA: data[i]&0x80 != 0, Idle: data[i]&0x20 != 0,
			Background: data[i]&0x10 != 0, Done: done}
		if op == OpFlush {
			b.Size = 0
		}
		bios = append(bios, b)
		eng.At(at, func() { q.Submit(b) })
		at += sim.Time(data[i+3]%4) * sim.Microsecond
	}
	eng.Run()
	for i, b := range bios {
		if at := done.at[b]; len(at) != 1 || at[0] < b.Issued {
			t.Fatalf("bio %d issued at %v completes at %v, want exactly once after issue", i, b.Issued, at)
		}
	}
	require.Zero(t, q.Allocated())
	require.Zero(t, q.Waiting())
	require.Zero(t, q.InDriver())
	inflight, waiting := q.WBTInflight()
	require.Zero(t, inflight, "wbt slots left held")
	require.Zero(t, waiting, "bios left waiting in wbt")
	require.Equal(t, int64(len(bios)), q.Stats().Bios)
}
