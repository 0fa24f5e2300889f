package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/rsschild"
	"github.com/fastdrain-sim/fastdrain/internal/sysmem"
	"github.com/fastdrain-sim/fastdrain/internal/testtier"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/stretchr/testify/require"
)

// runRSSChild names the run TestRunRSSChild makes: "preset;set;set…".
const runRSSChild = "FASTDRAIN_RUN_RSS_CHILD"

// TestMemoryPeakMatchesRunRSS: the resource guard's peak estimate (config validate
// --memory's total) against the peak resident set of the default run, `fastdrain run
// --preset P` (10 simulated seconds of the preset's scenario, platforms.RunDuration), in a
// child process of its own, read from the kernel (VmHWM of /proc/self/status): within 20 %
// for every preset whose default run runs and a 4 TiB array (fastdrain-small at 131,072
// blocks a plane). The tiny preset's default run is refused (the scenario's data sets do
// not fit its 48 MiB device); platforms.TestMemoryEstimateMatchesRSS covers its build.
// Issue 38: these runs held 1.30–3.2 times the peak estimated, most of it a 4 KiB host page
// for each stamp written into a DMA buffer and the outgrown copies of tables grown by
// appending (both now gone at the source), the energy trace and the blocks each die opens
// (now counted), then what grows with the run's I/O (the files' page tables, latency
// series, request records: now counted from the scenario's bound, platforms.runIOPages),
// and on a kernel without a shared zero page Identify Namespace's scan of the whole map
// (gone). The long tier: each run takes seconds, the 4 TiB one minutes and 3.6 GiB.
func TestMemoryPeakMatchesRunRSS(t *testing.T) {
	testtier.SkipUnlessLong(t, "runs every preset's default 10 s run in a child process")
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("the resident set is read from Linux's /proc/self/status")
	}
	for _, spec := range []string{"fastdrain-small", "fastdrain-tlc-8x", "fastdrain-tlc", "mqsim-ref",
		"gen4-qlc", "gen4-tlc", "fastdrain-small;flash.die.blocks_per_plane=131072"} {
		t.Run(spec, func(t *testing.T) {
			preset, sets := rsschild.Config(spec)
			c, err := platforms.Load(platforms.Options{Preset: preset, Sets: sets})
			require.NoError(t, err)
			e := c.EstimateMemory()
			hwm := rsschild.Run(t, "TestRunRSSChild", runRSSChild, spec)["vmhwm"]
			require.Positive(t, hwm)
			t.Logf("%s: estimated peak %d B, measured %d B (%.2f)", spec, e.Peak, hwm, float64(e.Peak)/float64(hwm))
			require.InEpsilon(t, float64(hwm), float64(e.Peak), 0.2)
		})
	}
}

// TestRunRSSChild is TestMemoryPeakMatchesRunRSS's child process: it makes the default run
// of the configuration runRSSChild names and prints its peak resident set in bytes.
func TestRunRSSChild(t *testing.T) {
	spec := os.Getenv(runRSSChild)
	if spec == "" {
		t.Skip("run by TestMemoryPeakMatchesRunRSS")
	}
	preset, sets := rsschild.Config(spec)
	args := []string{"run", "--preset", preset, "--no-files"}
	for _, s := range sets {
		args = append(args, "--set", s)
	}
	_, err := run(args...)
	require.NoError(t, err)
	hwm, err := sysmem.ProcStatus("VmHWM")
	require.NoError(t, err)
	fmt.Printf("vmhwm %d\n", hwm)
}
