package blk

import (
	"fmt"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// deadlineOrder runs mq-deadline with one driver tag on a 1 ms device, submits the named
// 4 KiB bios (offsets in 4 KiB blocks) at the given times, and returns the dispatch order.
func deadlineOrder(t *testing.T, d DeadlineSpec, subs []struct {
	at   sim.Time
	name string
	op   Op
	blk  int64
}) []string {
	spec := DefaultSpec()
	spec.Scheduler = SchedMQDeadline
	spec.QueueDepth = 1
	spec.NrRequests = 64
	spec.Merges = false
	spec.Deadline = d
	eng, q, dev := newTestQueue(t, spec, fixed(sim.Millisecond))
	names := map[int64]string{}
	for _, s := range subs {
		names[s.blk*4*kib] = s.name
		b := &Bio{Op: s.op, Offset: s.blk * 4 * kib, Size: 4 * kib}
		eng.At(s.at, func() { q.Submit(b) })
	}
	eng.Run()
	var order []string
	for _, r := range dev.log {
		order = append(order, names[r.Offset])
	}
	return order
}

// TestDeadlineStarvation works the dispatch order by hand (block/mq-deadline.c):
// reads R1@300 R2@10 R3@200 and writes W1@100 W2@50 queued at 0, fifo_batch 2.
//
// writes_starved 1:
//  1. no batch; reads preferred (starved 0 < 1, becomes 1); no next → FIFO head R1.
//     Nothing above 300 in sort order, so next read = none.
//  2. no batch; starved 1 ≥ 1 → writes (starved = 0); FIFO head W1; nothing above 100.
//  3. reads (starved 0 → 1); FIFO head R2@10; next read = R3@200.
//  4. batch of 2 continues: R3.  5. only writes left: W2.
//
// writes_starved 2 (default): step 2 prefers reads again (1 < 2): R2, then R3 in its
// batch, then W1, and W2 after it (nothing above W1@100, so a new batch from the FIFO).
func TestDeadlineStarvation(t *testing.T) {
	subs := []struct {
		at   sim.Time
		name string
		op   Op
		blk  int64
	}{{0, "R1", OpRead, 300}, {0, "W1", OpWrite, 100}, {0, "R2", OpRead, 10}, {0, "W2", OpWrite, 50}, {0, "R3", OpRead, 200}}
	d := DefaultSpec().Deadline
	d.FifoBatch = 2
	d.WritesStarved = 1
	require.Equal(t, []string{"R1", "W1", "R2", "R3", "W2"}, deadlineOrder(t, d, subs))
	d.WritesStarved = 2
	require.Equal(t, []string{"R1", "R2", "R3", "W1", "W2"}, deadlineOrder(t, d, subs))
}

// TestDeadlineExpiry: reads A@100 B@200 C@300 D@400 at 0, X@50 at 0.5 ms, E@500 at
// 0.6 ms; fifo_batch 4, 1 ms per request. A–D go as one sorted batch at 0–3 ms. At 4 ms the
// batch is full; next in sort order is E, but the FIFO head X (deadline 0.5 + 3 = 3.5 ms)
// has expired with read_expire 3 ms, so X goes first and E follows in X's batch. With
// 500 ms nothing expires: E continues upward and X comes last from the FIFO.
func TestDeadlineExpiry(t *testing.T) {
	us := sim.Microsecond
	subs := []struct {
		at   sim.Time
		name string
		op   Op
		blk  int64
	}{{0, "A", OpRead, 100}, {0, "B", OpRead, 200}, {0, "C", OpRead, 300}, {0, "D", OpRead, 400},
		{500 * us, "X", OpRead, 50}, {600 * us, "E", OpRead, 500}}
	for _, c := range []struct {
		expire sim.Time
		want   []string
	}{
		{3 * sim.Millisecond, []string{"A", "B", "C", "D", "X", "E"}},
		{500 * sim.Millisecond, []string{"A", "B", "C", "D", "E", "X"}},
	} {
		t.Run(fmt.Sprint(c.expire), func(t *testing.T) {
			d := DefaultSpec().Deadline
			d.FifoBatch = 4
			d.ReadExpire = c.expire
			require.Equal(t, c.want, deadlineOrder(t, d, subs))
		})
	}
}

// TestDeadlineAsyncDepth: writes may hold max(1, 3·256/4) = 192 requests.
func TestDeadlineAsyncDepth(t *testing.T) {
	spec := DefaultSpec()
	spec.Scheduler = SchedMQDeadline
	_, q, _ := newTestQueue(t, spec, fixed(sim.Millisecond))
	require.Equal(t, 192, q.AsyncDepth())
}
