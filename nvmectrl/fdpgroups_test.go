package nvmectrl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFDPGroupDies: reclaim_group_dies gives NRG (its length; the RGIF bits follow it: 2
// groups take 1 bit, so placement identifier 8001h is group 1's handle 1), and is
// checked: every group at least one die, and reclaim_groups, if given too, equal to its
// length.
func TestFDPGroupDies(t *testing.T) {
	f := FDP{Enabled: true, ReclaimGroupDies: []int{1, 3}}
	require.Equal(t, 2, f.Groups())
	require.Equal(t, 1, f.RGIF())
	require.Equal(t, uint16(0x8001), f.PID(1, 1))

	s := testSpec()
	s.HintCarrier = HintCDW2
	s.FDP = FDP{Enabled: true, ReclaimGroups: 3, ReclaimGroupDies: []int{2, 0}}
	errs := s.validateFDP()
	require.Len(t, errs, 2)
	require.ErrorContains(t, errs[0], "nvme.fdp.reclaim_groups: 3, but reclaim_group_dies sizes 2 groups")
	require.ErrorContains(t, errs[1], "nvme.fdp.reclaim_group_dies: group 1 has 0 dies")
}
