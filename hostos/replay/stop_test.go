package replay_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/replay"
	"github.com/fastdrain-sim/fastdrain/hostos/trace"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestStopAtPowerCut: a power cut (firmware.power_loss.cut_at = 3 ms on the tiny machine)
// in the middle of a 4,000-write replay, as fast as possible at queue depth 8. The firmware
// posts no completion after the cut and the engine stops with it (platforms.Build), so the
// replay never finishes on its own; Stop ends it: every request that completed did so by
// the cut, and the queue was full when the power went (afap keeps 8 in flight while the
// trace lasts, and 4,000 writes of 4 KiB take far longer than 3 ms), so exactly 8 are
// unfinished.
func TestStopAtPowerCut(t *testing.T) {
	c, err := platforms.Load(platforms.Options{Preset: "tiny", Variant: "vanilla",
		Sets: []string{"firmware.power_loss.enabled=true", "firmware.power_loss.cut_at=3ms"}})
	require.NoError(t, err)
	m, err := platforms.Build(c)
	require.NoError(t, err)
	defer m.Eng.Close()
	raw, err := hostos.NewRawDevice(m.Host, m.SSD.FW.LogicalPages()*int64(c.Firmware.PageSize))
	require.NoError(t, err)
	var b strings.Builder
	for i := range 4000 { // DiskSim: time (ns), device, sector, sectors, 0 = write
		fmt.Fprintf(&b, "%d 0 %d 8 0\n", i, 8*i)
	}
	rd, err := trace.NewReader(strings.NewReader(b.String()), "w", replay.FitOptions(trace.Options{Format: trace.DiskSim}, raw))
	require.NoError(t, err)
	var r *replay.Replay
	m.Eng.Spawn("replay", func(p *sim.Proc) {
		r, err = replay.Start(p.Engine(), raw, rd, replay.Options{Mode: replay.AsFastAsPossible, QueueDepth: 8})
		require.NoError(t, err)
		r.Wait(p)
	})
	m.Eng.Run()
	require.True(t, m.SSD.FW.PoweredOff())
	require.False(t, r.Finished(), "nothing completes after the cut")
	require.Equal(t, 8, r.Inflight())
	r.Stop()
	require.True(t, r.Finished())
	res := r.Result()
	require.Equal(t, int64(8), res.Unfinished)
	require.Positive(t, res.Requests)
	require.Less(t, res.Requests, int64(4000-8))
	require.LessOrEqual(t, res.LastCompletion, m.SSD.FW.PowerLossReport().At)
	r.Stop() // a second Stop changes nothing
	require.Equal(t, int64(8), r.Result().Unfinished)
}
