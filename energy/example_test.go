package energy_test

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/dram"
	"github.com/fastdrain-sim/fastdrain/energy"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// A die that programs an MSB page (5,001 µs at 25 mA × 3.3 V = 412.6 µJ) and is otherwise
// in standby (30 µA × 3.3 V = 99 µW × 4,999 µs = 0.4949 µJ), read after 10 ms.
func Example() {
	die := sim.NewResource("ssd.ch[0].die[0]", "read", "program-lsb", "program-csb", "program-msb", "erase", "suspend")
	die.Occupy(0, 5001*sim.Microsecond, die.Activity("program-msb"))
	m, err := energy.New(energy.DefaultSpec(), energy.Parts{
		Dies: []*sim.Resource{die},
		Link: [2]*sim.Resource{sim.NewResource("down"), sim.NewResource("up")}, PCIe: pcie.DefaultSpec(),
		DRAM: sim.NewResource("dram.bus", "read", "write", "refresh"), DRAMSpec: dram.DefaultSpec(),
		DRAMActivates: func() int64 { return 0 },
	})
	if err != nil {
		panic(err)
	}
	r := m.Read(10 * sim.Millisecond)
	for i, row := range energy.Rows() {
		if row.Component == energy.NANDArray && r.J[i] > 0 {
			fmt.Printf("%s %s: %.2f µJ\n", row.Component, row.Activity, r.J[i]*1e6)
		}
	}
	// Output:
	// nand array program-msb: 412.58 µJ
	// nand array standby: 0.49 µJ
}
