package hwadapter_test

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/dram"
	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/hwadapter"
	"github.com/fastdrain-sim/fastdrain/nand"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// The simulated hardware implements the firmware's ports and their capabilities.
var (
	_ firmware.FlashPort       = (*hwadapter.Flash)(nil)
	_ firmware.FlashImage      = (*hwadapter.Flash)(nil)
	_ firmware.BadBlockScanner = (*hwadapter.Flash)(nil)
	_ firmware.BufferMemory    = (*dram.DRAM)(nil)
)

// TestNewFlash: a flash port needs channels, all alike; its geometry is channels × dies of
// the channels' die (2 channels of 2 dies: 4 dies).
func TestNewFlash(t *testing.T) {
	eng := sim.NewEngine()
	defer eng.Close()
	_, err := hwadapter.NewFlash(nil)
	require.ErrorContains(t, err, "at least one channel")
	cs := channel.DefaultSpec()
	cs.Dies = 2
	a, err := channel.New(eng, "ch[0]", cs)
	require.NoError(t, err)
	b, err := channel.New(eng, "ch[1]", cs)
	require.NoError(t, err)
	fl, err := hwadapter.NewFlash([]*channel.Channel{a, b})
	require.NoError(t, err)
	g := fl.Geometry()
	require.Equal(t, 2, g.Channels)
	require.Equal(t, 4, g.Dies())
	cs.Dies = 1
	c, err := channel.New(eng, "ch[2]", cs)
	require.NoError(t, err)
	_, err = hwadapter.NewFlash([]*channel.Channel{a, c})
	require.ErrorContains(t, err, "channel 1 differs from channel 0")
}

// doneLog records the commands a flash port completed, with the event it handed over.
type doneLog struct{ cmds []*hal.FlashCmd }

func (d *doneLog) HandleEvent(ev *sim.Event) { d.cmds = append(d.cmds, ev.Data.(*hal.FlashCmd)) }

// TestFlashCommands: a program of page 0 of block 1 with stamp 42 on die 3 (channel 1, die
// 1) and a read of it come back through Done with the read's stamp 42 and the die's timing:
// page 0 of the default 2D TLC die is an LSB page, so the read's array time is tR(LSB) =
// 58 µs (die.SpecFor(TLC), docs/sources.md §3.4) and the program's tPROG(LSB) = 558 µs. A
// read of an unprogrammed page returns nand.ErasedStamp. Once the free list holds a
// transaction, a command costs no allocation at the boundary.
func TestFlashCommands(t *testing.T) {
	eng := sim.NewEngine()
	defer eng.Close()
	cs := channel.DefaultSpec()
	cs.Dies = 2
	var chans []*channel.Channel
	for i := 0; i < 2; i++ {
		ch, err := channel.New(eng, "ch", cs)
		require.NoError(t, err)
		chans = append(chans, ch)
	}
	fl, err := hwadapter.NewFlash(chans)
	require.NoError(t, err)
	log := &doneLog{}
	a := []nand.Addr{{Plane: 0, Block: 1, Page: 0}}
	prog := &hal.FlashCmd{Op: hal.FlashProgram, Addrs: a, Stamps: []uint64{42}, Done: log}
	fl.Submit(3, prog)
	eng.Run()
	rd := &hal.FlashCmd{Op: hal.FlashRead, Addrs: a, Stamps: make([]uint64, 0, 1), Done: log}
	fl.Submit(3, rd)
	erased := &hal.FlashCmd{Op: hal.FlashRead, Addrs: []nand.Addr{{Plane: 0, Block: 2, Page: 0}}, Stamps: make([]uint64, 0, 1), Done: log}
	fl.Submit(3, erased)
	eng.Run()
	require.Equal(t, []*hal.FlashCmd{prog, rd, erased}, log.cmds)
	require.Equal(t, 558*sim.Microsecond, prog.ArrayEnd-prog.ArrayStart)
	require.Equal(t, 58*sim.Microsecond, rd.ArrayEnd-rd.ArrayStart)
	require.Equal(t, []uint64{42}, rd.Stamps)
	require.Equal(t, []uint64{nand.ErasedStamp}, erased.Stamps)
	require.Zero(t, rd.Failed|prog.Failed)
	require.Greater(t, rd.Completed, rd.ArrayEnd, "the data-out follows tR")
	require.Equal(t, int64(1), chans[1].Die(1).Stats().Programs[nand.LSB], "die 3 is die 1 of channel 1")

	allocs := testing.AllocsPerRun(20, func() {
		log.cmds = log.cmds[:0]
		fl.Submit(3, rd)
		eng.Run()
	})
	require.Zero(t, allocs, "allocations per command at the flash port")
}
