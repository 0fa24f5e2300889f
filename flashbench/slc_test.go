package flashbench

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// TestSLCProgramsByHand: in pSLC mode a 384-page 2D TLC block holds 384 / 3 = 128 pages,
// each programmed in the SLC tPROG of 300 µs (HP's SLC/MLC/TLC white paper, Table 1: SLC
// program 200–300 µs), so 300 programs at QD 1 fill blocks 0 and 1 (256 pages), erase block
// 0 when the cursor wraps (one of the 300 requests), and program 43 more: 299 × 300 µs
// = 89,700 µs of program-slc plus one erase, with 299 × 16 KiB in on the bus. The control,
// TestProgramOneBlockByHand, programs the same block natively in 975,508 µs for 384 pages
// (2,540 µs a page against 300).
func TestSLCProgramsByHand(t *testing.T) {
	c := oneDie()
	c.Channel.Die.BlocksPerPlane = 2
	c.Channel.Die.SLC = die.SLCSpec{TRead: 25 * sim.Microsecond, TProg: 300 * sim.Microsecond}
	c.SLC = true
	c.ReadWeight, c.ProgramWeight, c.EraseWeight = 0, 1, 0
	c.Ops = 300
	r, err := Run(c)
	require.NoError(t, err)
	require.Equal(t, int64(299), r.Ops[1])
	require.Equal(t, int64(1), r.Ops[2])
	d := r.Channels[0].Die(0)
	arr := d.Array()
	require.Equal(t, 299*300*sim.Microsecond, arr.BusyAt(r.Elapsed, arr.Activity("program-slc")))
	require.Equal(t, int64(299), d.Stats().SLCPrograms)
	require.Equal(t, int64(1), d.Stats().SLCErases)
	require.Equal(t, 43, d.NextPage(0, 0))
	require.True(t, d.IsSLC(0, 0))

	c.Channel.Die.SLC = die.SLCSpec{}
	require.ErrorContains(t, c.Validate(), "slc: the tlc die has no SLC mode")
}

// TestIndependentPlaneReadsFaster: 2,000 single-plane reads of random pages on one die of
// two planes at QD 8, read-first arbitration (a read of a free plane may overtake one
// waiting for its plane). Without independent plane reads each read holds the die for its
// tR (80.5 µs on average over the 2D TLC block's 132 LSB, 128 CSB and 124 MSB pages) and
// its 16 KiB data-out (49.2 µs at 333 MT/s), one after another: 2,000 × 129.7 µs ≈ 260 ms.
// With them a read of the other plane senses while one moves its data: the run is more than
// 30 % shorter (it measured 145 ms), and no shorter than the bus time alone (2,000
// data-outs, 98.4 ms) or either plane's own tR.
func TestIndependentPlaneReadsFaster(t *testing.T) {
	c := oneDie()
	c.Channel.Die.Planes = 2
	c.QueueDepth, c.Ops = 8, 2000
	c.ReadWeight, c.ProgramWeight = 1, 0
	c.Channel.Policy = channel.ReadFirst
	one, err := Run(c)
	require.NoError(t, err)
	c.Channel.Die.IndependentPlaneReads = true
	both, err := Run(c)
	require.NoError(t, err)
	out := 2000 * (sim.Time(16384) * sim.Second / 333_000_000)
	tR := one.Channels[0].Die(0).Array().TotalBusyAt(one.Elapsed)
	require.GreaterOrEqual(t, one.Elapsed, tR+out)
	require.InDelta(t, 260e9, float64(one.Elapsed), 2e9)
	require.Less(t, both.Elapsed, one.Elapsed*7/10)
	require.Greater(t, both.Elapsed, out)
	d := both.Channels[0].Die(0)
	require.Greater(t, both.Elapsed, max(d.Plane(0).TotalBusyAt(both.Elapsed), d.Plane(1).TotalBusyAt(both.Elapsed)))
	t.Logf("one plane at a time %v, independent %v, bus floor %v", one.Elapsed, both.Elapsed, out)
}
