package calibrate

import (
	"os"
	"strings"
	"testing"

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
