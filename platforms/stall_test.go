package platforms

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/internal/lostcmd"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// stallMachine builds tiny with the given settings and a raw device on its namespace, and
// a host timer every millisecond for the whole test (the periodic timers that kept a
// stalled run going: a flusher, a sampler), so the engine never goes idle by itself.
func stallMachine(t *testing.T, sets ...string) (*Machine, *hostos.RawDevice) {
	t.Helper()
	m, raw := stallMachineNoTimer(t, sets...)
	m.Eng.Spawn("timer", func(p *sim.Proc) {
		for {
			p.Sleep(sim.Millisecond)
		}
	})
	return m, raw
}

// stallMachineNoTimer is stallMachine without the host timer.
func stallMachineNoTimer(t *testing.T, sets ...string) (*Machine, *hostos.RawDevice) {
	t.Helper()
	c, err := Load(Options{Preset: "tiny", Sets: append([]string{"precondition.fill=0"}, sets...)})
	require.NoError(t, err)
	m, err := Build(c)
	require.NoError(t, err)
	t.Cleanup(m.Eng.Close)
	raw, err := hostos.NewRawDevice(m.Host, m.SSD.FW.LogicalPages()*int64(c.Firmware.PageSize))
	require.NoError(t, err)
	return m, raw
}

// writer writes 4 KiB blocks one at a time (queue depth 1) from offset 0 on, n of them,
// recording when each is issued; it never returns from a write the device does not
// complete.
func writer(m *Machine, raw *hostos.RawDevice, n int, issued *[]sim.Time) {
	m.Eng.Spawn("writer", func(p *sim.Proc) {
		for i := range n {
			*issued = append(*issued, p.Now())
			if _, err := raw.Do(p, uflip.OpWrite, int64(i)*4096, 4096); err != nil {
				panic(err)
			}
		}
	})
}

// TestStallStopsAtSubmissionPlusTimeout: the firmware loses the 20th write of a writer at
// queue depth 1, on tiny with limits.stall_timeout 50ms. By hand: the 19th write
// completed before the 20th was submitted (depth 1), so the wait counts from the 20th's
// submission, and the run stops exactly 50 ms after it, with the engine's time there,
// though a host timer would keep it going forever. The report names it: one command
// outstanding, a Write (01h) of namespace 1 at LBA 19·4096 / 4096 = 19 of 1 block (tiny's
// 4 KiB logical blocks), submitted after the writer issued it and before the controller handed
// it to the (faulty) firmware; the controller holds it fetched and not completed.
func TestStallStopsAtSubmissionPlusTimeout(t *testing.T) {
	m, raw := stallMachine(t, "limits.stall_timeout=50ms")
	require.Equal(t, int64(4096), raw.BlockSize(), "the LBAs below are worked out for 4 KiB blocks")
	lost := lostcmd.Install(m.SSD.Ctrl, nvme.OpWrite, 20)
	var issued []sim.Time
	writer(m, raw, 100, &issued)
	m.Eng.Run()
	err := m.Stall()
	var se *StallError
	require.True(t, errors.As(err, &se), "%v", err)
	require.Len(t, issued, 20, "the writer never got past the lost write")
	require.NotNil(t, lost.Lost)
	o := se.Oldest
	require.LessOrEqual(t, issued[19], o.Submitted)
	require.LessOrEqual(t, o.Submitted, lost.LostAt)
	require.Equal(t, o.Submitted, se.Since)
	require.Equal(t, o.Submitted+50*sim.Millisecond, se.At)
	require.Equal(t, se.At, m.Eng.Now())
	require.False(t, se.Idle)
	require.Equal(t, 1, se.Outstanding)
	require.Equal(t, blk.OpWrite, o.Op)
	require.Equal(t, nvme.OpWrite, o.Opcode)
	require.Equal(t, uint32(1), o.NSID)
	require.Equal(t, int64(19), o.LBA)
	require.Equal(t, int64(1), o.Blocks)
	require.Len(t, se.Queues, 1)
	require.Equal(t, o.Queue, se.Queues[0].SQID)
	require.Equal(t, 0, se.Queues[0].Unfetched)
	require.Equal(t, 1, se.Queues[0].Busy)
	msg := err.Error()
	for _, want := range []string{
		"stalled: 1 host command outstanding and none completed for 50.00ms of simulated time (limits.stall_timeout), since 11.07ms; the run stopped at 61.07ms",
		fmt.Sprintf("The oldest: Write (01h) on namespace 1, LBA 19, 1 block, queue %d, command %d", o.Queue, o.CID),
		fmt.Sprintf("SQ %d 0 unfetched, 1 fetched and not completed", o.Queue),
		"Firmware: buffer level",
	} {
		require.Contains(t, msg, want)
	}
	require.Same(t, se, m.Stall(), "the error stays")
}

