package energy

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestArray: two dies and one bus over 1 ms under the default spec (25 mA array currents,
// 30 µA standby, 10 mA I/O, all at 3.3 V):
//   - die 0 reads for 58 µs and programs an LSB page for 558 µs: 616 µs × 82.5 mW =
//     50.82 µJ busy, 384 µs × 99 µW = 0.038016 µJ standby;
//   - die 1 erases for 500 µs of the window (tBERS booked past it counts only up to t):
//     41.25 µJ, and 500 µs of standby, 0.0495 µJ;
//   - the bus carries 1 µs of command, 12 µs of data-in and 12 µs of data-out: 25 µs × 33 mW
//     = 0.825 µJ.
//
// The NAND array is 92.157516 µJ, the bus 0.825 µJ; nothing else is charged.
func TestArray(t *testing.T) {
	d0 := sim.NewResource("die0", "read", "program-lsb", "program-csb", "program-msb", "erase", "suspend")
	d1 := sim.NewResource("die1", "read", "program-lsb", "program-csb", "program-msb", "erase", "suspend")
	bus := sim.NewResource("bus", "command", "data-in", "data-out")
	d0.Occupy(0, 58*us, d0.Activity("read"))
	d0.Occupy(100*us, 658*us, d0.Activity("program-lsb"))
	d1.Occupy(500*us, 2774*us, d1.Activity("erase"))
	bus.Occupy(0, 1*us, bus.Activity("command"))
	bus.Occupy(1*us, 13*us, bus.Activity("data-in"))
	bus.Occupy(58*us, 70*us, bus.Activity("data-out"))
	j, err := Array(DefaultSpec(), []*sim.Resource{d0, d1}, []*sim.Resource{bus}, 1*ms)
	require.NoError(t, err)
	require.InDelta(t, 92.157516e-6, Sum(j, NANDArray), 1e-15)
	require.InDelta(t, 0.825e-6, Sum(j, ONFIBus), 1e-15)
	for _, c := range []string{DRAMRank, Cores, PCIeLink} {
		require.Zero(t, Sum(j, c), c)
	}
	_, err = Array(DefaultSpec(), nil, nil, ms)
	require.ErrorContains(t, err, "at least one die")
	bad := DefaultSpec()
	bad.Resolution = 0
	_, err = Array(bad, []*sim.Resource{d0}, nil, ms)
	require.Error(t, err)
}
