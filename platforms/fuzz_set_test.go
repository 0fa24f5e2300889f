package platforms

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzSet fuzzes the command line's --set path=value overrides on a preset: Load must never
// panic, a rejected override must be reported under its --set text, and an accepted one
// must give a valid configuration whose resolved YAML decodes back to the same
// configuration. Two overrides are fuzzed at once so that later ones meet earlier ones.
func FuzzSet(f *testing.F) {
	for _, s := range []string{
		"flash.channels=4", "flash.die.blocks_per_plane=512", "firmware.core_freq=400MHz",
		"pcie.lanes=3", "host.pagecache.memory=1GiB", "flash.die.t_read.lsb=58us",
		"firmware.buffer.watermarks.low=0.9", "nope=1", "flash..channels=1", "=3",
		"flash.channels", "firmware.ftl.allocator=latency-aware", "flash.die.cell=qlc",
		"precondition.fill=2", "seed=-1", "flash.onfi.mode=99", "a.b: c=1", "flash.channels=[1]",
		// Issue 38's silent acceptances: a fraction for a count, an empty or null value.
		"flash.channels=3.7", "flash.channels=", "flash=~", "seed=1.5", "firmware.buffer.pages=1e3",
		"firmware.power_loss.holdup=1ms", "precondition.fill=.nan",
		"firmware.buffer.background_set=share", "firmware.buffer.background_set=all",
		"firmware.buffer.background_set=per-eviction",
		// YAML flow lists and mappings (issue s33set): read as a file reads them.
		"nvme.fdp.reclaim_group_dies=[1,3]", "nvme.fdp.reclaim_group_dies=[1,x]", "energy.peak_windows=[]",
		"energy.nand={icc2: 30mA, vccq: 1.8V}", "flash={channels: 2}", "flash=[1", "flash.die.faults.scripted=[{op: 1}]",
	} {
		f.Add(s, "")
		f.Add(s, "firmware.buffer.policy=fastdrain")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		sets := []string{a}
		if b != "" {
			sets = append(sets, b)
		}
		c, err := Load(Options{Preset: "tiny", Sets: sets})
		if err != nil {
			msg := err.Error()
			named := func(s string) bool { return strings.Contains(msg, s) || strings.Contains(msg, strconv.Quote(s)) }
			if strings.HasPrefix(msg, "--set ") && !named(a) && !named(b) {
				t.Fatalf("error does not name its --set: %v", err)
			}
			return
		}
		require.NoError(t, c.Validate())
		out, err := c.Resolved()
		require.NoError(t, err)
		back, err := Decode(Source{"resolved", out})
		require.NoError(t, err)
		require.Equal(t, c, back, "resolved YAML round trip")
	})
}
