package calibrate

import (
	"os"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/stretchr/testify/require"
)

// TestReplayOfATargetIsSerial: a uflip.json of a real device (fastdrain uflip --target) was
// measured one IO at a time whatever the streams (FileDevice), and its parallel runs are
// replayed so. testdata/uflip-small.json's parallelism RR point (8 streams of 4 KiB random
// reads on tiny, 4 dies) replayed as measured on a simulated drive keeps 8 reads in flight
// and each waits behind others on its die; replayed as a target's, each read is served
// alone and costs what one stream's read costs. So the serial replay's mean is below the
// parallel one's (observed 237 against 1,643 µs), and within 10 % of one stream's 4 KiB
// random reads on the same machine (229 µs; the streams read other addresses).
func TestReplayOfATargetIsSerial(t *testing.T) {
	base, err := platforms.Load(platforms.Options{Preset: "tiny"})
	require.NoError(t, err)
	b, err := os.ReadFile("testdata/uflip-small.json")
	require.NoError(t, err)
	mean := func(doc string) (par, alone float64) {
		s := &Set{}
		require.NoError(t, s.add([]byte(doc), "uflip.json", ""))
		sims, err := Simulate(base, s, SimOptions{})
		require.NoError(t, err)
		for i, p := range s.Points {
			if p.uflip.run.ParallelDegree == 8 {
				par = sims[i]
			}
		}
		// One stream's 4 KiB random read on the same machine.
		one := &Set{Capacity: s.Capacity, Seed: 1}
		pt := s.Points[1]
		u := *pt.uflip
		u.run.ParallelDegree, u.serial = 1, false
		pt.uflip = &u
		one.Points = []Point{pt}
		sims, err = Simulate(base, one, SimOptions{})
		require.NoError(t, err)
		return par, sims[0]
	}
	parallel, alone := mean(string(b))
	serial, _ := mean(strings.Replace(string(b), `"simulated": true`, `"simulated": false`, 1))
	t.Logf("8 streams: %.1f us in parallel, %.1f us one at a time; one stream %.1f us", parallel, serial, alone)
	require.Less(t, serial, parallel)
	require.InEpsilon(t, alone, serial, 0.10)
}

// TestReadbackHasNoFlashTime: the calibration plan's read-back points (256 KiB written,
// then read over and over) are served from tiny's write buffer: the firmware keeps a page
// it has programmed as a clean slot for read hits (firmware/buffer), and 256 KiB is 64 of
// its 256 slots. So no read-back IO waits for a die and tR is not in their means: with tR
// ×4 each moves by less than 10 ns (observed 1.1 ns at 4 KiB: the run starts at another
// instant against the controller's and the link's clocks when earlier runs took longer),
// while each 32 KiB random read of the same plan has at least one tR on its path and grows
// by at least the LSB tR's increase, 3 × 58 µs (less 10 %). The firmware's clock is in every
// read-back (200 MHz for 400: every step's cycles take twice as long), and so is the link
// (Gen1 × 1 for Gen3 × 4: 256 KiB at 250 MB/s take 1,049 µs on the wire, against 66 µs at
// 3.94 GB/s): each raises every read-back's mean by more than 5 % (Identifiable), and the
// link the 256 KiB one by more than the 983 µs difference.
func TestReadbackHasNoFlashTime(t *testing.T) {
	base, err := platforms.Load(platforms.Options{Preset: "tiny"})
	require.NoError(t, err)
	spec := uflip.DefaultPlanSpec()
	spec.Benches = []uflip.Bench{uflip.BenchGranularity, uflip.BenchReadback}
	spec.IOSizes = []int64{4096, 32768, 262144}
	spec.IOCount = uflip.BaseCounts{SR: 32, RR: 32, SW: 32, RW: 32}
	spec.IOIgnore = uflip.BaseCounts{}
	spec.NbRun, spec.Format, spec.Settle, spec.RunPause = 1, uflip.FormatNone, uflip.SettleFlush, 0
	s := planSet(t, spec, 16<<20)
	sim := func(c platforms.Config) map[string]float64 {
		sims, err := Simulate(c, s, SimOptions{})
		require.NoError(t, err)
		out := map[string]float64{}
		for i, p := range s.Points {
			out[p.Name] = sims[i]
		}
		return out
	}
	at := sim(base)
	slowFlash := sim(setParam(t, base, "t_read", 4*58))
	slowClock := sim(setParam(t, base, "core_freq", 200))
	slowLink := sim(setParam(t, base, "pcie", 101))
	var readbacks int
	for _, p := range s.Points {
		n := p.Name
		t.Logf("%s: %.2f us; tR x4 %.2f, 200 MHz %.2f, gen1 x1 %.2f", n, at[n], slowFlash[n], slowClock[n], slowLink[n])
		switch {
		case strings.HasPrefix(n, "readback/"):
			readbacks++
			require.InDelta(t, at[n], slowFlash[n], 0.01, "%s: no flash read", n)
			require.Greater(t, slowClock[n], at[n]*1.05, n)
			require.Greater(t, slowLink[n], at[n]*1.05, n)
		case n == "granularity/RR/io_size=32768":
			require.Greater(t, slowFlash[n]-at[n], 3*58*0.9, n)
		}
	}
	require.Equal(t, 3, readbacks)
	rb := "readback/SR/io_size=262144"
	require.Greater(t, slowLink[rb]-at[rb], 1049-66.0, "a 256 KiB transfer on Gen1 x1")
}
