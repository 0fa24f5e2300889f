package ftl

// PreconditionRoom returns what Precondition(fill, overwrite, …) on a new FTL of g and
// cfg must fit, before one is built: its writes, fill · the logical pages plus overwrite ·
// as many again, and the room for them, the physical pages outside the GC reserve (per
// plane: the GC threshold (above the hold-up reserve), the LSB-only region's open blocks and one block more), in
// mapping units (pages, with one unit a page).
// Precondition fails when writes > room. cfg must be valid for g.
func PreconditionRoom(g Geometry, cfg Config, fill, overwrite float64) (writes, room int64) {
	logical := cfg.logicalPages(g)
	n := int64(fill * float64(logical))
	m := int64(overwrite * float64(n))
	open := (cfg.regionBlocks(g) + g.Planes - 1) / g.Planes
	reserve := int64(cfg.gcAt()+open+1) * int64(g.Dies()*g.Planes) * int64(g.PagesPerBlock)
	return n + m, (g.Pages() - reserve) * int64(g.Units())
}
