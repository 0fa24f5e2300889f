package ftl

import (
	"unsafe"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// MemoryBytes returns the heap New takes for geometry g and configuration cfg (which
// must be valid for g): the logical-to-physical map (4 bytes per logical page), the
// reverse map (4 bytes per physical page), the per-block state, each plane's free-block
// ring and each die's open-block list. The FTL allocates nothing per page after New; a
// closed-form Precondition adds only its per-die tables.
func MemoryBytes(g Geometry, cfg Config) int64 {
	var hyb int64
	if cfg.mapping() == BASTMapping {
		hyb = bastBytes(g, cfg)
	}
	logical := cfg.logicalPages(g)
	planes := int64(g.Dies()) * int64(g.Planes)
	return int64(unsafe.Sizeof(FTL{})) +
		int64(g.PagesPerBlock)*int64(unsafe.Sizeof(PageKind(0))) +
		logical*int64(unsafe.Sizeof(Unit(0))) +
		g.AllUnits()*int64(unsafe.Sizeof(uint32(0))) +
		int64(g.Blocks())*int64(unsafe.Sizeof(blockMeta{})) +
		planes*(int64(unsafe.Sizeof(planeState{}))+int64(g.BlocksPerPlane)*int64(unsafe.Sizeof(BlockID(0)))) +
		int64(g.Dies())*(int64(unsafe.Sizeof(dieState{}))+int64(cfg.regionBlocks(g))*int64(unsafe.Sizeof(BlockID(0)))+
			2*int64(unsafe.Sizeof(0))) + // precondition's slot tables
		hyb
}

// PreconditionWrites returns how many logical units Precondition(fill, overwrite, …) maps
// and how many physical units it writes on geometry g with configuration cfg: n = fill ×
// the logical units, and n plus overwrite × n rewrites with page mapping (a hybrid mapping
// writes each of the n once), as precondition computes them.
func PreconditionWrites(g Geometry, cfg Config, fill, overwrite float64) (mapped, written int64) {
	n := int64(fill * float64(cfg.logicalPages(g)))
	if cfg.mapping() == BASTMapping {
		return n, n
	}
	return n, n + int64(overwrite*float64(n))
}

// PreconditionClosedForm reports whether Precondition fills g in its closed form, which
// computes the data's out-of-band stamps on demand instead of storing them: with page
// mapping, one mapping unit a page and no bad block in the table (every allocator of this
// package takes it then; precondition.go).
func PreconditionClosedForm(g Geometry, cfg Config, badBlocks bool) bool {
	return cfg.mapping() == PageMapping && g.Units() == 1 && !badBlocks
}

// ResidentBytes returns the part of MemoryBytes(g, cfg) in memory once the first mapped
// logical units and written physical units have map entries. Both maps store an entry's
// complement (table.go), so an entry never written is a zero, and the operating system
// gives a zeroed page of memory only when it is first written (sim.Touched): the maps are
// resident in proportion to the entries written, everything else New allocates is written
// by New. Preconditioning maps logical units 0 … n−1 and fills each plane's blocks from its
// first, so its entries are about contiguous; a run's writes touch the map where the host
// writes (its file system allocates from the start of the device) and the reverse map block
// by block.
func ResidentBytes(g Geometry, cfg Config, mapped, written int64) int64 {
	logical, units := cfg.logicalPages(g), g.AllUnits()
	l2p, p2l := int64(unsafe.Sizeof(Unit(0))), int64(unsafe.Sizeof(uint32(0)))
	return MemoryBytes(g, cfg) - logical*l2p - units*p2l +
		sim.Resident(logical*l2p, mapped*l2p) + sim.Resident(units*p2l, written*p2l)
}
