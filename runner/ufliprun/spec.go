package ufliprun

import "github.com/fastdrain-sim/fastdrain/hostos/uflip"

// DivideCounts divides the plan's IOCount (keeping at least 1) and IOIgnore of every base
// by d ≥ 1: quicker, less steady runs.
func DivideCounts(spec *uflip.PlanSpec, d int64) {
	c, i := spec.IOCount, spec.IOIgnore
	spec.IOCount = uflip.BaseCounts{SR: max(1, c.SR/d), RR: max(1, c.RR/d), SW: max(1, c.SW/d), RW: max(1, c.RW/d)}
	spec.IOIgnore = uflip.BaseCounts{SR: i.SR / d, RR: i.RR / d, SW: i.SW / d, RW: i.RW / d}
}

// CapCounts gives every base of the plan at most cap IOs a run and stream and no fixed
// IOIgnore, as the automatic rule (spec.Auto) runs: it chooses both for every run.
func CapCounts(spec *uflip.PlanSpec, cap int64) {
	spec.IOCount = uflip.BaseCounts{SR: cap, RR: cap, SW: cap, RW: cap}
	spec.IOIgnore = uflip.BaseCounts{}
}
