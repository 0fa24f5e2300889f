package powercut

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTwoCutQuick is a smoke run of the two-cut schedule.
func TestTwoCutQuick(t *testing.T) {
	rows := cutFlashCampaign(t, Matrix{Preset: "tiny", Variants: []string{"vanilla", "fd"}, PLP: []bool{true, false},
		Mappings: []string{"page"}}, []string{"two-cut"}, 2)
	for _, r := range rows {
		require.Zero(t, r.FailedCuts, "%s: %s", r.Target, r.First)
	}
}
