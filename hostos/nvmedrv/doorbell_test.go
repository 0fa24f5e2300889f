package nvmedrv

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestSQDoorbellBatching checks Linux's doorbell batching: requests dispatched together
// share one SQ tail doorbell; requests dispatched apart (further apart than the 2000-cycle
// submission cost, 0.67 µs at 3 GHz) get one each.
func TestSQDoorbellBatching(t *testing.T) {
	cases := []struct {
		name      string
		n         int
		gap       sim.Time
		doorbells int64
	}{
		{"one request", 1, 0, 1},
		{"8 at one instant", 8, 0, 1},
		{"8 at 10us apart", 8, 10 * sim.Microsecond, 8},
		{"8 at 100ns apart: each joins the batch still being written", 8, 100 * sim.Nanosecond, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, DefaultSpec(), ctrlSpec(), 1)
			for i := range tc.n {
				rq := rw(blk.OpRead, int64(i)*4096, 4096)
				r.at(sim.Time(i)*tc.gap, func() { require.True(t, r.d.QueueRequest(r.eng.Now(), rq)) })
			}
			r.eng.Run()
			require.Equal(t, tc.doorbells, r.d.Stats.SQDoorbells)
			require.Equal(t, tc.doorbells, r.ctrl.Stats.SQDoorbells, "doorbells that reached the controller")
			require.Len(t, r.up.dones, tc.n)
		})
	}
}

// TestSQDoorbellWrap checks nvme_write_sq_db's early ring: with q_depth 4 (3 tags), the
// third request of a batch leaves the next tail equal to the last doorbell's, so the driver
// rings at once instead of waiting for the end of the batch; the next round then wraps the
// ring (entries 3, 0, 1) and rings at tail 2.
func TestSQDoorbellWrap(t *testing.T) {
	spec := DefaultSpec()
	spec.QueueDepth = 4
	r := newRig(t, spec, ctrlSpec(), 1)
	require.Equal(t, 4, r.d.QueueEntries())
	require.Equal(t, 3, r.d.Depth())
	q := r.d.queues[0]
	for i := range 2 {
		require.True(t, r.d.QueueRequest(0, rw(blk.OpWrite, int64(i)*4096, 4096)))
		require.Zero(t, r.d.Stats.SQDoorbells, "batch still open")
	}
	require.True(t, r.d.QueueRequest(0, rw(blk.OpWrite, 2*4096, 4096)))
	require.Equal(t, int64(1), r.d.Stats.SQDoorbells, "rung before the batch ends")
	require.Equal(t, 3, q.lastTail)
	r.eng.Run()
	require.Equal(t, int64(1), r.ctrl.Stats.SQDoorbells, "the batch-end event found nothing new")
	require.Len(t, r.up.dones, 3)

	now := r.eng.Now()
	for i := range 3 {
		require.True(t, r.d.QueueRequest(now, rw(blk.OpWrite, int64(10+i)*4096, 4096)))
	}
	require.Equal(t, int64(2), r.d.Stats.SQDoorbells)
	require.Equal(t, 2, q.lastTail, "tail wrapped 3 → 0 → 1 → 2")
	for i, slot := range []int{3, 0, 1} {
		e := r.sqeAt(1, slot)
		require.Equal(t, uint64(10+i), e.SLBA())
	}
	r.eng.Run()
	require.Len(t, r.up.dones, 6)
	require.Equal(t, int64(2), r.ctrl.Stats.SQDoorbells)
}

// TestCommit checks that Commit rings at once, before the batch-end event.
func TestCommit(t *testing.T) {
	r := newRig(t, DefaultSpec(), ctrlSpec(), 1)
	for i := range 3 {
		require.True(t, r.d.QueueRequest(0, rw(blk.OpRead, int64(i)*4096, 4096)))
	}
	r.d.Commit(0)
	require.Equal(t, int64(1), r.d.Stats.SQDoorbells)
	r.d.Commit(0)
	require.Equal(t, int64(1), r.d.Stats.SQDoorbells, "nothing new to announce")
	r.eng.Run()
	require.Equal(t, int64(1), r.ctrl.Stats.SQDoorbells)
	require.Len(t, r.up.dones, 3)
}

