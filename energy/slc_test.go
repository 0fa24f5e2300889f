package energy

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/dram"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// TestSLCRows: a die with a pSLC mode (its read-slc, program-slc and erase-slc
// activities, as package die registers them) is charged the datasheet's array currents for
// them, 25 mA × 3.3 V = 82.5 mW (the default part, docs/energy.md):
//
//	read-slc    82.5 mW × 25 µs    =   2.0625 µJ
//	program-slc 82.5 mW × 300 µs   =  24.75 µJ
//	erase-slc   82.5 mW × 2,274 µs = 187.605 µJ
//	standby     99 µW × (10,000 − 25 − 300 − 2,274) µs = 0.732699 µJ
//
// and the rows are shown only for such dies (the control: the rig's die without the mode
// shows none of them, so other results are unchanged).
func TestSLCRows(t *testing.T) {
	d := sim.NewResource("die", "read", "program-lsb", "program-csb", "program-msb", "erase",
		"read-slc", "program-slc", "erase-slc", "suspend")
	d.Occupy(0, 25*us, d.Activity("read-slc"))
	d.Occupy(100*us, 400*us, d.Activity("program-slc"))
	d.Occupy(1000*us, 3274*us, d.Activity("erase-slc"))
	parts := Parts{Dies: []*sim.Resource{d}, Buses: []*sim.Resource{sim.NewResource("bus", "command")},
		Cores: []*sim.Resource{sim.NewResource("core", "hil")},
		Link:  [2]*sim.Resource{sim.NewResource("down", "mem-write"), sim.NewResource("up", "mem-write")},
		PCIe:  pcie.DefaultSpec(), DRAM: sim.NewResource("dram.bus", "read"), DRAMSpec: dram.DefaultSpec(),
		DRAMActivates: func() int64 { return 0 }}
	m, err := New(DefaultSpec(), parts)
	require.NoError(t, err)
	got := m.Read(10 * ms)
	want := map[string]float64{"read-slc": 2.0625e-6, "program-slc": 24.75e-6, "erase-slc": 187.605e-6, "standby": 0.732699e-6}
	for i, row := range Rows() {
		if row.Component != NANDArray {
			continue
		}
		if w, ok := want[row.Activity]; ok {
			require.InEpsilon(t, w, got.J[i], 1e-8, "%v", row)
		} else {
			require.Zero(t, got.J[i], "%v", row)
		}
	}
	require.True(t, m.slc)
	require.True(t, (&Account{SLC: m.slc}).Shown(rowIndex(NANDArray, "program-slc")))

	m, err = New(DefaultSpec(), newRig().parts)
	require.NoError(t, err)
	require.False(t, m.slc)
	for _, k := range slcRows {
		require.False(t, (&Account{SLC: m.slc}).Shown(k), "row %v", Rows()[k])
	}
}
