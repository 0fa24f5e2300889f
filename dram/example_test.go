package dram_test

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/dram"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Two firmware movers share the buffer DRAM: one lands a 4 KiB host write from PCIe, the
// other reads a 4 KiB page out for a flash program at the same moment. The write ends at
// tRCD + CWL + 4096 B / 6.4 GB/s = 13.75 + 10 + 640 ns. The read's activate overlapped it
// (the pages lie in different banks), but its read command waits for the bus turnaround
// tWTR = 7.5 ns after the write data, then CL = 13.75 ns, then its own 640 ns:
// 663.75 + 7.5 + 13.75 + 640 = 1325 ns.
func Example() {
	spec := dram.DefaultSpec()
	spec.Refresh = false
	buf := dram.New("buffer", spec)
	eng := sim.NewEngine()
	defer eng.Close()

	move := func(name string, addr uint64, write bool) {
		eng.Spawn(name, func(p *sim.Proc) {
			p.SleepUntil(buf.Access(p.Now(), addr, 4096, write))
			fmt.Printf("%s done at %v\n", name, p.Now())
		})
	}
	move("host-write", 0, true)
	move("evict-read", 1<<20+4096, false) // another bank: row:bank:column mapping
	eng.Run()

	bus := buf.Bus()
	fmt.Printf("peak %d MB/s, bus busy %v\n", buf.PeakBandwidth()/1e6, bus.TotalBusyAt(eng.Now()))
	st := buf.Stats()
	fmt.Printf("row misses %d, hits %d\n", st.RowMisses, st.RowHits)
	// Output:
	// host-write done at 663.75ns
	// evict-read done at 1.325us
	// peak 6400 MB/s, bus busy 1.28us
	// row misses 2, hits 0
}
