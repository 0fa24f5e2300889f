package pcie_test

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Example books the link traffic of a 4 KiB NVMe read on the default Gen3 x4 link: the
// controller writes the data to the host, then the CQE, then raises MSI-X.
func Example() {
	link := pcie.NewLink("pcie0", pcie.DefaultSpec())
	data := link.DMAWrite(0, 4096)
	cqe := link.DMAWrite(0, 16)
	irq := link.MSIX(0)
	fmt.Println("data arrives at", data)
	fmt.Println("cqe arrives at ", cqe)
	fmt.Println("msi-x arrives at", irq)

	link.Sync(sim.MaxTime)
	up := sim.Utilization(sim.Snapshot{}, link.Up.Snapshot(irq)) // from time 0
	for a, name := range link.Up.Activities() {
		if u := up[a]; u > 0 && name != "idle" {
			fmt.Printf("up %-4s %4.1f%%\n", name, 100*u)
		}
	}
	fmt.Println("up TLPs:", link.UpStats.TLPs[pcie.MWr], "mwr,", link.UpStats.TLPs[pcie.MSIX], "msix")
	// Output:
	// data arrives at 1632.885ns
	// cqe arrives at  1643.893ns
	// msi-x arrives at 1651.599ns
	// up mwr  69.5%
	// up msix  0.4%
	// up dllp  5.9%
	// up TLPs: 17 mwr, 1 msix
}
