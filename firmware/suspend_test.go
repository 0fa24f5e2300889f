package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestHostReadSuspendsProgram: on the full rig with program suspend (t_suspend 20 µs,
// t_resume 30 µs, max_suspends 1), a host read of page 0 of a block (LSB, tR 58 µs) on a
// die running an LSB program (558 µs), with two more programs queued:
//   - Its latency is its latency on the idle die, L0, plus t_suspend: the read goes to the
//     die at once (read_first and die_depth 2 give it the channel's second place), the die
//     suspends the program in 20 µs, then reads; the bus is free (the program's data went
//     in before). The running program ends 20 + 58 + 30 = 108 µs later than it would have.
//   - A second read issued when the first completes finds the program resumed and its one
//     suspension used up (max_suspends 1): it waits until the program ends, so its latency
//     is at least the time to that end and at most that plus L0, and nothing more is
//     suspended.
//
// The firmware counts one read that suspended (Stats.ReadSuspends), as does the die.
func TestHostReadSuspendsProgram(t *testing.T) {
	us := sim.Microsecond
	s := smallSpec(Vanilla, "sequential")
	s.Scheduler.MultiPlane = false // one program per transaction
	r := newRig(t, s, func(c *channel.Spec) {
		c.Die.Suspend, c.Die.TSuspend, c.Die.TResume, c.Die.MaxSuspends = true, 20*us, 30*us, 1
	})
	f := r.fw
	var idle, lat1, lat2, issue2, end0, end1 sim.Time
	var g int
	r.eng.Spawn("host", func(p *sim.Proc) {
		r.cmd(p, nvme.OpWrite, 0, 1, nvme.Hint{}, []uint64{Stamp(0, 1)})
		r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
		p.Sleep(sim.Millisecond)
		f.buf.Invalidate(0) // its clean copy leaves DRAM: reads go to flash
		ppn := f.FTL().PageOf(f.FTL().Lookup(0))
		require.Equal(t, 0, f.geo.Addr(ppn).Page)
		g = f.geo.Addr(ppn).Die
		got := []uint64{0}
		idle = r.cmd(p, nvme.OpRead, 0, 1, nvme.Hint{}, got).latency
		r.cmd(p, nvme.OpWrite, 1, 3, nvme.Hint{}, []uint64{Stamp(1, 1), Stamp(2, 1), Stamp(3, 1)})
		for range 3 {
			require.True(t, f.evictOne(g, ftl.Foreground))
		}
		p.Sleep(20 * us)
		end0 = r.die(g).BusyUntil() // the first program's end, not yet suspended
		rq := r.cmd(p, nvme.OpRead, 0, 1, nvme.Hint{}, got)
		require.Equal(t, Stamp(0, 1), got[0])
		lat1 = rq.latency
		end1 = r.die(g).BusyUntil()
		issue2 = p.Now()
		lat2 = r.cmd(p, nvme.OpRead, 0, 1, nvme.Hint{}, got).latency
		require.Equal(t, Stamp(0, 1), got[0])
	})
	r.eng.Run()
	t.Logf("idle %v, during the program %v, after its one suspension %v", idle, lat1, lat2)
	require.Equal(t, idle+20*us, lat1)
	require.Equal(t, end0+108*us, end1)
	require.GreaterOrEqual(t, issue2+lat2, end1)
	require.LessOrEqual(t, issue2+lat2, end1+idle)
	require.Equal(t, int64(1), f.Stats.ReadSuspends)
	require.Equal(t, int64(1), r.die(g).Stats().Suspends)
}
