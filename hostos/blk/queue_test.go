package blk

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestMerging checks bio merging on bios all submitted at time 0, before the dispatch
// event runs, with the none scheduler and the default 512 KiB request limit.
func TestMerging(t *testing.T) {
	type bio struct {
		op       Op
		off, len int64 // KiB
		fua      bool
	}
	type req struct {
		op        Op
		off, size int64 // KiB
		bios      int
	}
	seq := func(op Op, n int, len int64) []bio {
		var bs []bio
		for i := range n {
			bs = append(bs, bio{op, int64(i) * len, len, false})
		}
		return bs
	}
	cases := []struct {
		name   string
		bios   []bio
		want   []req
		merges bool
	}{
		// 16 × 64 KiB = 1 MiB: 8 bios fill 512 KiB, the 9th starts a new request.
		{"back merges stop at max size", seq(OpWrite, 16, 64),
			[]req{{OpWrite, 0, 512, 8}, {OpWrite, 512, 512, 8}}, true},
		// 5 × 128 KiB: 4 fill 512 KiB, the 5th stays alone.
		{"remainder request", seq(OpRead, 5, 128),
			[]req{{OpRead, 0, 512, 4}, {OpRead, 512, 128, 1}}, true},
		{"read after write never merges", []bio{{OpWrite, 0, 4, false}, {OpRead, 4, 4, false}},
			[]req{{OpWrite, 0, 4, 1}, {OpRead, 4, 4, 1}}, true},
		{"write after read never merges", []bio{{OpRead, 0, 4, false}, {OpWrite, 4, 4, false}},
			[]req{{OpRead, 0, 4, 1}, {OpWrite, 4, 4, 1}}, true},
		{"front merge", []bio{{OpWrite, 4, 4, false}, {OpWrite, 0, 4, false}},
			[]req{{OpWrite, 0, 8, 2}}, true},
		// The middle bio back-merges into [0,4) and the grown request then absorbs [8,12).
		{"request-request merge", []bio{{OpWrite, 0, 4, false}, {OpWrite, 8, 4, false}, {OpWrite, 4, 4, false}},
			[]req{{OpWrite, 0, 12, 3}}, true},
		{"gap does not merge", []bio{{OpWrite, 0, 4, false}, {OpWrite, 8, 4, false}},
			[]req{{OpWrite, 0, 4, 1}, {OpWrite, 8, 4, 1}}, true},
		{"FUA never merges", []bio{{OpWrite, 0, 4, false}, {OpWrite, 4, 4, true}},
			[]req{{OpWrite, 0, 4, 1}, {OpWrite, 4, 4, 1}}, true},
		// A 1280 KiB bio is split into 512 + 512 + 256 KiB.
		{"split", []bio{{OpWrite, 0, 1280, false}},
			[]req{{OpWrite, 0, 512, 1}, {OpWrite, 512, 512, 1}, {OpWrite, 1024, 256, 1}}, true},
		{"merges off", []bio{{OpWrite, 0, 4, false}, {OpWrite, 4, 4, false}},
			[]req{{OpWrite, 0, 4, 1}, {OpWrite, 4, 4, 1}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec := DefaultSpec()
			spec.Merges = c.merges
			eng, q, dev := newTestQueue(t, spec, fixed(100*sim.Microsecond))
			done := newDoneLog()
			var bios []*Bio
			for _, b := range c.bios {
				bio := &Bio{Op: b.op, Offset: b.off * kib, Size: b.len * kib, FUA: b.fua, Done: done}
				bios = append(bios, bio)
				q.Submit(bio)
			}
			eng.Run()
			var got []req
			for _, d := range dev.log {
				got = append(got, req{d.Op, d.Offset / kib, d.Size / kib, d.Bios})
			}
			require.Equal(t, c.want, got)
			// Every request dispatched at 0 completes 100 µs later, and so does every
			// bio, exactly once.
			for _, b := range bios {
				require.Equal(t, []sim.Time{100 * sim.Microsecond}, done.at[b])
				require.NoError(t, b.Err)
			}
			require.Equal(t, 0, q.Allocated())
		})
	}
}

// TestMergedHint: a merged request is a victim write if any bio is, with the largest
// remaining-page count.
func TestMergedHint(t *testing.T) {
	eng, q, dev := newTestQueue(t, DefaultSpec(), fixed(sim.Microsecond))
	q.Submit(&Bio{Op: OpWrite, Offset: 0, Size: 4096, Hint: Hint{Victim: true, Pages: 3}})
	q.Submit(&Bio{Op: OpWrite, Offset: 4096, Size: 4096, Hint: Hint{Victim: true, Pages: 2}})
	q.Submit(&Bio{Op: OpWrite, Offset: 8192, Size: 4096})
	eng.Run()
	require.Len(t, dev.log, 1)
	require.Equal(t, Hint{Victim: true, Pages: 3}, dev.log[0].Hint)
}

