package die

import (
	"math/bits"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Independent plane reads (Spec.IndependentPlaneReads). A die's planes have their own page
// buffers and sense amplifiers; parts with independent (asynchronous) plane reads let each
// plane start a read while the others are reading, with its own page address — "four
// independent multiplane page read addresses" on Micron's 176-tier QLC (Pekny et al.,
// ISSCC 2022), the "independent plane read operation" SK hynix's 176-stacked-WL QLC builds
// on (Cho et al., ISSCC 2022, doi 10.1109/ISSCC42614.2022.9731785). Without it a die runs
// one read (of one page, or a multi-plane set at one page index) at a time.
//
// With it each plane keeps the end of its own read (planeEnd): a read may start when its
// planes' reads have ended, whatever the others do; a program or erase still needs every
// plane idle. The array's Resource is busy while any plane reads: overlapping reads extend
// its busy interval (the union of the planes' reads), and each plane's own Resource records
// its reads.

// mustBeFreeToRead panics unless the planes a read at t names are free of reads: every
// plane of the die, or, with independent plane reads, the read's own planes.
func (d *Die) mustBeFreeToRead(t sim.Time, addrs []Addr) {
	if d.planeEnd == nil {
		if t < d.readEnd {
			d.fail(t, "read of %v while the die is reading until %v", addrs[0], d.readEnd)
		}
		return
	}
	for _, a := range addrs {
		if e := d.planeEnd[a.Plane]; t < e {
			d.fail(t, "read of %v while plane %d is reading until %v", a, a.Plane, e)
		}
	}
}

// occupyRead records a read's tR [start, end) of activity act on the array and on the
// planes in mask. With independent plane reads another plane's read may still hold the
// array: the array's busy interval is extended to end instead.
func (d *Die) occupyRead(start, end sim.Time, act sim.Activity, mask uint64) {
	if from := max(start, d.readEnd); d.planeEnd == nil || from == start {
		d.array.Occupy(start, end, act)
	} else if end > from {
		d.array.Occupy(from, end, act)
	}
	for m := mask & d.planeBits; m != 0; m &= m - 1 {
		d.planes[bits.TrailingZeros64(m)].Occupy(start, end, act)
	}
}

// endRead records that the planes in mask read until end, and returns end.
func (d *Die) endRead(end sim.Time, mask uint64) sim.Time {
	if d.planeEnd != nil {
		for m := mask; m != 0; m &= m - 1 {
			d.planeEnd[bits.TrailingZeros64(m)] = end
		}
		d.readEnd = max(d.readEnd, end)
		return end
	}
	d.readEnd = end
	return end
}

// ReadingUntil returns when the reads of plane p end: the plane's own with independent plane
// reads, the die's otherwise.
func (d *Die) ReadingUntil(p int) sim.Time {
	if d.planeEnd != nil {
		return d.planeEnd[p]
	}
	return d.readEnd
}
