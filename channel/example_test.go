package channel_test

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// printer is a Done handler that prints each completion.
type printer struct{}

func (printer) HandleEvent(ev *sim.Event) {
	tx := ev.Data.(*channel.Transaction)
	fmt.Printf("%v die %d done at %v (bus %v, array %v–%v) stamp %d\n", tx.Kind, tx.Die,
		tx.Completed, tx.BusStart, tx.ArrayStart, tx.ArrayEnd, tx.Stamps[0])
}

// Example programs page 0 of die 0 and reads it back while die 1 (erased) is read at the
// same time: the two reads overlap their tR on the dies and take turns on the bus. By hand:
// program bus 345 ns + 16 KiB at 333 MT/s (49,201,202 ps) = 49.546202 µs, + tPROG 558 µs;
// each read 275 ns of command, 58 µs tR, 20 ns + 49,201,202 ps of data-out, die 1's
// data-out after die 0's.
func Example() {
	eng := sim.NewEngine()
	ch, err := channel.New(eng, "ssd.ch[0]", channel.DefaultSpec())
	if err != nil {
		panic(err)
	}
	page0 := []die.Addr{{Plane: 0, Block: 0, Page: 0}}
	ch.Submit(&channel.Transaction{Kind: channel.Program, Die: 0, Addrs: page0,
		Stamps: []uint64{42}, Done: printer{}})
	eng.Run()
	ch.Submit(&channel.Transaction{Kind: channel.Read, Die: 0, Addrs: page0, Done: printer{}})
	ch.Submit(&channel.Transaction{Kind: channel.Read, Die: 1, Addrs: page0, Done: printer{}})
	eng.Run()
	bus := ch.Bus()
	fmt.Println("bus data-out:", bus.BusyAt(eng.Now(), bus.Activity("data-out")))
	// Output:
	// program die 0 done at 607546.202ns (bus 0s, array 49546.202ns–607546.202ns) stamp 42
	// read die 0 done at 715042.404ns (bus 607546.202ns, array 607821.202ns–665821.202ns) stamp 42
	// read die 1 done at 764263.606ns (bus 607821.202ns, array 608096.202ns–666096.202ns) stamp 18446744073709551615
	// bus data-out: 98402.404ns
}
