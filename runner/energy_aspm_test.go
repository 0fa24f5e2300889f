package runner

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/energy"
	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestASPMLinkEnergyConserved: a 50 ms Ungzip run on fastdrain-tlc (Gen3 x4: 8 lane-
// directions) with L0s and L1 on. Every lane-direction is in exactly one of L0, L0s and L1
// at every instant, so the standby rows divided by their per-lane powers (30, 15 and 3 mW)
// add up to 8 × the window, and the link spends less than with ASPM off, where the L0 row
// alone is 8 × 30 mW × the window and the L0s and L1 rows are not shown.
func TestASPMLinkEnergyConserved(t *testing.T) {
	run := func(sets ...string) *Result {
		c, sc := setup(t, "fd", "ungzip", 50*sim.Millisecond, sets...)
		r, err := Run(Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
		require.NoError(t, err)
		require.NotNil(t, r.Energy)
		return r
	}
	row := func(a *energy.Account, act string) float64 {
		for i, r := range energy.Rows() {
			if r.Component == energy.PCIeLink && r.Activity == act {
				return a.J[i]
			}
		}
		t.Fatalf("no row %s", act)
		return 0
	}
	on := run("pcie.aspm.l0s=true", "pcie.aspm.l1=true").Energy
	secs := on.Seconds()
	laneSecs := row(on, "L0 standby")/0.030 + row(on, "L0s standby")/0.015 + row(on, "L1 standby")/0.003
	require.InEpsilon(t, 8*secs, laneSecs, 1e-6)
	require.Positive(t, row(on, "L1 standby"), "the link never reached L1")

	off := run().Energy
	require.False(t, off.ASPM)
	require.InEpsilon(t, 8*0.030*off.Seconds(), row(off, "L0 standby"), 1e-9)
	require.Less(t, on.Component(energy.PCIeLink), off.Component(energy.PCIeLink))
}
