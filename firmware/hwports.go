package firmware

import (
	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/dram"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
)

// Hardware is the simulated hardware the firmware runs on: the flash channels (with their
// dies), the controller DRAM and the NVMe controller front end. New turns it into Ports:
// the DRAM is the BufferMemory and the controller the HostPort as they are; the channels
// become one FlashPort (channelPort).
type Hardware struct {
	Channels []*channel.Channel
	DRAM     *dram.DRAM
	Ctrl     *nvmectrl.Controller
}

// Ports returns the hardware's ports (channelPort for the channels).
func (hw Hardware) Ports() Ports {
	return Ports{Flash: &channelPort{chans: hw.Channels, perCh: hw.Channels[0].Spec().Dies},
		Memory: hw.DRAM, Host: hw.Ctrl}
}

// channelPort is the FlashPort of simulated ONFI channels: die g is die g mod perCh of
// channel g / perCh.
type channelPort struct {
	chans []*channel.Channel
	perCh int
}

// Geometry implements FlashPort.
func (c *channelPort) Geometry() ftl.Geometry {
	s := c.chans[0].Spec()
	return ftl.GeometryOf(len(c.chans), s.Dies, s.Die)
}

// Die implements FlashPort.
func (c *channelPort) Die() die.Spec { return c.chans[0].Spec().Die }

// Submit implements FlashPort.
func (c *channelPort) Submit(g int, tx *channel.Transaction) {
	tx.Die = g % c.perCh
	c.chans[g/c.perCh].Submit(tx)
}

// Prefetch implements FlashPort.
func (c *channelPort) Prefetch(g int, a die.Addr) { c.die(g).Prefetch(a) }

// Fill implements FlashImage.
func (c *channelPort) Fill(g, plane, block, n int, stamp func(page int) uint64) {
	c.die(g).Fill(plane, block, n, stamp)
}

// FillFrom implements FlashImage.
func (c *channelPort) FillFrom(g, plane, block, n int, src die.StampSource) {
	c.die(g).FillFrom(plane, block, n, src)
}

func (c *channelPort) die(g int) *die.Die { return c.chans[g/c.perCh].Die(g % c.perCh) }

// FactoryBad implements BadBlockScanner: the die's factory bad blocks.
func (c *channelPort) FactoryBad(g int) []die.Addr { return c.die(g).FactoryBad() }
