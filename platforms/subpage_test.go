package platforms

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSubPageConfig: mqsim-ref's 8 KiB pages hold two 4 KiB mapping units, so its dies
// keep two stamps a page and its FTL maps twice as many units as pages; 16 KiB pages hold
// four; 12 KiB (three) and 6 KiB (no whole number) are refused naming firmware.page_size;
// power-loss records and program faults are refused with their keys.
func TestSubPageConfig(t *testing.T) {
	c, err := Load(Options{Preset: "mqsim-ref"})
	require.NoError(t, err)
	require.Equal(t, 2, c.DieSpec().Slots)
	require.Equal(t, 2, c.SSDChannelSpec().Die.StampsPerPage())
	require.Zero(t, c.Flash.ChannelSpec().Die.Slots, "flashbench's array keeps one stamp a page")
	c, err = Load(Options{Preset: "mqsim-ref", Sets: []string{"flash.die.page_size=16384"}})
	require.NoError(t, err)
	require.Equal(t, 4, c.DieSpec().Slots)
	c, err = Load(Options{Preset: "tiny"})
	require.NoError(t, err)
	require.Zero(t, c.DieSpec().Slots)
	for sets, want := range map[string]string{
		"flash.die.page_size=12288":                      "firmware.page_size: 4096-byte mapping units in 12288-byte flash pages are 3 a page; sub-page mapping packs 1, 2 or 4",
		"flash.die.page_size=6144":                       "firmware.page_size: 4096 does not divide the flash page size 6144 (flash.die.page_size)",
		"flash.die.faults.program_fail=0.001":            "flash.die.faults.program_fail: 0.001: not supported with sub-page mapping",
		"precondition.fill=1,precondition.overwrite=0.5": "mapping-unit writes need more than the",
	} {
		_, err := Load(Options{Preset: "mqsim-ref", Sets: strings.Split(sets, ",")})
		require.ErrorContains(t, err, want, sets)
	}
}