// TestStallCountsFromTheLastCompletion: the firmware loses the writer's 5th write while a
// reader goes on reading, one 4 KiB read at a time, for 20 ms after it. The wait counts
// from the reader's last completion, after the lost write's submission, and the run stops
// 50 ms after that completion, which the driver handled before the reader saw it.
func TestStallCountsFromTheLastCompletion(t *testing.T) {
	m, raw := stallMachine(t, "limits.stall_timeout=50ms")
	lost := lostcmd.Install(m.SSD.Ctrl, nvme.OpWrite, 5)
	var issued []sim.Time
	writer(m, raw, 100, &issued)
	var lastRead sim.Time
	m.Eng.Spawn("reader", func(p *sim.Proc) {
		for p.Now() < 20*sim.Millisecond || lost.Lost == nil || p.Now() < lost.LostAt+20*sim.Millisecond {
			if _, err := raw.Do(p, uflip.OpRead, 1<<20, 4096); err != nil {
				panic(err)
			}
			lastRead = p.Now()
		}
	})
	m.Eng.Run()
	var se *StallError
	require.True(t, errors.As(m.Stall(), &se))
	require.Equal(t, 1, se.Outstanding, "the reader's reads all completed")
	require.Equal(t, nvme.OpWrite, se.Oldest.Opcode)
	require.Greater(t, se.Since, se.Oldest.Submitted+20*sim.Millisecond)
	require.LessOrEqual(t, se.Since, lastRead)
	require.Equal(t, se.Since+50*sim.Millisecond, se.At)
	require.Equal(t, se.Since, m.Host.Driver.LastCompletion())
}

// TestStallIdle: with nothing else to run (no host timer), the engine goes idle as soon as
// the lost write is the only work left: Run returns at once with Live 0, and Stall reports
// the outstanding write as a stall of an idle simulation, at the instant it went idle.
func TestStallIdle(t *testing.T) {
	m, raw := stallMachineNoTimer(t, "limits.stall_timeout=50ms")
	lostcmd.Install(m.SSD.Ctrl, nvme.OpWrite, 3)
	var issued []sim.Time
	writer(m, raw, 10, &issued)
	m.Eng.Run()
	if m.Eng.Live() > 0 {
		t.Skipf("tiny keeps %d events alive without I/O; the idle case cannot arise", m.Eng.Live())
	}
	var se *StallError
	require.True(t, errors.As(m.Stall(), &se))
	require.True(t, se.Idle)
	require.Equal(t, m.Eng.Now(), se.At)
	require.Less(t, se.At, se.Oldest.Submitted+50*sim.Millisecond)
	require.Contains(t, se.Error(), "stalled: the simulation went idle at")
}

