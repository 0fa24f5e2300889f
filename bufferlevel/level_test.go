package bufferlevel

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLevelWireValues: the values are those the paper's status carrier puts in the CQE
// (0, 1, 2 in SQHD or in DW1's low bits), and each level names itself.
func TestLevelWireValues(t *testing.T) {
	require.Equal(t, []uint8{0, 1, 2, 0xFF}, []uint8{uint8(Low), uint8(Mid), uint8(High), uint8(None)})
	require.Equal(t, []string{"below-low", "between", "above-high", "none", "level 7"},
		[]string{Low.String(), Mid.String(), High.String(), None.String(), Level(7).String()})
}
