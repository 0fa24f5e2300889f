package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestReadGoesBeforeQueuedPrograms: with read_first, a host read goes before every eviction
// program that has not started on its die, even under the channel's fifo arbitration with
// die_depth 2 (which used to hand the channel a second program, queued there ahead of any
// later read). Page 0 of a block (lpn 0, flushed to flash first) is read while three LSB
// programs (pages 1–3 of the same block; pages 0–5 are LSB, tPROG 558 µs) are queued on its
// die, the first running. The read waits for the running program only: its latency is
// under what is left of that program (< 558 µs) + tR(LSB) 58 µs + 100 µs for the bus
// transfers (a 4 KiB page is ~12 µs at 333 MT/s) and the host path, 716 µs; behind two
// programs it would be over 2 × 558 − 20 + 58 = 1,154 µs (the read is issued 20 µs after the
// programs).
func TestReadGoesBeforeQueuedPrograms(t *testing.T) {
	s := smallSpec(Vanilla, "sequential")
	s.Scheduler.MultiPlane = false // one program per transaction
	s.Scheduler.DieDepth = 2
	s.Scheduler.ReadFirst = true
	r := newRig(t, s, nil) // the rig's channels arbitrate fifo
	f := r.fw
	var lat sim.Time
	r.eng.Spawn("host", func(p *sim.Proc) {
		r.cmd(p, nvme.OpWrite, 0, 1, nvme.Hint{}, []uint64{Stamp(0, 1)})
		r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
		p.Sleep(sim.Millisecond) // the flush's program is long done
		f.buf.Invalidate(0)      // its clean copy leaves DRAM, as a reclaimed slot would
		ppn := f.FTL().PageOf(f.FTL().Lookup(0))
		require.Equal(t, 0, f.geo.Addr(ppn).Page)
		g := f.geo.Addr(ppn).Die
		r.cmd(p, nvme.OpWrite, 1, 3, nvme.Hint{}, []uint64{Stamp(1, 1), Stamp(2, 1), Stamp(3, 1)})
		for range 3 {
			require.True(t, f.evictOne(g, ftl.Foreground))
		}
		p.Sleep(20 * sim.Microsecond)
		got := []uint64{0}
		rq := r.cmd(p, nvme.OpRead, 0, 1, nvme.Hint{}, got)
		require.Equal(t, Stamp(0, 1), got[0])
		lat = rq.latency
	})
	r.eng.Run()
	t.Logf("read latency %v", lat)
	require.Less(t, lat, 716*sim.Microsecond, "the read waited behind more than the running program")
	require.Greater(t, lat, (558-20-30+58)*sim.Microsecond, "the running program is not suspended")
}
