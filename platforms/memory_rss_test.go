package platforms

import (
	"fmt"
	"os"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/internal/rsschild"
	"github.com/fastdrain-sim/fastdrain/internal/sysmem"
	"github.com/fastdrain-sim/fastdrain/internal/testtier"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// rssChild names the configuration TestMemoryRSSChild builds: "preset;set;set…".
const rssChild = "FASTDRAIN_RSS_CHILD"

// TestMemoryEstimateMatchesRSS: the estimate at build against the peak resident set of a
// process that builds the machine and writes 8 MiB through its raw device (a short run:
// what the configuration holds, not what a long workload grows), measured by the kernel
// (VmHWM of /proc/self/status) in a child process of its own, as a run of the command
// would be. Issue 38: the estimate counted the FTL's whole maps, 2.1 × the resident set of
// a 4 TiB array, whose maps are zeros the run has not written. The tiny preset calibrates
// the flat part (programBytes: the program, the runtime, the small structures); the others
// check what the parts count, within 20 %: fastdrain-small here, and in the long tier
// fastdrain-tlc-8x, fastdrain-tlc (141.7 MB estimated, 140.6 MB measured), mqsim-ref
// (sub-page mapping, not preconditioned: its maps untouched) and fastdrain-small at 131,072
// blocks a plane, 4 TiB, whose touched maps are by hand 0.5 × 834,619,520 map entries and
// 1.1 × that reverse-map entries at 4 B: 3.51 GB of the 3.60 GB estimated (3.80 GB
// measured; the whole maps are 7.63 GB).
func TestMemoryEstimateMatchesRSS(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("the resident set is read from Linux's /proc/self/status")
	}
	cases := []struct {
		name string
		spec string // rssChild's value
		long bool
	}{
		{"tiny", "tiny", false},
		{"fastdrain-small", "fastdrain-small", false},
		{"fastdrain-tlc-8x", "fastdrain-tlc-8x", true},
		{"fastdrain-tlc", "fastdrain-tlc", true},
		{"mqsim-ref", "mqsim-ref", true},
		{"4TiB", "fastdrain-small;flash.die.blocks_per_plane=131072", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.long {
				testtier.SkipUnlessLong(t, "builds a large machine in a child process (the 4 TiB one takes 3.6 GiB)")
			}
			preset, sets := rsschild.Config(c.spec)
			cfg, err := Load(Options{Preset: preset, Sets: sets})
			require.NoError(t, err)
			e := cfg.EstimateMemory()
			// A loaded machine only raises the peak (the collector's background marking falls
			// behind the allocations, so the heap overshoots its goal): a measurement out
			// of band is taken again, up to three times, and the lowest peak is the one
			// judged (one such overshoot, 46.0 against 36.0 MB, was seen at load 30).
			var hwm, base int64
			for try := 0; try < 3; try++ {
				got := rsschild.Run(t, "TestMemoryRSSChild", rssChild, c.spec)
				if h := got["vmhwm"]; try == 0 || h < hwm {
					hwm, base = h, got["baseline"]
				}
				require.Positive(t, hwm)
				if rel := float64(e.Build-hwm) / float64(hwm); rel < 0.2 && rel > -0.2 {
					break
				}
			}
			t.Logf("%s: estimated %d B at build, measured %d B from a baseline of %d B (%.2f)", c.name, e.Build, hwm, base, float64(e.Build)/float64(hwm))
			require.InEpsilon(t, float64(hwm), float64(e.Build), 0.2)
		})
	}
}

// TestMemoryRSSChild is TestMemoryEstimateMatchesRSS's child process: it builds the
// configuration rssChild names, writes 2,048 pages of 4 KiB through the raw device, one at
// a time, and prints its peak resident set in bytes.
func TestMemoryRSSChild(t *testing.T) {
	spec := os.Getenv(rssChild)
	if spec == "" {
		t.Skip("run by TestMemoryEstimateMatchesRSS")
	}
	fmt.Printf("baseline %d\n", statusBytes(t, "VmRSS"))
	preset, sets := rsschild.Config(spec)
	c, err := Load(Options{Preset: preset, Sets: sets})
	require.NoError(t, err)
	m, err := Build(c)
	require.NoError(t, err)
	defer m.Eng.Close()
	raw, err := hostos.NewRawDevice(m.Host, m.SSD.FW.LogicalPages()*int64(c.Firmware.PageSize))
	require.NoError(t, err)
	m.Eng.Spawn("writer", func(p *sim.Proc) {
		for i := range int64(2048) {
			_, err := raw.Do(p, uflip.OpWrite, i*4096, 4096)
			require.NoError(t, err)
		}
		m.Eng.Stop()
	})
	m.Eng.Run()
	fmt.Printf("vmhwm %d\n", statusBytes(t, "VmHWM"))
}

// statusBytes returns a memory field of /proc/self/status in bytes (sysmem.ProcStatus).
func statusBytes(t *testing.T, key string) int64 {
	n, err := sysmem.ProcStatus(key)
	require.NoError(t, err)
	return n
}
