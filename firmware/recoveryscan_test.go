package firmware

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// powerOnFlash builds the rig's flash as it is at the next power-on: fresh channels of the
// same spec on a fresh engine.
func powerOnFlash(t *testing.T, r *rig) (*sim.Engine, FlashPort) {
	eng := sim.NewEngine()
	var chans []*channel.Channel
	for i := range r.chans {
		ch, err := channel.New(eng, fmt.Sprintf("ssd.ch[%d]", i), r.chans[i].Spec())
		require.NoError(t, err)
		chans = append(chans, ch)
	}
	return eng, Hardware{Channels: chans}.Ports().Flash
}

// TestRecoverOnSimulatesScan: the 200-page case of TestPowerCutDrainsWithProtection with
// the scan simulated. Each die reads its 50 programmed pages (pages 0 … 24 of one block on
// each of its 2 planes) one at a time, so its array time is the estimate's
// 2 × (12 × 58 + 8 × 78 + 5 × 107) µs = 3,710 µs. Each read also takes the bus (the rig's
// ONFI is NV-DDR2 mode 6, 533 MT/s on 8 bits, tWC = tCAD = 25 ns, tWB 100 ns, tRR 20 ns;
// FACTS §3.2): the command 00h, 2 column + 3 row address cycles, 30h, then tWB:
// 7 × 25 + 100 = 275 ns before tR; after it tRR 20 ns and the record's 8 B at 533 MT/s:
// ⌈8 × 10⁶ / 533⌉ ps = 15,010 ps. So a die alone on its channel would take
// 3,710 µs + 50 × (275 + 20 + 15.01) ns = 3,710 µs + 15,500.5 ns = 3,725,500,500 ps.
// Two dies share each channel: the second die's command waits for the first's (275 ns
// once at the start), and afterwards the dies' bus phases (310 ns every ~74 µs) can meet
// again when their tR differ; the simulated scan is asserted between the lone-die figure
// and that plus 50 waits of one bus phase each (310 ns): at most 3,741,000 ns.
func TestRecoverOnSimulatesScan(t *testing.T) {
	r := writeThenCut(t, true, 0, 200)
	est, err := r.fw.Recover()
	require.NoError(t, err)
	eng, port := powerOnFlash(t, r)
	rec, err := r.fw.RecoverOn(eng, port)
	require.NoError(t, err)
	require.Equal(t, 3710*sim.Microsecond, rec.Estimate)
	require.Equal(t, est.Map, rec.Map)
	require.Equal(t, int64(200), rec.Scanned)
	require.Equal(t, int64(200), rec.Mapped)
	t.Logf("simulated scan %d ps, estimate %d ps", rec.Time, rec.Estimate)
	require.GreaterOrEqual(t, rec.Time, sim.Time(3_725_500_500))
	require.LessOrEqual(t, rec.Time, sim.Time(3_741_000_000))
	var reads int64
	for _, ch := range port.(*channelPort).chans {
		reads += ch.Stats().Reads
	}
	require.Equal(t, int64(200), reads, "one read a scanned page")
}
