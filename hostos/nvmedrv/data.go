package nvmedrv

import (
	"encoding/binary"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
)

// StampPage is the logical page size the version stamps refer to: the first eight bytes of
// every 4 KiB page a host write carries are the page's stamp (docs/design.md "Firmware",
// checks; the firmware keeps it out of band).
const StampPage = 4096

// Stamper is implemented by a bio's Private value when the bio carries data stamps (the
// page cache's own request type can implement it, since Private is the bio owner's).
// PageStamps returns one stamp per 4 KiB device page whose first byte lies inside the bio,
// in address order: Stamps[i] belongs to the page starting at the i-th multiple of 4096 at
// or after bio.Offset. For a write the driver puts stamp i little-endian in the first eight
// bytes of that page's data; for a read it fills stamp i from what the device returned,
// before the request completes. A nil result means the bio carries no stamps.
type Stamper interface {
	PageStamps() []uint64
}

// Data is a ready-made Stamper for bios that need nothing else in Private: set
// bio.Private = &Data{Stamps: …} (a write's stamps, or room for a read's).
type Data struct {
	Stamps []uint64
}

// PageStamps returns d.Stamps.
func (d *Data) PageStamps() []uint64 { return d.Stamps }

// StampPages returns how many stamps a bio of size bytes at offset carries: the number of
// 4 KiB pages that start inside it.
func StampPages(offset, size int64) int {
	if size <= 0 {
		return 0
	}
	first := (offset + StampPage - 1) / StampPage
	last := (offset + size - 1) / StampPage
	return int(last - first + 1)
}

// stamps returns the stamps of bio b, or nil.
func stamps(b *blk.Bio) []uint64 {
	if s, ok := b.Private.(Stamper); ok {
		return s.PageStamps()
	}
	return nil
}

// putStamps writes the stamps of a write request's bios into the first eight bytes of each
// 4 KiB page in the DMA buffer at buf. Pages of bios without stamps get stamp 0, so no
// stale contents of an earlier command reach the device.
func (d *Driver) putStamps(rq *blk.Request, buf uint64) {
	if len(rq.Bios) == 0 {
		d.stampRange(rq, buf, rq.Offset, rq.Size, nil, true)
		return
	}
	for _, b := range rq.Bios {
		d.stampRange(rq, buf, b.Offset, b.Size, stamps(b), true)
	}
}

// getStamps reads back the stamps of a completed read request into its bios' Stampers.
func (d *Driver) getStamps(rq *blk.Request, buf uint64) {
	for _, b := range rq.Bios {
		if st := stamps(b); st != nil {
			d.stampRange(rq, buf, b.Offset, b.Size, st, false)
		}
	}
}

// stampRange moves the stamps of bio pages between st and the request's buffer: into the
// buffer if write, out of it otherwise. The bio covers [off, off+size); a bio split over
// several requests contributes only the pages that start inside this request.
func (d *Driver) stampRange(rq *blk.Request, buf uint64, off, size int64, st []uint64, write bool) {
	if st != nil && len(st) < StampPages(off, size) {
		d.bug("bio at %d of %d B carries %d stamps for %d pages", off, size, len(st), StampPages(off, size))
	}
	lo, hi := max(off, rq.Offset), min(off+size, rq.End())
	if lo >= hi {
		d.bug("bio [%d, %d) does not overlap its request [%d, %d)", off, off+size, rq.Offset, rq.End())
	}
	first := ceilPage(off) // the page of the bio's stamp 0
	for pg := ceilPage(lo); pg < hi; pg += StampPage {
		addr := buf + uint64(pg-rq.Offset)
		i := (pg - first) / StampPage
		if write {
			var v uint64
			if st != nil {
				v = st[i]
			}
			d.mem.PutUint64(addr, v)
		} else {
			st[i] = d.mem.Uint64(addr)
		}
	}
}

// ceilPage rounds off up to a multiple of StampPage.
func ceilPage(off int64) int64 { return (off + StampPage - 1) / StampPage * StampPage }

// dsmRanges is the most ranges one Dataset Management command carries (NR is 8 bits,
// 0's based; Linux NVME_DSM_MAX_RANGES).
const dsmRanges = 256

// maxRangeBlocks is the largest range length: the field is 32 bits.
const maxRangeBlocks = 1<<32 - 1

// putRanges writes the Dataset Management range list of a discard into the buffer at buf,
// one range per bio (the part of it inside the request) as nvme_setup_discard does, 16 B
// each: context attributes 0, length in logical blocks, starting LBA. It returns the
// number of ranges.
func (d *Driver) putRanges(rq *blk.Request, buf uint64, lba int64) int {
	n := 0
	if len(rq.Bios) == 0 {
		return d.putRange(buf, n, rq.Offset, rq.Size, lba)
	}
	for _, b := range rq.Bios {
		lo, hi := max(b.Offset, rq.Offset), min(b.End(), rq.End())
		n = d.putRange(buf, n, lo, hi-lo, lba)
	}
	return n
}

// putRange appends the ranges of [off, off+size) in logical blocks of lba bytes after n
// ranges and returns the new count.
func (d *Driver) putRange(buf uint64, n int, off, size, lba int64) int {
	slba, blocks := off/lba, size/lba
	for blocks > 0 {
		if n == dsmRanges || (n+1)*16 > d.maxXfer {
			d.bug("discard needs more than %d ranges", n)
		}
		k := min(blocks, maxRangeBlocks)
		r := d.rangeBuf[:]
		binary.LittleEndian.PutUint32(r[0:], 0)
		binary.LittleEndian.PutUint32(r[4:], uint32(k))
		binary.LittleEndian.PutUint64(r[8:], uint64(slba))
		d.mem.Write(buf+uint64(n)*16, r)
		n++
		slba, blocks = slba+k, blocks-k
	}
	return n
}

// Range is one Dataset Management range as it sits in host memory (NVMe base spec, Dataset
// Management range definition): for tests and device models that decode discards.
type Range struct {
	Attributes uint32
	Blocks     uint32
	SLBA       uint64
}

// DecodeRange decodes 16 bytes of a Dataset Management range list.
func DecodeRange(b []byte) Range {
	return Range{Attributes: binary.LittleEndian.Uint32(b[0:]), Blocks: binary.LittleEndian.Uint32(b[4:]),
		SLBA: binary.LittleEndian.Uint64(b[8:])}
}

// dsmDeallocate is the AD (attribute deallocate) bit of Dataset Management CDW11.
const dsmDeallocate = 1 << 2
