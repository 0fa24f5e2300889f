package die

import (
	"unsafe"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// MemoryBytes returns the heap one die of spec takes (see Die's doc comment): at build,
// the struct, its array and plane Resources, the page-type table and the per-block state
// (write pointer, erase count, stamp slice header); and at most, once every block has been
// programmed at least once, 8 bytes more per page and stamp slot (Spec.StampsPerPage) for
// the stored stamps (a block filled
// by FillFrom stores none until it is next programmed) and every Resource's interval ring.
// The bitmap of skipped pages, kept only for blocks a skipping allocator passed pages over
// in, is counted at one bit per page in the peak. With a fault model, the read-error
// model's 12 B a block and the factory bad-block list are counted at build.
func MemoryBytes(s Spec) (build, peak int64) {
	blocks := int64(s.Planes) * int64(s.BlocksPerPlane)
	pages := blocks * int64(s.PagesPerBlock)
	res := int64(1)
	if s.Planes > 1 {
		res += int64(s.Planes)
	}
	rb, rp := sim.ResourceBytes(6)
	build = int64(unsafe.Sizeof(Die{})) + res*rb +
		int64(s.PagesPerBlock)*int64(unsafe.Sizeof(PageType(0))) + wordLineBytes(s) +
		blocks*int64(unsafe.Sizeof(uint16(0))+unsafe.Sizeof(uint32(0))+unsafe.Sizeof([]uint64(nil)))
	if s.Faults.Read.Enabled() { // the read-error model's per-block state (readerrors.go)
		build += blocks * int64(unsafe.Sizeof(sim.Time(0))+unsafe.Sizeof(uint32(0)))
	}
	if s.SLCPages() > 0 { // the SLC mode's per-block state (slc.go): a mode bit, an erase count
		build += int64(unsafe.Sizeof(slcState{})) + (blocks+63)/64*8 + blocks*int64(unsafe.Sizeof(uint32(0)))
	}
	if s.IndependentPlaneReads && s.Planes > 1 { // each plane's read end (planes.go)
		build += int64(s.Planes) * int64(unsafe.Sizeof(sim.Time(0)))
	}
	if s.Faults.FactoryBad > 0 { // the draw's bitmap is garbage after New; the list stays
		build += int64(s.Faults.FactoryBad) * int64(unsafe.Sizeof(Addr{}))
	}
	peak = build + res*(rp-rb) + pages*int64(s.StampsPerPage())*int64(unsafe.Sizeof(uint64(0))) + pages/8
	return build, peak
}

// wordLineBytes returns the heap of the die's word-line tables (wordLines): two uint16 a
// page of a block, page by page with several bits a cell.
func wordLineBytes(s Spec) int64 {
	if s.Bits() == 1 || s.ProgramScheme() != PageByPage {
		return 0
	}
	return 2 * int64(s.PagesPerBlock) * int64(unsafe.Sizeof(uint16(0)))
}

// ResidentBytes returns the part of MemoryBytes's build figure in memory once the first
// blocks of the die have been written (preconditioned, by Fill or FillFrom): the per-block
// state is zeros until a block is written, and the operating system gives a zeroed page of
// memory only when it is first written (sim.Touched), so each per-block array is resident
// for the blocks written; the rest of the die is written at build.
func ResidentBytes(s Spec, blocks int64) int64 {
	build, _ := MemoryBytes(s)
	nb := int64(s.Planes) * int64(s.BlocksPerPlane)
	blocks = min(max(blocks, 0), nb)
	elems := []int64{int64(unsafe.Sizeof(uint16(0))), int64(unsafe.Sizeof(uint32(0))), int64(unsafe.Sizeof([]uint64(nil)))}
	if s.Faults.Read.Enabled() {
		elems = append(elems, int64(unsafe.Sizeof(sim.Time(0))), int64(unsafe.Sizeof(uint32(0))))
	}
	if s.SLCPages() > 0 {
		elems = append(elems, int64(unsafe.Sizeof(uint32(0)))) // the SLC erase counts
	}
	for _, e := range elems {
		build += sim.Resident(nb*e, blocks*e) - nb*e
	}
	return build
}

// RunBytes returns what a run adds to a die of spec beyond ResidentBytes: the interval
// ring of each of its Resources (allocated on their first booking, which every die's
// first operation makes) and the stamps of one block a plane (a block's stamps are
// allocated whole when it is first programmed, and a run's streams open a block on each
// plane they write: a preconditioned block stores none until then). More blocks opened
// add WriteBytes' share for each page programmed.
func RunBytes(s Spec) int64 {
	res := int64(1)
	if s.Planes > 1 {
		res += int64(s.Planes)
	}
	rb, rp := sim.ResourceBytes(6)
	return res*(rp-rb) + int64(s.Planes)*int64(s.PagesPerBlock)*int64(s.StampsPerPage())*int64(unsafe.Sizeof(uint64(0)))
}
