package firmware

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// powerOnFlash builds the rig's flash as it is at the next power-on: fresh channels of the
// same spec on a fresh engine, and the channels.
func powerOnFlash(t *testing.T, r *rig) (*sim.Engine, FlashPort, []*channel.Channel) {
	eng := sim.NewEngine()
	var chans []*channel.Channel
	for i := range r.chans {
		ch, err := channel.New(eng, fmt.Sprintf("ssd.ch[%d]", i), r.chans[i].Spec())
		require.NoError(t, err)
		chans = append(chans, ch)
	}
	return eng, hwFlash(t, chans), chans
}

// TestRecoverOnSimulatesScan: the 200-page case of TestPowerCutDrainsWithProtection with
// the scan simulated. Each die reads its 50 programmed pages (pages 0 … 24 of one block on
// each of its 2 planes) one at a time, so its array time is the estimate's
// 2 × (12 × 58 + 8 × 78 + 5 × 107) µs = 3,710 µs. Each read also takes the bus (the rig's
// ONFI is NV-DDR2 mode 6: 333 MT/s on 8 bits, tWC = tCAD = 25 ns, tWB 100 ns, tRR 20 ns;
// FACTS §3.2): before tR the command 00h, 2 column + 3 row address cycles and 30h, then
// tWB: c = 7 × 25 + 100 = 275 ns; after tR, tRR and the record's 8 B:
// o = 20 ns + ⌈8 × 10⁶ / 333⌉ ps = 20,000 + 24,025 = 44,025 ps. A die alone on its
// channel takes 3,710 µs + 50 × (c + o) = 3,710 µs + 50 × 319,025 ps = 3,725,951,250 ps.
// Two dies share each channel, both submitted at 0: die A's command runs [0, c], die B's
// [c, 2c]. A's data-out ends at c + tR + o and A's next command takes the bus until
// 2c + tR + o, while B's tR ended at 2c + tR: B waits o once. From then on B runs
// c + o behind A, A's command ends exactly when B's tR does (both read the same page
// types in the same order), and neither waits again; A is never delayed (B's bus phases
// end before A's next tR does, tR ≥ 58 µs). So the scan ends with die B's last read,
// at 3,725,951,250 + (c + o) = 3,725,951,250 + 319,025 = 3,726,270,275 ps: the estimate
// plus 16,270,275 ps (0.44 %) of bus time the closed form leaves out.
func TestRecoverOnSimulatesScan(t *testing.T) {
	r := writeThenCut(t, true, 0, 200)
	est, err := r.fw.Recover()
	require.NoError(t, err)
	eng, port, chans := powerOnFlash(t, r)
	rec, err := r.fw.RecoverOn(eng, port)
	require.NoError(t, err)
	require.Equal(t, 3710*sim.Microsecond, rec.Estimate)
	require.Equal(t, est.Map, rec.Map)
	require.Equal(t, int64(200), rec.Scanned)
	require.Equal(t, int64(200), rec.Mapped)
	require.Equal(t, sim.Time(3_726_270_275), rec.Time)
	var reads int64
	for _, ch := range chans {
		reads += ch.Stats().Reads
	}
	require.Equal(t, int64(200), reads, "one read a scanned page")
}

// TestRecoverOnRefused: RecoverOn needs the firmware stopped (Recover's check) and a flash
// port of the firmware's geometry (the rig has 2 channels × 2 dies; a port of one channel
// is refused).
func TestRecoverOnRefused(t *testing.T) {
	r := newRig(t, plSpec(Vanilla, true, 0), nil)
	eng, port, _ := powerOnFlash(t, r)
	_, err := r.fw.RecoverOn(eng, port)
	require.ErrorContains(t, err, "before the firmware stopped")

	r = writeThenCut(t, false, 0, 8)
	ch, err := channel.New(eng, "ssd.ch[0]", r.chans[0].Spec())
	require.NoError(t, err)
	_, err = r.fw.RecoverOn(eng, hwFlash(t, []*channel.Channel{ch}))
	require.ErrorContains(t, err, "another geometry")
	_, err = r.fw.RecoverOn(nil, nil)
	require.ErrorContains(t, err, "needs an engine and a flash port")
}

// TestPowerLossOutcome: the drain's outcome as the run's and compare's tables name it.
func TestPowerLossOutcome(t *testing.T) {
	require.Equal(t, "stopped at the cut", PowerLossReport{}.Outcome())
	require.Equal(t, "drained", PowerLossReport{Protected: true, Drained: true}.Outcome())
	require.Equal(t, "stuck: no room outside the GC reserve", PowerLossReport{Protected: true, Stuck: true}.Outcome())
	require.Equal(t, "hold-up ran out", PowerLossReport{Protected: true}.Outcome())
}