// TestTagDepth: with 4 tags and 10 reads at time 0 on a 100 µs device, reads go out in
// waves of 4, 4 and 2 at 0, 100 and 200 µs, and complete 100 µs later each.
func TestTagDepth(t *testing.T) {
	spec := DefaultSpec()
	spec.QueueDepth = 4
	eng, q, dev := newTestQueue(t, spec, fixed(100*sim.Microsecond))
	require.Equal(t, 4, q.NrRequests(), "none: nr_requests = queue depth")
	done := newDoneLog()
	bios := make([]*Bio, 10)
	for i := range bios {
		bios[i] = &Bio{Op: OpRead, Offset: int64(i) * 64 * kib, Size: 4 * kib, Done: done}
		q.Submit(bios[i])
	}
	require.Equal(t, 6, q.Waiting())
	eng.Run()
	require.Equal(t, 4, dev.maxBusy)
	us := sim.Microsecond
	wantAt := []sim.Time{0, 0, 0, 0, 100 * us, 100 * us, 100 * us, 100 * us, 200 * us, 200 * us}
	for i, d := range dev.log {
		require.Equal(t, wantAt[i], d.At, "request %d", i)
		require.Equal(t, int64(i)*64*kib, d.Offset, "FIFO order")
		require.True(t, d.Tag >= 0 && d.Tag < 4)
	}
	for i, b := range bios {
		require.Equal(t, []sim.Time{wantAt[i] + 100*us}, done.at[b], "bio %d", i)
		require.Equal(t, sim.Time(0), b.Issued, "Issued is the submit time")
	}
	st := q.Stats()
	require.Equal(t, int64(6), st.RequestWaits)
	require.Equal(t, int64(300*us), st.BioLatency[OpRead].Max(), "the last bio waited 200 µs for a request")
	require.Equal(t, int64(100*us), st.Latency[OpRead].Max(), "a request exists only from allocation")
}

// TestDriverRefusal: a device that takes one request at a time and refuses the rest still
// gets every request, one per 50 µs, in FIFO order.
func TestDriverRefusal(t *testing.T) {
	eng, q, dev := newTestQueue(t, DefaultSpec(), fixed(50*sim.Microsecond))
	dev.limit = 1
	for i := range 3 {
		q.Submit(&Bio{Op: OpWrite, Offset: int64(i) * 8 * kib, Size: 4 * kib})
	}
	eng.Run()
	require.Len(t, dev.log, 3)
	for i, d := range dev.log {
		require.Equal(t, sim.Time(i)*50*sim.Microsecond, d.At)
	}
	require.Equal(t, int64(3), q.Stats().Completed)
	require.Positive(t, q.Stats().Requeued)
}

// TestAsyncDepth: kyber lets async writes hold 75 % of nr_requests = 256·75/100 = 192;
// a read still gets one of the remaining 64.
func TestAsyncDepth(t *testing.T) {
	spec := DefaultSpec()
	spec.Scheduler = SchedKyber
	spec.WBTLat = 0 // wbt off: the test is about the scheduler's own limits
	eng, q, _ := newTestQueue(t, spec, fixed(sim.Millisecond))
	require.Equal(t, 256, q.NrRequests(), "2·min(1023, 128)")
	for i := range 200 {
		q.Submit(&Bio{Op: OpWrite, Offset: int64(i) * 64 * kib, Size: 4 * kib})
	}
	require.Equal(t, 192, q.Allocated())
	require.Equal(t, 8, q.Waiting())
	q.Submit(&Bio{Op: OpRead, Offset: 0, Size: 4 * kib})
	require.Equal(t, 193, q.Allocated())
	eng.Run()
	require.Equal(t, int64(201), q.Stats().Completed)
}

// TestFlushBypassesScheduler: a flush goes to the driver before queued writes.
func TestFlushBypassesScheduler(t *testing.T) {
	spec := DefaultSpec()
	spec.Scheduler = SchedMQDeadline
	eng, q, dev := newTestQueue(t, spec, fixed(sim.Microsecond))
	q.Submit(&Bio{Op: OpWrite, Offset: 0, Size: 4 * kib})
	q.Submit(&Bio{Op: OpFlush})
	eng.Run()
	require.Equal(t, OpFlush, dev.log[0].Op)
	require.Equal(t, OpWrite, dev.log[1].Op)
}

func TestBadBioPanics(t *testing.T) {
	_, q, _ := newTestQueue(t, DefaultSpec(), fixed(sim.Microsecond))
	require.Panics(t, func() { q.Submit(&Bio{Op: OpWrite, Offset: 100, Size: 4096}) })
	require.Panics(t, func() { q.Submit(&Bio{Op: OpWrite, Offset: 0, Size: 100}) })
	require.Panics(t, func() { q.Submit(&Bio{Op: OpFlush, Size: 4096}) })
	b := &Bio{Op: OpRead, Size: 4096}
	q.Submit(b)
	require.Panics(t, func() { q.Submit(b) }, "resubmitted before completion")
}

// TestWriteStreamsDoNotMerge: bios of different write streams never share a request
// (Linux 6.16's blk_rq_merge_ok and attempt_merge compare write_stream). Submitted at time
// 0: [0, 4k) stream 1, [8k, 12k) stream 2, [4k, 8k) stream 1 (back-merges into the first;
// the grown request then touches the second, of another stream, and stays apart),
// [12k, 16k) stream 2 (back-merges into the second), [20k, 24k) stream 3, and [16k, 20k)
// stream 4, which neither back-merges behind stream 2 nor front-merges before stream 3.
// Four requests go out: [0, 8k) 1, [8k, 16k) 2, [16k, 20k) 4, [20k, 24k) 3.
func TestWriteStreamsDoNotMerge(t *testing.T) {
	got := writesSent(t, []sentWrite{{0, 4, 1, 0}, {8, 4, 2, 0}, {4, 4, 1, 0}, {12, 4, 2, 0}, {20, 4, 3, 0}, {16, 4, 4, 0}})
	require.Equal(t, []sentWrite{{0, 8, 1, 0}, {8, 8, 2, 0}, {16, 4, 4, 0}, {20, 4, 3, 0}}, got)
}
