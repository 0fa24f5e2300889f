package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// readDuringFlush writes 200 pages in one command, flushes them, and 20 µs into the flush
// reads one of them (a buffer hit) from a second process; it returns the read's latency
// then, the same read's latency on the idle firmware before any of this, and the pages
// programmed. One core runs the HIL and the evictor; foreground_per_die 64 lets one round
// send all 200 dirty pages over the 4 dies (64, 64, 64, 8).
func readDuringFlush(t *testing.T, batch int) (during, idle sim.Time, programs int64) {
	s := smallSpec(Vanilla, "sequential")
	s.Cores = 1
	s.Buffer.ForegroundPerDie = 64
	s.Buffer.IssueBatch = batch
	r := newFake(t, s, 4096)
	const pages = 200
	var flushAt sim.Time
	r.eng.Spawn("writer", func(p *sim.Proc) {
		w := make([]uint64, pages)
		for i := range w {
			w[i] = Stamp(int64(i), 1)
		}
		got := make([]uint64, 1)
		idle = r.cmd(p, nvme.OpRead, 7, 1, nvme.Hint{}, got).latency
		require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, 0, pages, nvme.Hint{}, w).status)
		flushAt = p.Now()
		r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
	})
	r.eng.Spawn("reader", func(p *sim.Proc) {
		for flushAt == 0 {
			p.Sleep(sim.Microsecond)
		}
		p.SleepUntil(flushAt + 20*sim.Microsecond)
		got := make([]uint64, 1)
		rq := r.cmd(p, nvme.OpRead, 7, 1, nvme.Hint{}, got)
		require.Equal(t, Stamp(7, 1), got[0])
		during = rq.latency
	})
	r.eng.Run()
	return during, idle, r.flash.programs
}

// TestEvictIssueStepsLetHostIn: the evictor issues a round in steps of issue_batch pages,
// and the HIL's steps on the same core run between them. Worked out at 400 MHz, with
// allocate 300 + flash_issue 200 = 500 cycles (1.25 µs) a page:
//   - issue_batch unbounded (the model before the steps): the flush's round issues its 200
//     pages as one 100,000-cycle booking, 250 µs, from about 3 µs into the flush. A read
//     arriving at 20 µs waits for the rest of it, over 200 µs.
//   - issue_batch 4: bookings of 2,000 cycles, 5 µs. Each of the read's core steps waits at
//     most one of them (the evictor books its next step only when the last has ended, behind
//     whatever the HIL booked meanwhile), so with at most 4 core steps the read takes no
//     more than its idle latency + 4 × 5 µs.
//
// Both runs program all 200 pages.
func TestEvictIssueStepsLetHostIn(t *testing.T) {
	during, idle, progs := readDuringFlush(t, 1<<30)
	t.Logf("unbounded: read %v during the flush, %v idle", during, idle)
	require.Equal(t, int64(200), progs)
	require.Greater(t, during, 200*sim.Microsecond)

	during, idle, progs = readDuringFlush(t, 4)
	t.Logf("batch 4: read %v during the flush, %v idle", during, idle)
	require.Equal(t, int64(200), progs)
	require.LessOrEqual(t, during, idle+20*sim.Microsecond)
}

// TestIssueBatchValidated: issue_batch must be at least 1, and the error names the field.
func TestIssueBatchValidated(t *testing.T) {
	s := DefaultSpec()
	s.Buffer.IssueBatch = 0
	require.ErrorContains(t, s.Validate(), "firmware.buffer.issue_batch: 0 must be at least 1")
}
