package powercut

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMatrixUnboundedPLP: an unbounded buffer (oracle-bg, oracle) is never cut with
// power-loss protection (Matrix.Targets). With --plp both the variant keeps its no-plp
// target only, the bounded variant both, and one note names the variant and the reason;
// with protection alone, or forced by a --set, the matrix is refused naming the variant,
// the policy and --plp off.
func TestMatrixUnboundedPLP(t *testing.T) {
	m := Matrix{Preset: "tiny", Variants: []string{"vanilla", "oracle-bg"}, PLP: []bool{true, false}, Mappings: []string{"page", "sub-page"}}
	ts, notes, err := m.Targets()
	require.NoError(t, err)
	var labels []string
	for _, tg := range ts {
		labels = append(labels, tg.Label)
	}
	require.Equal(t, []string{"vanilla plp page", "vanilla plp sub-page", "vanilla no-plp page", "vanilla no-plp sub-page",
		"oracle-bg no-plp page", "oracle-bg no-plp sub-page"}, labels)
	require.Len(t, notes, 1, "one note a variant, whatever the mappings")
	require.Equal(t, "oracle-bg", notes[0].Variant)
	require.Contains(t, notes[0].Text, "powercut: oracle-bg is cut without power-loss protection only: its write buffer (firmware.buffer.policy oracle-bg) is unbounded")

	for _, bad := range []Matrix{
		{Preset: "tiny", Variants: []string{"vanilla", "oracle"}, PLP: []bool{true}, Mappings: []string{"page"}},
		{Preset: "tiny", Variants: []string{"oracle"}, PLP: []bool{true, false}, Mappings: []string{"page"},
			Sets: []string{"firmware.power_loss_protection=true"}},
	} {
		_, _, err := bad.Targets()
		require.ErrorContains(t, err, "powercut: oracle, page: its write buffer (firmware.buffer.policy oracle) is unbounded, and power-loss protection cannot protect an unbounded buffer")
		require.ErrorContains(t, err, "; cut it with --plp off")
	}
}

// TestMatrixSLCCacheAndSteadyState: gen4-qlc, SLC cache and all, is cut (recovery reads each
// block in the mode its header names, firmware/recoverymode.go), but the campaign's steady
// state does not fit it: the refusal names the largest fill that fits, worked by hand (the
// preconditioning writes native blocks, and the cache's region is taken from the free
// blocks as they come, so the room is the same with or without it): the array holds
// 16 dies × 4 planes × 32 blocks × 512 pages × 4 units = 4,194,304 units; at 10 %
// over-provisioning ⌊0.9 × 4,194,304⌋ = 3,774,873 are logical; the firmware's refusal
// reports 3,014,656 units of room (23 of each plane's 32 blocks: 64 planes × 23 × 2,048).
// A fill f writes f × 1.04 × 3,774,873 units (4 % overwritten), so f ≤ 3,014,656 /
// 3,925,868 = 0.7679: 0.76 fits, 0.77 (3,022,918 units) does not. At 0.76 the matrix loads.
func TestMatrixSLCCacheAndSteadyState(t *testing.T) {
	m := Matrix{Preset: "gen4-qlc", Variants: []string{"vanilla"}, PLP: []bool{true}, Mappings: []string{"page"}}
	_, _, err := m.Targets()
	require.ErrorContains(t, err, "need more than the 3014656 mapping units outside the GC reserve")
	require.ErrorContains(t, err, "the campaign's steady state (precondition.fill=0.9, precondition.overwrite=0.04, precondition.random=true, firmware.ftl.over_provisioning=0.1) does not fit this machine: precondition.fill 0.76 is the most that fits with precondition.overwrite 0.04 (--set precondition.fill=0.76), or keep the preset's own preconditioning with --keep-precondition")

	m.Sets = append(m.Sets, "precondition.fill=0.76")
	ts, _, err := m.Targets()
	require.NoError(t, err)
	require.Len(t, ts, 1)
	require.True(t, ts[0].Config.Firmware.FTL.SLCCache.Enabled())
	m.Sets[len(m.Sets)-1] = "precondition.fill=0.77"
	_, _, err = m.Targets()
	require.ErrorContains(t, err, "precondition.fill (0.77)")
	require.NotContains(t, err.Error(), "the campaign's steady state", "a fill given by --set is the user's, not the steady state's")
}
