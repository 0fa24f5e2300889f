package hwadapter

import (
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// DieSpec returns what the firmware knows of dies of spec d (hal.DieSpec): their shape,
// page-type map (die.Spec.PageType), word-line finality (die.Spec.FinalizingPages), tR by page type and in pSLC mode, mean tPROG, multi-plane rule,
// cache program and fault model.
func DieSpec(d die.Spec) hal.DieSpec {
	s := hal.DieSpec{Planes: d.Planes, BlocksPerPlane: d.BlocksPerPlane, PagesPerBlock: d.PagesPerBlock,
		PageSize: d.PageSize, StampsPerPage: d.StampsPerPage(), SLCPages: d.SLCPages(), SLCTRead: d.SLC.TRead, PageType: d.PageType,
		MeanTProg: meanProgramTime(d), MultiPlaneSameBlock: d.MultiPlaneSameBlock,
		CacheProgram: d.CacheProgram,
		Faults:       d.Faults.Enabled(), FactoryBad: d.Faults.FactoryBad}
	final := d.FinalizingPages()
	s.FinalizingPage = func(page int) int { return final[page] }
	s.PageByPage = d.ProgramScheme() == die.PageByPage
	for p := range s.TRead {
		s.TRead[p] = d.TRead.Of(die.PageType(p))
	}
	return s
}

// meanProgramTime returns the mean tPROG of a block's pages of the die (its page types in
// program order, one-shot word lines counted once at their last page): the time a
// background program holds a die on average, the default half-life of the firmware's
// host-activity estimate (firmware.buffer.idle_half_life 0).
func meanProgramTime(d die.Spec) sim.Time {
	var sum sim.Time
	n := 0
	for i := 0; i < d.PagesPerBlock; i++ {
		if d.OneShot && i%d.Bits() != d.Bits()-1 {
			continue // latched in the page registers; the word line programs at its last page
		}
		sum += d.TProg.Of(d.PageType(i))
		n++
	}
	if n == 0 {
		return d.TProg.LSB
	}
	return sum / sim.Time(n)
}
