package nvmedrv

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestIRQPreemptsTask: a read completes while its vector's core runs 600,000 cycles
// (200 µs at 3 GHz) of task work booked at 0. Worked by hand: with IRQPreempts the handler
// runs in the core's interrupt context at once, so the request completes exactly when it
// does on an idle core, IRQ entry (3000 cycles) and one CQE (1000 cycles) after the MSI-X.
// Without it the handler queues behind the task work: the request completes at 200 µs +
// 4000 cycles = 200 µs + 1333.333 ns, on the 3 GHz clock's edge (4000 periods of 333.333 ps
// after the 200 µs edge).
func TestIRQPreemptsTask(t *testing.T) {
	finish := func(preempt, busy bool) sim.Time {
		spec := DefaultSpec()
		spec.Queues = 1
		spec.IRQPreempts = preempt
		r := newRig(t, spec, ctrlSpec(), 1)
		if busy {
			r.cores[0].Book(0, r.cores[0].Res.Activity("app"), 600_000)
		}
		require.True(t, r.d.QueueRequest(0, rw(blk.OpRead, 0, 4096)))
		r.eng.Run()
		require.Len(t, r.up.dones, 1)
		return r.up.dones[0].at
	}
	idle := finish(true, false)
	require.Less(t, idle, 200*sim.Microsecond, "the read is done well before the task work ends")
	require.Equal(t, idle, finish(true, true), "preempting: the task work does not delay the completion")
	clk := sim.NewClock(hostFreq)
	want := clk.After(clk.NextEdge(200*sim.Microsecond), 4000)
	require.Equal(t, want, finish(false, true), "queued: behind the task work")
	require.InDelta(t, float64(200*sim.Microsecond+sim.Time(1_333_333)), float64(want), 1, "200 µs + 1,333,333 ps")
}
