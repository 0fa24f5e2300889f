package flashbench

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// oneDie is one channel with one single-plane default TLC die.
func oneDie() Config {
	c := DefaultConfig()
	c.Channels = 1
	c.Channel.Dies = 1
	c.Channel.Die.Planes = 1
	c.Channel.Die.BlocksPerPlane = 4
	c.QueueDepth = 1
	return c
}

func TestProgramOneBlockByHand(t *testing.T) {
	// Programming one whole 384-page 2D TLC block at QD 1. The TLC map (docs/sources.md §3.4) has,
	// in 384 pages: 0–5 LSB and 6–7 CSB, then 188 pairs cycling LSB, CSB, MSB = 62 full
	// cycles + LSB + CSB pairs → 132 LSB, 128 CSB, 124 MSB pages. Array time is therefore
	// 132·558 + 128·2201 + 124·5001 µs = 975,508 µs exactly. Each page also moves 16 KiB over
	// the bus at 333 MT/s (16384/333 µs ≈ 49.2 µs) plus a few command/address cycles, with
	// nothing overlapping at QD 1.
	c := oneDie()
	c.ReadWeight, c.ProgramWeight, c.EraseWeight = 0, 1, 0
	c.Ops = 384
	r, err := Run(c)
	require.NoError(t, err)
	require.Equal(t, int64(384), r.Ops[1])
	arr := r.Channels[0].Die(0).Array()
	require.Equal(t, 132*558*sim.Microsecond, arr.BusyAt(r.Elapsed, arr.Activity("program-lsb")))
	require.Equal(t, 128*2201*sim.Microsecond, arr.BusyAt(r.Elapsed, arr.Activity("program-csb")))
	require.Equal(t, 124*5001*sim.Microsecond, arr.BusyAt(r.Elapsed, arr.Activity("program-msb")))
	dataIn := sim.Time(16384) * sim.Second / 333_000_000 // ≈ 49.2 µs per page
	lo := 975_508*sim.Microsecond + 384*dataIn
	hi := lo + 384*2*sim.Microsecond // command/address cycles, tADL, tWB: well under 2 µs a page
	require.GreaterOrEqual(t, r.Elapsed, lo)
	require.LessOrEqual(t, r.Elapsed, hi)
	require.Equal(t, int64(384*16384), r.Bytes)
}

func TestProgramsWrapWithErases(t *testing.T) {
	// Two blocks of 384 pages and 1000 program requests: after 768 pages the write cursor
	// returns to block 0, which must be erased first; the stream turns that request into an
	// erase, then programs again.
	c := oneDie()
	c.Channel.Die.BlocksPerPlane = 2
	c.ReadWeight, c.ProgramWeight, c.EraseWeight = 0, 1, 0
	c.Ops = 1000
	r, err := Run(c)
	require.NoError(t, err)
	require.Equal(t, int64(1), r.Ops[2], "one erase when the cursor wrapped")
	require.Equal(t, int64(999), r.Ops[1])
	require.Equal(t, int64(1), r.Channels[0].Die(0).Stats().Erases)
}

func TestMultiPlaneReadTouchesEveryPlane(t *testing.T) {
	c := oneDie()
	c.Channel.Die.Planes = 2
	c.MultiPlane = true
	c.ReadWeight, c.ProgramWeight = 1, 0
	c.Ops = 100
	r, err := Run(c)
	require.NoError(t, err)
	require.Equal(t, int64(100), r.Ops[0])
	require.Equal(t, int64(200), r.Pages[0])
	require.Equal(t, int64(200*16384), r.Bytes)
}

func TestValidate(t *testing.T) {
	c := DefaultConfig()
	c.Channels, c.QueueDepth, c.Ops = 0, 0, 0
	c.ReadWeight, c.ProgramWeight, c.EraseWeight = 0, 0, 0
	c.Channel.Dies = 0
	err := c.Validate()
	for _, s := range []string{"channels:", "qd:", "ops:", "mix:", "channel.dies"} {
		require.ErrorContains(t, err, s)
	}
}

func runText(t *testing.T, c Config) string {
	t.Helper()
	r, err := Run(c)
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, r.WriteText(&b))
	return b.String()
}

// TestDeterminism: the same configuration gives byte-identical output run after run and
// under GOMAXPROCS 1 and 2.
func TestDeterminism(t *testing.T) {
	c := DefaultConfig()
	c.Channels, c.Ops = 4, 20_000
	c.ReadWeight, c.ProgramWeight, c.EraseWeight = 60, 35, 5
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	a := runText(t, c)
	runtime.GOMAXPROCS(2)
	b := runText(t, c)
	require.Equal(t, a, b)
	require.Equal(t, a, runText(t, c))
	c.Seed++
	require.NotEqual(t, a, runText(t, c), "another seed gives another run")
}

// BenchmarkFlashbench measures simulated flash operations per wall-second on the default
// array (issue 2 target: ≥ 2 M per second on one core).
func BenchmarkFlashbench(b *testing.B) {
	c := DefaultConfig()
	c.Ops = 200_000
	b.ReportAllocs()
	var ops int64
	for i := 0; i < b.N; i++ {
		r, err := Run(c)
		if err != nil {
			b.Fatal(err)
		}
		ops += r.TotalOps()
	}
	b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "flashops/s")
}
