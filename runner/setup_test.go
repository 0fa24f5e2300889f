package runner

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// setup loads fastdrain-tlc with variant and sets, and looks up scenario with its duration
// set to d: the common start of the runner tests.
func setup(t *testing.T, variant, scenario string, d sim.Time, sets ...string) (platforms.Config, apps.Scenario) {
	t.Helper()
	c, err := platforms.Load(platforms.Options{Preset: "fastdrain-tlc", Variant: variant, Sets: sets})
	require.NoError(t, err)
	sc, err := apps.LookupScenario(scenario)
	require.NoError(t, err)
	sc.Duration = d
	return c, sc
}
