package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// fakeCPU is a CPU port of one core at 1 GHz that never queues: each charge ends cycles ns
// after it arrives. It records the cycles charged to each kind of work.
type fakeCPU struct {
	cycles [numWork]int64
	calls  [numWork]int
}

func (c *fakeCPU) Charge(now sim.Time, _ int, w Work, cycles int64) sim.Time {
	if cycles <= 0 {
		return now
	}
	c.cycles[w] += cycles
	c.calls[w]++
	return now + sim.Time(cycles)*sim.Nanosecond
}

func (c *fakeCPU) Cores() int { return 1 }

// TestCPUPortCharges: with a CPU port given, the firmware charges all its work to it and
// builds no cores of its own. A one-page 4 KiB write into a buffer with room costs the HIL,
// by the default cycle counts (firmware.cycles), parse 800 (its first step) + per-page 100
// (the chunk's page) + complete 400 (the completion) = 1,300 cycles in three charges; at
// 1 GHz without queueing they are 1,300 ns of the command's latency, so the same write
// under a port charging nothing completes exactly 1,300 ns sooner.
func TestCPUPortCharges(t *testing.T) {
	lat := func(cpu CPU) sim.Time {
		r := newFake(t, smallSpec(Vanilla, "sequential"), 4096)
		fw, err := New("fw2", r.fw.spec, r.eng, Ports{Flash: r.flash, Memory: r.mem, Host: r.host, CPU: cpu})
		require.NoError(t, err)
		require.Nil(t, fw.Cores())
		r.fw = fw
		var l sim.Time
		r.eng.Spawn("host", func(p *sim.Proc) {
			l = r.cmd(p, nvme.OpWrite, 0, 1, nvme.Hint{}, []uint64{Stamp(0, 1)}).latency
		})
		r.eng.RunUntil(50 * sim.Microsecond)
		return l
	}
	c := &fakeCPU{}
	withCost := lat(c)
	require.Equal(t, int64(1300), c.cycles[WorkHIL])
	require.Equal(t, 3, c.calls[WorkHIL])
	free := lat(freeCPU{})
	require.Equal(t, 1300*sim.Nanosecond, withCost-free)
}

// freeCPU charges nothing: all work ends as it arrives.
type freeCPU struct{}

func (freeCPU) Charge(now sim.Time, _ int, _ Work, _ int64) sim.Time { return now }
func (freeCPU) Cores() int                                           { return 1 }
