package sim_test

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// A firmware-like process computes on a 400 MHz core, then a die-like resource is occupied
// for a TLC LSB program; utilization is read from the resources afterwards.
func Example() {
	eng := sim.NewEngine()
	core := sim.NewCore("ssd.core[0]", sim.NewClock(400*sim.MHz))
	parse := core.Res.Activity("parse")
	die := sim.NewResource("ssd.ch[0].die[0]", "program-lsb")
	prog := die.Activity("program-lsb")

	eng.Spawn("ssd.fw.hil", func(p *sim.Proc) {
		p.Compute(core, parse, 400) // 400 cycles = 1 µs
		start := p.Now()
		die.Occupy(start, start+558*sim.Microsecond, prog)
		p.SleepUntil(start + 558*sim.Microsecond)
		fmt.Println("program done at", p.Now())
	})
	eng.Run()

	end := eng.Now()
	fmt.Println("core busy", core.Res.BusyAt(end, parse))
	fmt.Printf("die utilization %.4f\n", sim.Utilization(sim.Snapshot{Busy: make([]sim.Time, 2)}, die.Snapshot(end))[prog])
	// Output:
	// program done at 559us
	// core busy 1us
	// die utilization 0.9982
}

// ExampleParseTime shows unit strings as used in configuration files.
func ExampleParseTime() {
	for _, s := range []string{"558us", "13.75ns", "2.2ms"} {
		t, _ := sim.ParseTime(s)
		fmt.Println(int64(t), t)
	}
	// Output:
	// 558000000 558us
	// 13750 13.75ns
	// 2200000000 2.2ms
}
