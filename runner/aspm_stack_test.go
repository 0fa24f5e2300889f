package runner

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/energy"
	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// TestASPMWholeStackCompletes is the whole-stack regression test of the ASPM exit reorder
// (pcie.TestASPMExitKeepsPostedOrder): fastdrain-small, db-s+ungzip, 500 ms, with L1 on.
// Before the fix the SQ 1 tail doorbells 184 and 185, rung 2.5 µs apart while the link
// left L1, arrived as 185 then 184; the controller took 184 for a wrap of 255 new entries,
// fetched stale SQEs and completed CID 0 twice, and nvmedrv panicked ("completion for
// command identifier 0, which is not in flight") at 478.2 ms (vanilla, L1) and 454.8 ms
// (fd, L0s and L1). Each run now completes and the link reached L1.
func TestASPMWholeStackCompletes(t *testing.T) {
	if testing.Short() {
		t.Skip("three 500 ms whole-stack runs")
	}
	for _, tc := range []struct {
		variant string
		sets    []string
	}{
		{"vanilla", []string{"pcie.aspm.l1=true"}},
		{"fd", []string{"pcie.aspm.l1=true"}},
		{"fd", []string{"pcie.aspm.l0s=true", "pcie.aspm.l1=true"}},
	} {
		t.Run(tc.variant+"-"+tc.sets[0], func(t *testing.T) {
			c, err := platforms.Load(platforms.Options{Preset: "fastdrain-small", Variant: tc.variant, Sets: tc.sets})
			require.NoError(t, err)
			sc, err := apps.LookupScenario("db-s+ungzip")
			require.NoError(t, err)
			sc.Duration = 500 * sim.Millisecond
			r, err := Run(Options{Label: tc.variant, Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
			require.NoError(t, err)
			require.GreaterOrEqual(t, r.Ended-r.Began, sc.Duration)
			for _, a := range r.Apps {
				require.Positive(t, a.Requests, a.App)
			}
			require.NotNil(t, r.Energy)
			l1 := 0.0
			for i, row := range energy.Rows() {
				if row.Component == energy.PCIeLink && row.Activity == "L1 standby" {
					l1 = r.Energy.J[i]
				}
			}
			require.Positive(t, l1, "the link never reached L1")
		})
	}
}
