package pagecache

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestWakeIdlePlacement: two 1 GHz cores. At 0, core 0 runs 100 µs (100,000 cycles) of
// another task's work; task C, created on core 0, then asks for 10 µs. Worked by hand: with
// WakeIdle, core 0 is busy and core 1 idle, so C moves to core 1 and finishes at 10 µs;
// without, it queues behind the other work and finishes at 110 µs. With core 1 busy too
// (50 µs of work there), C stays on core 0 and finishes at 110 µs.
func TestWakeIdlePlacement(t *testing.T) {
	us := sim.Microsecond
	finish := func(wake, busy1 bool) (end sim.Time, core int, moves int64) {
		spec := testSpec()
		spec.CPU.Cores = 2
		spec.CPU.WakeIdle = wake
		r := newRig(t, spec, us)
		cores := r.c.Cores()
		cores[0].Book(0, cores[0].Res.Activity("app"), 100_000)
		if busy1 {
			cores[1].Book(0, cores[1].Res.Activity("app"), 50_000)
		}
		c := r.spawn("c", func(t *Task) {
			t.compute(10_000)
			end = t.Proc.Now()
		})
		r.eng.Run()
		if c.Core == cores[1] {
			core = 1
		}
		return end, core, r.c.Stats().Migrations
	}
	end, core, moves := finish(true, false)
	require.Equal(t, []any{10 * us, 1, int64(1)}, []any{end, core, moves})
	end, core, moves = finish(false, false)
	require.Equal(t, []any{110 * us, 0, int64(0)}, []any{end, core, moves})
	end, core, moves = finish(true, true)
	require.Equal(t, []any{110 * us, 0, int64(0)}, []any{end, core, moves})
}
