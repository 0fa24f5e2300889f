package runner

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestScenarioThatCannotFitIsRefusedUpFront(t *testing.T) {
	// tiny has 64 MiB of flash and a 48 MiB namespace after over-provisioning; DB-S's default table is 2 GiB, so
	// its set-up would run into ENOSPC. Run refuses it before simulating, naming the
	// section that sizes it.
	c, err := platforms.Load(platforms.Options{Preset: "tiny"})
	require.NoError(t, err)
	sc, err := apps.LookupScenario("db-s")
	require.NoError(t, err)
	sc.Duration = 10 * sim.Millisecond
	_, err = Run(Options{Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
	require.ErrorContains(t, err, "scenario db-s: its data sets need 2.0 GiB at set-up but the device's file system holds 48.0 MiB")
	require.ErrorContains(t, err, "(apps.db_s)")
}
