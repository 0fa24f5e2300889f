package fiorun

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/internal/lostcmd"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// stallRun runs a time-based 4 KiB random-write job at iodepth 1 on tiny's raw device,
// capped at runtime as --runtime caps it, with limits.stall_timeout 50ms and a firmware
// that loses the n-th write. With timer, a host timer fires every millisecond throughout
// (the periodic timers of a host, a flusher's, that kept a stalled run going): without
// one, nothing is left to run once the lost write is all there is, and the simulation goes
// idle at once.
func stallRun(t *testing.T, runtime sim.Time, n int, timer bool) (*Result, *lostcmd.Firmware, *runner.Machine, error) {
	t.Helper()
	m, jobs := openJob(t, platforms.Options{Preset: "tiny", Sets: []string{"limits.stall_timeout=50ms"}},
		"[w]\nioengine=libaio\ndirect=1\nrw=randwrite\nbs=4k\niodepth=1\nsize=16m\ntime_based\nruntime=10s\nfilename=/dev/nvme0n1\n")
	fio.CapRuntime(jobs, runtime)
	lost := lostcmd.Install(m.SSD.Ctrl, nvme.OpWrite, n)
	if timer {
		m.Eng.Spawn("timer", func(p *sim.Proc) {
			for {
				p.Sleep(sim.Millisecond)
			}
		})
	}
	r, err := Run(m, jobs, Options{})
	return r, lost, m, err
}

// TestFioStallEndsTheRun: the firmware loses the 100th write of a job capped at 1 s. By
// hand: at iodepth 1 the 99th write completed before the 100th was submitted, so the wait
// counts from the 100th's submission and the run ends with the stall exactly 50 ms later,
// long before the runtime's end; no result is returned.
func TestFioStallEndsTheRun(t *testing.T) {
	r, lost, m, err := stallRun(t, sim.Second, 100, true)
	var se *platforms.StallError
	require.True(t, errors.As(err, &se), "%v", err)
	require.Nil(t, r)
	require.NotNil(t, lost.Lost)
	require.Equal(t, 1, se.Outstanding)
	require.Equal(t, nvme.OpWrite, se.Oldest.Opcode)
	require.Equal(t, lost.Lost.SQID, se.Oldest.Queue)
	require.Equal(t, lost.Lost.SQE.CID(), se.Oldest.CID)
	require.LessOrEqual(t, se.Oldest.Submitted, lost.LostAt)
	require.Equal(t, se.Oldest.Submitted, se.Since)
	require.Equal(t, se.Oldest.Submitted+50*sim.Millisecond, se.At)
	require.Equal(t, se.At, m.Eng.Now())
	require.Less(t, se.At, sim.Second)
}

// TestFioRuntimeEndsAStuckJob: --runtime 20ms, and the firmware loses the 20th write, which
// the job reaches before 20 ms (tiny completes 35 such writes in 20 ms at iodepth 1): the
// job's runtime ends while the write is outstanding, and fio waits for its IOs, as fio
// does. The run still ends, with the stall, 50 ms after the lost write's submission:
// after the runtime's end.
func TestFioRuntimeEndsAStuckJob(t *testing.T) {
	_, lost, _, err := stallRun(t, 20*sim.Millisecond, 20, true)
	var se *platforms.StallError
	require.True(t, errors.As(err, &se), "%v", err)
	require.NotNil(t, lost.Lost)
	require.Less(t, lost.LostAt, 20*sim.Millisecond, "the write is lost before the runtime ends")
	require.Equal(t, se.Oldest.Submitted+50*sim.Millisecond, se.At)
	require.Greater(t, se.At, 20*sim.Millisecond)
}

// TestFioStallIdle: without a host timer, nothing is left to run once the lost write is all
// there is: the run ends at once, the simulation idle, with the stall report (no waiting
// out the timeout: nothing could ever complete the write).
func TestFioStallIdle(t *testing.T) {
	_, lost, m, err := stallRun(t, sim.Second, 10, false)
	var se *platforms.StallError
	require.True(t, errors.As(err, &se), "%v", err)
	require.True(t, se.Idle)
	require.Equal(t, m.Eng.Now(), se.At)
	require.Less(t, se.At, lost.LostAt+sim.Millisecond)
	require.Contains(t, err.Error(), "stalled: the simulation went idle at")
}
