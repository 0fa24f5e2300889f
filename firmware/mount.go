package firmware

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
)

// Mounting after a power cut: the firmware built again at the next power-on (New, on the
// same dies: platforms.PowerOn) takes up the state its recovery scan found (Recover) and
// serves I/O again. What it rebuilds, and from what:
//
//   - the map, from the scan's records (Recovery.Map);
//   - each block's write pointer (the scan reads a block up to it) and P/E count (the
//     block header, as UBI's erase-counter header: docs.kernel.org, "UBI - Unsorted Block
//     Images", "UBI headers"), hence the blocks' states, valid counts and free lists
//     (ftl.FTL.Mount);
//   - the spare areas' records, which are the flash's (the model keeps them in the
//     firmware: powerState.oob), and the write sequence number, which goes on from the
//     highest the scan found so a new write's copy always wins over an old one;
//   - every block the cut left partly written is closed, its unwritten pages abandoned
//     (ftl/mount.go says why: on 2D MLC/TLC a later program of one of its word lines can
//     destroy lower pages written before the cut, and padding would run exactly those
//     programs); the allocators and GC open fresh blocks. Each block's word lines are then
//     final as they stand (nothing programs them again): its completed prefix is its end.
//
// With power-loss protection the hold-up drain of the cut may have used the hold-up
// reserve (holdup.go: the blocks a plane keeps above the GC reserve for the next drain),
// and the blocks the mount closed hold no room: a firmware that took writes into its
// buffer at once would acknowledge pages the next drain could not place (the two-cut
// schedule found it: a drain stuck with no room outside the GC reserve, FD on tiny). So,
// as a drive re-arms its power-loss protection before it takes writes on the capacitors'
// promise, the mounted firmware admits no write into the buffer (room, writeBuffer.hold)
// until GC has brought every plane back to the GC and hold-up reserves (reserveRestored); reads are
// served meanwhile. The control firmware.power_loss.controls.no_reserve_restore admits
// them at once.
//
// The write buffer, the in-flight reads, the erase guards and the provisional pages start
// empty: the power took them. GC starts on the recovered valid counts. Not rebuilt (Mount
// refuses them): a hybrid mapping scheme's data and log blocks, Flexible Data Placement's
// reclaim units, the SLC cache's regions, zoned namespaces' zones, and grown bad blocks (a
// fault model's retirements).

// scanImage is what a recovery scan read besides the map: per block its write pointer,
// P/E count and whether it is bad, and the spare areas' records (a copy).
type scanImage struct {
	next    []int
	erases  []uint32
	bad     []bool
	records []uint64
	seq     uint64 // the highest write sequence number in records
}

// scanImage returns the scan's image of the flash now.
func (f *Firmware) scanImage() *scanImage {
	g := f.geo
	im := &scanImage{next: make([]int, g.Blocks()), erases: make([]uint32, g.Blocks()), bad: make([]bool, g.Blocks()),
		records: append([]uint64(nil), f.pl.oob...)}
	scan, _ := f.flash.(FlashScan)
	for b := range g.Blocks() {
		im.next[b] = f.ftl.NextPage(ftl.BlockID(b))
		if d, plane, blk := g.BlockAddr(ftl.BlockID(b)); scan != nil {
			im.next[b] = scan.WritePointer(d, plane, blk)
		}
		im.erases[b] = uint32(f.ftl.EraseCount(ftl.BlockID(b)))
		im.bad[b] = f.ftl.IsBad(ftl.BlockID(b))
	}
	for _, r := range im.records {
		if _, seq, ok := StampParts(r); ok {
			im.seq = max(im.seq, seq)
		}
	}
	return im
}

// Mount brings f, just built on the flash a power cut left (nothing run, not
// preconditioned), up on what rec, the recovery of the firmware that ran before the cut
// (Recover), found, as described above. With the control
// firmware.power_loss.controls.reuse_open_block it resumes the first partly written block
// of each plane instead of closing it. It returns what the FTL did.
func (f *Firmware) Mount(rec *Recovery) (ftl.MountReport, error) {
	if f.pl.oob == nil {
		return ftl.MountReport{}, errors.New("firmware: Mount needs firmware.power_loss.enabled")
	}
	if rec == nil || rec.flash == nil {
		return ftl.MountReport{}, errors.New("firmware: Mount needs the recovery of a stopped firmware (Recover)")
	}
	im := rec.flash
	if len(im.records) != len(f.pl.oob) {
		return ftl.MountReport{}, fmt.Errorf("firmware %s: mounting a recovery of %d mapping units on %d", f.name, len(im.records), len(f.pl.oob))
	}
	for b, bad := range im.bad {
		if bad && !f.ftl.IsBad(ftl.BlockID(b)) {
			return ftl.MountReport{}, fmt.Errorf("firmware %s: mounting after a power cut with grown bad blocks (block %d retired) is not modelled", f.name, b)
		}
	}
	rep, err := f.ftl.Mount(ftl.MountImage{Next: im.next, Erases: im.erases, Map: rec.Map}, f.spec.PowerLoss.Controls.ReuseOpenBlock)
	if err != nil {
		return rep, fmt.Errorf("firmware %s: %w", f.name, err)
	}
	if f.ftl.Config().HoldupReserve > 0 && !f.spec.PowerLoss.Controls.NoReserveRestore && !f.reserveRestored() {
		f.wb.hold = f.buf.Capacity() // no room for any write until restoreLook
	}
	copy(f.pl.oob, im.records)
	f.pl.seq = im.seq
	if fi := &f.fin; fi.prefix != nil {
		for b, n := range im.next {
			if n > 0 {
				fi.prefix[b] = uint16(f.ftl.NextPage(ftl.BlockID(b))) // closed: its end; resumed: its write pointer
			}
		}
	}
	return rep, nil
}

// room returns the buffer room a write may take now: none while the hold-up reserve is
// being restored after a mount (writeBuffer.hold).
func (f *Firmware) room() int { return f.buf.Room() - f.wb.reserved - f.wb.hold }

// restoreLook ends the hold on writes after a mount once the reserves are back: called at
// every change of the buffer room (roomChanged: a GC erase is one).
func (f *Firmware) restoreLook() {
	if f.wb.hold > 0 && f.reserveRestored() {
		f.wb.hold = 0
	}
}

// reserveRestored reports whether every plane has its GC and hold-up reserves free again.
func (f *Firmware) reserveRestored() bool {
	c := f.ftl.Config()
	for d := range f.geo.Dies() {
		for p := range f.geo.Planes {
			if f.ftl.FreeBlocks(d, p) < c.GCReserve+c.HoldupReserve {
				return false
			}
		}
	}
	return true
}
