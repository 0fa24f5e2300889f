package ftl

import "unsafe"

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
