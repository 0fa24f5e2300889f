package die

import "fmt"

// PowerOn gives d, a die just built (New, erased, nothing run), the array of from, the
// same part after a power cut (Cut applied): every block's write pointer, P/E count and
// pages' stamps, the pages passed over, the pages filled before the first run, and the
// blocks in SLC mode with their SLC erase counts. It is the flash the next power-on finds:
// a machine built again around the same dies (platforms.PowerOn). from gives its array up
// and must not be used again. What is not carried over: the running operation (the cut
// ended it), the fault model's draws (the new die draws its own, from its own seed) and,
// with the read-error model, the blocks' retention clocks, which restart at the power-on
// (the read-disturb counts are kept).
func (d *Die) PowerOn(from *Die) error {
	s, o := d.spec, from.spec
	if s.Planes != o.Planes || s.BlocksPerPlane != o.BlocksPerPlane || s.PagesPerBlock != o.PagesPerBlock || d.k != from.k ||
		(d.slc == nil) != (from.slc == nil) || (d.rs.reads == nil) != (from.rs.reads == nil) {
		return fmt.Errorf("die %s: powered on with the array of %s, another part", d.name, from.name)
	}
	for b, n := range d.next {
		if n != 0 || d.oob[b] != nil {
			return fmt.Errorf("die %s: powered on with another array after it was programmed", d.name)
		}
	}
	if from.opOpen {
		return fmt.Errorf("die %s: powered on with the array of %s, which has an operation running (Cut it first)", d.name, from.name)
	}
	d.next, d.erases, d.oob, d.src = from.next, from.erases, from.oob, from.src
	d.skipped, d.filled = from.skipped, from.filled
	if d.slc != nil {
		d.slc.blocks, d.slc.erases = from.slc.blocks, from.slc.erases
	}
	if d.rs.reads != nil {
		d.rs.reads = from.rs.reads
	}
	from.next, from.erases, from.oob, from.src, from.skipped, from.filled = nil, nil, nil, nil, nil, nil
	return nil
}
