package runner

import (
	"crypto/sha256"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/energy"
	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// energyDigest hashes everything a run's energy account shows: the window, every row's
// joules and every peak (their float64 bits), and every sample of the energy series.
func energyDigest(r *Result) string {
	h := sha256.New()
	a := r.Energy
	fmt.Fprintf(h, "%d %d %d %d\n", a.From, a.To, a.Commands, a.WriteBytes)
	for i, j := range a.J {
		if act := energy.Rows()[i].Activity; (act == "program-tsb" || strings.HasSuffix(act, "-slc")) && !a.Shown(i) {
			continue // the QLC and pSLC rows (issue 34), zero and hidden without such dies: the digests predate them
		}
		fmt.Fprintf(h, "%016x\n", math.Float64bits(j))
	}
	for _, p := range a.Peaks {
		fmt.Fprintf(h, "%d %016x %d\n", p.Window, math.Float64bits(p.Watts), p.End)
	}
	for _, s := range r.Series {
		if strings.HasPrefix(s.Name, "energy.") {
			fmt.Fprintf(h, "%s %v\n", s.Name, s.Samples)
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil))[:16]
}

// TestEnergyAsTheDaemonMadeIt pins the energy of three runs of fastdrain-small (FD,
// db-s+ungzip, 200 ms) to the digests and event counts the meter gave when it read its
// buckets with a daemon event each (main at 335392f, before the engine's watches,
// computed by this test there): the default 1 ms buckets; pcie.aspm L0s and L1 on (the
// link's residency is read at every bucket end; its digest is 335392f's with the ASPM exit
// window fix of 770e762 applied there, which moves TLPs asked for during an exit behind the
// one that woke the link); 250 µs buckets. The series are sampled
// every bucket (SampleInterval = the resolution), so every bucket is in the digest, in
// mW. The watch gives the same digest, and the run fires one event fewer per bucket end
// before the last event: every bucket but the last, which Stop closes in both. Issue 37's
// two cuts (nvmectrl applies CQ head doorbells and CQE landings when it looks, without an
// arrival event each) fire 336 events fewer in each of the three runs, the same I/O, with
// the digests unchanged: the count is the daemon's less both.
func TestEnergyAsTheDaemonMadeIt(t *testing.T) {
	for _, tc := range []struct {
		name        string
		sets        []string
		res         sim.Time
		digest      string
		daemonFired uint64
	}{
		{"1ms", nil, sim.Millisecond, "09e82d02f00a9fbc", 14586},
		{"aspm", []string{"pcie.aspm.l0s=true", "pcie.aspm.l1=true"}, sim.Millisecond, "818678894fdd3b9e", 14592},
		{"250us", []string{"energy.resolution=250us"}, 250 * sim.Microsecond, "9662e1242187758a", 15863},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := platforms.Load(platforms.Options{Preset: "fastdrain-small", Variant: "fd", Sets: tc.sets})
			require.NoError(t, err)
			sc, err := apps.LookupScenario("db-s+ungzip")
			require.NoError(t, err)
			sc.Duration = 200 * sim.Millisecond
			r, err := Run(Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()},
				SampleInterval: tc.res})
			require.NoError(t, err)
			a := r.Energy
			buckets := uint64((a.To - a.From + tc.res - 1) / tc.res)
			require.Equal(t, tc.digest, energyDigest(r))
			// Events issue 37's cuts leave out of this run: 336 arrivals applied when looked
			// at, 168 arbitrations run as the rest of the event that kicked them.
			const cut = 336 + 168
			require.Equal(t, tc.daemonFired-(buckets-1)-cut, r.Events, "%d buckets", buckets)
		})
	}
}
