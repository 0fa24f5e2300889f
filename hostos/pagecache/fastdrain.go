package pagecache

import (
	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// SetBufferLevel is FastDrain's host-side reaction to the buffer level the SSD reports in a
// completion (the paper, "Adaptive page victimization scheduling"): above the high
// watermark the page cache switches to the high ratio set (10 %/5 % by default) and so stops
// flushing; once the level falls below the low watermark it switches back to the low set
// (5 %/3 %) and flushes again; in between it keeps the set it has. Like the paper's
// nvme_process_cq hook it only rewrites the two ratio globals: thresholds are recomputed at
// the next balance_dirty_pages or wb_over_bg_thresh check (docs/sources.md §5.1). It does nothing
// unless Spec.FastDrain.Adaptive is set.
func (c *Cache) SetBufferLevel(now sim.Time, level bufferlevel.Level) {
	if !c.spec.FastDrain.Adaptive {
		return
	}
	switch {
	case level > bufferlevel.High:
		return
	case level == bufferlevel.High && !c.high:
		c.setRatios(now, true, c.spec.FastDrain.High)
	case level <= bufferlevel.Low && c.high:
		c.setRatios(now, false, c.spec.FastDrain.Low)
	}
}

// HighRatios reports whether FastDrain's high ratio set is in effect.
func (c *Cache) HighRatios() bool { return c.high }

func (c *Cache) setRatios(now sim.Time, high bool, set RatioSet) {
	c.high = high
	c.ratio, c.bgRatio = set.Ratio, set.BackgroundRatio
	c.stats.Switches = append(c.stats.Switches, RatioSwitch{At: now, High: high,
		Ratio: set.Ratio, BackgroundRatio: set.BackgroundRatio})
}
