package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Work is what a core's time goes to, the activities its utilization is split by.
type Work uint8

// The firmware's kinds of work.
const (
	WorkHIL   Work = iota // the host interface layer: commands, their pages, completions
	WorkEvict             // the evictor's decisions and program issue
	WorkGC                // garbage collection's bookkeeping
	numWork
)

// workNames are the activities' names on the cores' resources.
var workNames = [numWork]string{WorkHIL: "hil", WorkEvict: "evict", WorkGC: "gc"}

// cores is the firmware's own CPU port (CPU): firmware.cores cores of firmware.core_freq,
// each a sim.Core, whose resources record the work by activity.
type cores struct {
	cs   []*sim.Core
	acts [numWork]sim.Activity
}

// newCores builds n cores named name.core[i] at clk.
func newCores(name string, n int, clk sim.Clock) *cores {
	c := &cores{}
	for i := range n {
		core := sim.NewCore(fmt.Sprintf("%s.core[%d]", name, i), clk)
		for w, a := range workNames {
			c.acts[w] = core.Res.Activity(a)
		}
		c.cs = append(c.cs, core)
	}
	return c
}

// Charge implements CPU: the work is booked on the core (sim.Core.Book).
func (c *cores) Charge(now sim.Time, core int, w Work, cycles int64) sim.Time {
	return c.cs[core].Book(now, c.acts[w], cycles)
}

// Cores implements CPU.
func (c *cores) Cores() int { return len(c.cs) }

// compute charges cycles of work w on core and arms step then for when they end.
func (f *Firmware) compute(core int, w Work, cycles int64, then *step) {
	f.at(f.cpu.Charge(f.eng.Now(), core, w, cycles), then)
}
