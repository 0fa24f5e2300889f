package flashbench

import (
	"errors"
	"fmt"
	"github.com/fastdrain-sim/fastdrain/sim"

	"github.com/fastdrain-sim/fastdrain/channel"
)

// Config describes one flashbench run.
type Config struct {
	Channels int          // number of channels
	Channel  channel.Spec // every channel: dies (ways) per channel, policy, ONFI bus, die
	// QueueDepth is the number of operations kept outstanding across the whole array.
	QueueDepth int
	// Ops is how many operations to complete.
	Ops int64
	// Mix gives the weights of reads, programs and erases in the stream (e.g. 70/30/0).
	// Erases are also issued whenever a die's write cursor reaches a programmed block.
	ReadWeight, ProgramWeight, EraseWeight int
	// MultiPlane makes every operation use all planes of its die at one page offset.
	MultiPlane bool
	// SLC runs every read and program in the dies' pSLC mode (die.Spec.SLC must be set):
	// a block holds die.Spec.SLCPages pages, programmed and read with the SLC mode's times.
	SLC bool
	// Seed selects the random stream of die, page and kind choices.
	Seed uint64
	// Observe, if set, is given every channel bus and die array resource once the array is
	// built and before the stream starts (to attach a timeline); it must not change them.
	Observe func([]*sim.Resource) `yaml:"-" json:"-"`
}

// DefaultConfig returns 8 channels × 4 dies of the default TLC die on NV-DDR2 333 MT/s, QD
// 64, 200,000 operations, a 70/30 read/program mix, single-plane.
func DefaultConfig() Config {
	return Config{Channels: 8, Channel: channel.DefaultSpec(), QueueDepth: 64, Ops: 200_000,
		ReadWeight: 70, ProgramWeight: 30, Seed: 1}
}

// Validate reports every problem with the configuration.
func (c Config) Validate() error {
	var errs []error
	if c.Channels < 1 || c.Channels > 256 {
		errs = append(errs, fmt.Errorf("channels: %d is not in 1 … 256", c.Channels))
	}
	if c.QueueDepth < 1 || c.QueueDepth > 1<<20 {
		errs = append(errs, fmt.Errorf("qd: %d is not in 1 … 1048576", c.QueueDepth))
	}
	if c.Ops < 1 {
		errs = append(errs, fmt.Errorf("ops: %d must be positive", c.Ops))
	}
	if c.ReadWeight < 0 || c.ProgramWeight < 0 || c.EraseWeight < 0 || c.ReadWeight+c.ProgramWeight+c.EraseWeight == 0 {
		errs = append(errs, fmt.Errorf("mix: weights %d/%d/%d must be non-negative with a positive sum",
			c.ReadWeight, c.ProgramWeight, c.EraseWeight))
	}
	if c.SLC && c.Channel.Die.SLCPages() == 0 {
		errs = append(errs, fmt.Errorf("slc: the %v die has no SLC mode (die.slc: t_read and t_prog)", c.Channel.Die.Cell))
	}
	if err := c.Channel.Validate(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
