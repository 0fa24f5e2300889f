package hwadapter

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
)

// Flash is the firmware's flash port over simulated ONFI channels: die g (a global index,
// channel-major) is die g mod perCh of channel g / perCh.
type Flash struct {
	chans []*channel.Channel
	perCh int
}

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
	return &Flash{chans: chans, perCh: cs.Dies}, nil
}

// Geometry implements firmware.FlashPort.
func (c *Flash) Geometry() ftl.Geometry {
	s := c.chans[0].Spec()
	return ftl.GeometryOf(len(c.chans), s.Dies, s.Die)
}

// Die implements firmware.FlashPort.
func (c *Flash) Die() die.Spec { return c.chans[0].Spec().Die }

// Submit implements firmware.FlashPort.
func (c *Flash) Submit(g int, tx *channel.Transaction) {
	tx.Die = g % c.perCh
	c.chans[g/c.perCh].Submit(tx)
}

// Prefetch implements firmware.FlashPort.
func (c *Flash) Prefetch(g int, a die.Addr) { c.die(g).Prefetch(a) }

// Fill implements firmware.FlashImage.
func (c *Flash) Fill(g, plane, block, n int, stamp func(page int) uint64) {
	c.die(g).Fill(plane, block, n, stamp)
}

// FillFrom implements firmware.FlashImage.
func (c *Flash) FillFrom(g, plane, block, n int, src die.StampSource) {
	c.die(g).FillFrom(plane, block, n, src)
}

func (c *Flash) die(g int) *die.Die { return c.chans[g/c.perCh].Die(g % c.perCh) }

// FactoryBad implements firmware.BadBlockScanner: the die's factory bad blocks.
func (c *Flash) FactoryBad(g int) []die.Addr { return c.die(g).FactoryBad() }
