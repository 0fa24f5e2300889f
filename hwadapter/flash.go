package hwadapter

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/nand"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Flash is the firmware's flash port over simulated ONFI channels: die g (a global index,
// channel-major) is die g mod perCh of channel g / perCh. Each of the firmware's commands
// (hal.FlashCmd) travels as a channel transaction taken from a free list, so the boundary
// allocates nothing per command once the list holds as many as are ever in flight; the
// addresses and stamps are the command's own slices (die.Addr is nand.Addr), not copies.
type Flash struct {
	chans []*channel.Channel
	perCh int
	spec  hal.DieSpec
	free  *txn      // transactions not in flight
	note  sim.Event // the event handed to the command's Done (valid during the call only)
}

// txn is a channel transaction carrying a firmware command.
type txn struct {
	tx   channel.Transaction
	cmd  *hal.FlashCmd
	next *txn // free-list link
}

// kinds maps the firmware's flash operations to the channel's.
var kinds = [...]channel.Kind{hal.FlashRead: channel.Read, hal.FlashProgram: channel.Program, hal.FlashErase: channel.Erase}

// NewFlash returns the flash port of chans, which must be at least one and all alike (the
// same dies per channel and the same die spec: the firmware's geometry is one shape).
func NewFlash(chans []*channel.Channel) (*Flash, error) {
	if len(chans) == 0 {
		return nil, errors.New("hwadapter: a flash port needs at least one channel")
	}
	cs := chans[0].Spec()
	for i, ch := range chans {
		if ch.Spec().Dies != cs.Dies || !reflect.DeepEqual(ch.Spec().Die, cs.Die) {
			return nil, fmt.Errorf("hwadapter: channel %d differs from channel 0; all channels must be alike", i)
		}
	}
	return &Flash{chans: chans, perCh: cs.Dies, spec: DieSpec(cs.Die)}, nil
}

// Geometry implements firmware.FlashPort.
func (c *Flash) Geometry() ftl.Geometry {
	s := c.chans[0].Spec()
	return ftl.GeometryOf(len(c.chans), s.Dies, c.spec)
}

// Die implements firmware.FlashPort: DieSpec of the channels' die.
func (c *Flash) Die() hal.DieSpec { return c.spec }

// Submit implements firmware.FlashPort: cmd's request goes to die g's channel as a
// transaction.
func (c *Flash) Submit(g int, cmd *hal.FlashCmd) {
	t := c.free
	if t == nil {
		t = &txn{}
		t.tx.Done, t.tx.Tag = c, t
	} else {
		c.free = t.next
	}
	t.cmd = cmd
	tx := &t.tx
	tx.Kind, tx.Die = kinds[cmd.Op], g%c.perCh
	tx.Addrs, tx.Stamps, tx.Bytes = cmd.Addrs, cmd.Stamps, cmd.Bytes
	tx.MaySuspend, tx.SLC = cmd.MaySuspend, cmd.SLC
	c.chans[g/c.perCh].Submit(tx)
}

// HandleEvent receives a completed transaction from a channel: its results go to the
// command, the transaction back to the free list, and the command to its Done.
func (c *Flash) HandleEvent(ev *sim.Event) {
	t := ev.Data.(*channel.Transaction).Tag.(*txn)
	cmd, tx := t.cmd, &t.tx
	cmd.Stamps = tx.Stamps
	cmd.ArrayStart, cmd.ArrayEnd, cmd.Completed = tx.ArrayStart, tx.ArrayEnd, tx.Completed
	cmd.Failed, cmd.Retries, cmd.Suspended = tx.Failed, tx.Retries, tx.Suspended
	t.cmd, tx.Addrs, tx.Stamps = nil, nil, nil
	t.next, c.free = c.free, t
	if cmd.Done != nil {
		// Field by field, as the channel does: the unexported fields stay zero.
		n := &c.note
		n.Time, n.Handler, n.Data, n.Code = ev.Time, cmd.Done, cmd, int64(cmd.Op)
		cmd.Done.HandleEvent(n)
	}
}

// Prefetch implements firmware.FlashPort.
func (c *Flash) Prefetch(g int, a nand.Addr) { c.die(g).Prefetch(a) }

// Fill implements firmware.FlashImage.
func (c *Flash) Fill(g, plane, block, n int, stamp func(page int) uint64) {
	c.die(g).Fill(plane, block, n, stamp)
}

// FillFrom implements firmware.FlashImage.
func (c *Flash) FillFrom(g, plane, block, n int, src nand.StampSource) {
	c.die(g).FillFrom(plane, block, n, src)
}

// WritePointer implements firmware.FlashScan: the die's write pointer of the block.
func (c *Flash) WritePointer(g, plane, block int) int { return c.die(g).NextPage(plane, block) }

func (c *Flash) die(g int) *die.Die { return c.chans[g/c.perCh].Die(g % c.perCh) }

// FactoryBad implements firmware.BadBlockScanner: the die's factory bad blocks.
func (c *Flash) FactoryBad(g int) []nand.Addr { return c.die(g).FactoryBad() }
