package nvmectrl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// reportingFW is a fakeFW that tells the controller whether its cache is volatile.
type reportingFW struct {
	*fakeFW
	vwc bool
}

func (f reportingFW) VolatileWriteCache() bool { return f.vwc }

// TestIdentifyControllerVWC: the Identify Controller data structure (4096 bytes) carries
// SQES 66h (required and maximum 2^6 = 64-byte SQEs) at byte 512, CQES 44h (2^4 = 16
// bytes) at 513, NN = 1 at 516–519 little-endian, and VWC at 525, whose bit 0 is what the
// firmware reports: 1 for a volatile cache, 0 for one that survives power loss; 1 when
// the firmware does not say (the fake firmware).
func TestIdentifyControllerVWC(t *testing.T) {
	r := newRig(t, testSpec(), ArbRoundRobin)
	id := r.c.IdentifyController()
	require.Len(t, id, 4096)
	require.Equal(t, byte(0x66), id[512])
	require.Equal(t, byte(0x44), id[513])
	require.Equal(t, []byte{1, 0, 0, 0}, id[516:520])
	require.Equal(t, byte(1), id[525], "no report: present")
	for _, vwc := range []bool{false, true} {
		r.c.SetFirmware(reportingFW{r.fw, vwc})
		id = r.c.IdentifyController()
		want := byte(0)
		if vwc {
			want = 1
		}
		require.Equal(t, want, id[525], "firmware reports %v", vwc)
		for i, b := range id {
			if i != 512 && i != 513 && i != 516 && i != 525 {
				require.Zero(t, b, "byte %d", i)
			}
		}
	}
}