// TestStallQuietThroughAPowerCut: a scripted cut at 5 ms with power-loss protection stops
// the host's commands on purpose; the hold-up drain then runs for longer than the 1 ms
// timeout with the writer's write outstanding, and the run ends at the firmware's stop
// with no stall reported.
func TestStallQuietThroughAPowerCut(t *testing.T) {
	m, raw := stallMachine(t, "limits.stall_timeout=1ms", "firmware.power_loss.enabled=true",
		"firmware.power_loss_protection=true", "firmware.power_loss.cut_at=5ms")
	var issued []sim.Time
	writer(m, raw, 1<<20, &issued)
	m.Eng.Run()
	require.True(t, m.SSD.FW.PoweredOff())
	rep := m.SSD.FW.PowerLossReport()
	require.Greater(t, m.Eng.Now(), rep.At+sim.Millisecond, "the drain outlasts the timeout")
	require.Positive(t, m.Host.Driver.Inflight())
	require.NoError(t, m.Stall())
}

// TestStallTimeoutValidated: a negative limits.stall_timeout is refused naming the key; 0
// is the default.
func TestStallTimeoutValidated(t *testing.T) {
	c, err := Load(Options{Preset: "tiny"})
	require.NoError(t, err)
	require.Equal(t, DefaultStallTimeout, c.StallTimeout())
	c.Limits.StallTimeout = -sim.Millisecond
	require.ErrorContains(t, c.Validate(), "limits.stall_timeout: -1ms must not be negative")
	_, err = Load(Options{Preset: "tiny", Sets: []string{"limits.stall_timeout=-1s"}})
	require.EqualError(t, err, "limits.stall_timeout: -1s must not be negative (0 means the default, 30s)")
	_, err = Load(Options{Preset: "tiny", Sets: []string{"limits.stall_timout=1s"}})
	require.ErrorContains(t, err, "limits.stall_timout")
	_, err = Load(Options{Preset: "tiny", Sets: []string{"limits.stall_timeout=300"}})
	require.ErrorContains(t, err, "limits.stall_timeout")
}

// TestStallReportsTheDies: dies whose programs take 1,000 s (a die that never completes a
// program, as far as a run can tell) on tiny, written at queue depth 1 with 4 KiB writes.
// The first writes land in the 256-page write buffer and complete; the eviction programs
// they cause never do, so the buffer fills and a write waits for room that never comes.
// By hand: at depth 1 the write that waits was submitted after the last completion, so
// the run stops 50 ms after its submission; the report shows the buffer above its high
// watermark, the programs on the channels (one per die of tiny's 2 channels × 2 ways, up
// to scheduler.die_depth 2 each: 4 to 8 in all), the same count as foreground or
// background evictions in the flash work, and every die listed with its programs.
func TestStallReportsTheDies(t *testing.T) {
	m, raw := stallMachine(t, "limits.stall_timeout=50ms", "flash.die.t_prog.lsb=1000s",
		"flash.die.t_prog.csb=1000s", "flash.die.t_prog.msb=1000s")
	raw.SetFUA(false) // tiny's direct writes are FUA (host.pagecache.direct_fua): into the buffer
	var issued []sim.Time
	writer(m, raw, 10_000, &issued)
	m.Eng.Run()
	var se *StallError
	require.True(t, errors.As(m.Stall(), &se))
	require.Equal(t, se.Oldest.Submitted+50*sim.Millisecond, se.At)
	require.Equal(t, se.Oldest.Submitted, se.Since)
	require.Equal(t, len(issued)-1, int(se.Oldest.LBA), "the last write issued waits")
	require.Equal(t, "above-high", se.Level)
	require.Greater(t, se.Dirty+se.Evicting, se.Capacity*8/10)
	require.Equal(t, 4, se.AllDies)
	require.Len(t, se.Dies, 4)
	require.GreaterOrEqual(t, se.Totals.InChannel, 4)
	require.LessOrEqual(t, se.Totals.InChannel, 8)
	require.Equal(t, se.Totals.InChannel, se.Work.Foreground+se.Work.Background)
	for i, d := range se.Dies {
		require.Equal(t, i, se.DieIndex[i])
		require.Positive(t, d.InChannel, "die %d", i)
	}
	require.Contains(t, se.Error(), "die 0: ")
}