// TestCQDoorbellPerBatch checks nvme_process_cq: 8 flushes in one batch are fetched
// together (fetch_batch 8), served together after the stub's fixed latency and posted
// within nanoseconds of each other, well inside the 1 µs (3000 cycles) the handler spends
// on the first interrupt. The handler consumes all 8 in one pass and rings the CQ head
// doorbell once, at head 8; the interrupts that arrived meanwhile find nothing.
func TestCQDoorbellPerBatch(t *testing.T) {
	r := newRig(t, DefaultSpec(), ctrlSpec(), 1)
	for range 8 {
		require.True(t, r.d.QueueRequest(0, &blk.Request{Op: blk.OpFlush}))
	}
	r.eng.Run()
	require.Len(t, r.up.dones, 8)
	require.Equal(t, int64(8), r.ctrl.Stats.Interrupts, "no coalescing: one MSI-X per CQE")
	require.Equal(t, int64(1), r.d.Stats.CQDoorbells)
	require.Equal(t, int64(1), r.ctrl.Stats.CQDoorbells)
	require.Equal(t, int64(1), r.d.Stats.Interrupts-r.d.Stats.Spurious, "one handler pass found entries")
	require.Equal(t, 8, r.d.queues[0].cqHead)
	for _, c := range r.up.dones[1:] {
		require.Greater(t, c.at, r.up.dones[0].at, "each entry costs cqe_cycles more")
	}
}

// TestCQPhaseWrap runs three times around a 4-entry CQ: the expected phase flips at each
// wrap (docs/sources.md §1.3), so every completion is found exactly once.
func TestCQPhaseWrap(t *testing.T) {
	spec := DefaultSpec()
	spec.QueueDepth = 4
	r := newRig(t, spec, ctrlSpec(), 1)
	const total = 12
	sent := 0
	send := func(now sim.Time) {
		for sent < total && r.d.QueueRequest(now, rw(blk.OpRead, int64(sent)*4096, 4096)) {
			sent++
		}
	}
	r.up.onComplete = func(now sim.Time, _ *blk.Request) { send(now) }
	r.up.onRestart = send
	send(0)
	r.eng.Run()
	require.Len(t, r.up.dones, total)
	require.Equal(t, uint8(0), r.d.queues[0].phase, "12 entries = 3 passes with phases 1, 0, 1; the 4th expects 0")
	require.Equal(t, 0, r.d.queues[0].cqHead)
}

// TestRoundRobin checks that round-robin mapping alternates queue pairs and that each CQ
// interrupts on its own vector.
func TestRoundRobin(t *testing.T) {
	spec := DefaultSpec()
	spec.Queues = 2
	spec.QueueMap = MapRoundRobin
	r := newRig(t, spec, ctrlSpec(), 2)
	for i := range 4 {
		require.True(t, r.d.QueueRequest(0, rw(blk.OpRead, int64(i)*4096, 4096)))
	}
	r.eng.Run()
	require.Len(t, r.up.dones, 4)
	require.Equal(t, int64(2), r.d.Stats.SQDoorbells, "one batch per queue pair")
	n := map[uint16]int{}
	for _, q := range r.dev.sqids {
		n[q]++
	}
	require.Equal(t, map[uint16]int{1: 2, 2: 2}, n)
	require.Equal(t, int64(2), r.d.Stats.CQDoorbells)
	irqs := r.d.IRQCores()
	require.Len(t, irqs, 2)
	require.Equal(t, "host.cpu1.irq", irqs[1].Name())
	require.Positive(t, irqs[1].Cycles(), "queue pair 2's interrupts run in core 1's interrupt context")
}

// TestTagMap checks that under tag mapping a request goes to queue pair Tag mod Queues.
func TestTagMap(t *testing.T) {
	spec := DefaultSpec()
	spec.Queues = 3
	spec.QueueMap = MapTag
	r := newRig(t, spec, ctrlSpec(), 3)
	for _, tag := range []int{0, 4, 5, 7} { // queue pairs 1, 2, 3, 2
		rq := rw(blk.OpRead, int64(tag)*4096, 4096)
		rq.Tag = tag
		require.True(t, r.d.QueueRequest(0, rq))
	}
	r.eng.Run()
	n := map[uint16]int{}
	for _, q := range r.dev.sqids {
		n[q]++
	}
	require.Equal(t, map[uint16]int{1: 1, 2: 2, 3: 1}, n)
}
