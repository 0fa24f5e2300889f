package firmware

import "github.com/fastdrain-sim/fastdrain/sim"

// The SLC cache's statistics (slcfold.go, ftl/slccache.go), present only with one
// (firmware.ftl.slc_cache): every run, fio, replay and uflip output of such a drive carries
// them, and the others' outputs are unchanged.
var (
	StatSLCWrites = &sim.Stat{Name: "slc_write_pages", Unit: sim.UnitPages,
		Desc: "host pages (mapping units) written to blocks in SLC mode", Row: "SLC cache: host pages to SLC / direct to native / folded"}
	StatSLCDirect = &sim.Stat{Name: "slc_direct_pages", Unit: sim.UnitPages,
		Desc: "host pages written directly to native (TLC/QLC) blocks while the SLC cache was full", Row: "SLC cache: host pages to SLC / direct to native / folded"}
	StatSLCBypass = &sim.Stat{Name: "slc_bypass_pages", Unit: sim.UnitPages,
		Desc: "host pages the allocator routed to native blocks past the SLC cache (slc-foreground: background evictions)", Row: "SLC cache: host pages routed past the cache"}
	StatSLCFolded = &sim.Stat{Name: "slc_fold_pages", Unit: sim.UnitPages,
		Desc: "pages (mapping units) folded: moved out of SLC blocks to native blocks", Row: "SLC cache: host pages to SLC / direct to native / folded"}
	StatSLCHits = &sim.Stat{Name: "slc_read_hits", Unit: sim.UnitPages,
		Desc: "host flash reads of pages in SLC blocks (SLC tR)", Row: "SLC cache: read hits / time direct to native"}
	StatSLCDirectTime = &sim.Stat{Name: "slc_direct_time_us", Unit: sim.UnitTime,
		Desc: "time host writes went directly to native blocks because the SLC cache was full (the write cliff)", Row: "SLC cache: read hits / time direct to native"}
	StatSLCBlocks = &sim.Stat{Name: "slc_blocks_in_use", Unit: sim.UnitBlocks,
		Desc: "blocks in SLC mode at the end (open or full, not yet folded)", Row: "SLC cache: blocks in use / peak / region now"}
	StatSLCPeak = &sim.Stat{Name: "slc_blocks_peak", Unit: sim.UnitBlocks,
		Desc: "most blocks in SLC mode at once", Row: "SLC cache: blocks in use / peak / region now"}
	StatSLCRegion = &sim.Stat{Name: "slc_region_blocks", Unit: sim.UnitBlocks,
		Desc: "the SLC cache's region at the end: static plus what the fill leaves of the dynamic one, over all planes", Row: "SLC cache: blocks in use / peak / region now"}
	StatSLCValid = &sim.Stat{Name: "slc_valid_pages", Unit: sim.UnitPages,
		Desc: "pages (mapping units) of current data in SLC blocks at the end (the cache's occupancy)", Row: "SLC cache: valid pages / folds / SLC erases"}
	StatSLCFolds = &sim.Stat{Name: "slc_folded_blocks", Unit: sim.UnitBlocks,
		Desc: "SLC blocks folded and erased", Row: "SLC cache: valid pages / folds / SLC erases"}
	StatSLCErases = &sim.Stat{Name: "slc_erases", Unit: sim.UnitBlocks,
		Desc: "erases of blocks in SLC mode (counted against pSLC endurance, not native P/E cycles)", Row: "SLC cache: valid pages / folds / SLC erases"}
)

// SLCStatList returns the SLC cache's statistics, for a catalogue.
func SLCStatList() []*sim.Stat {
	return []*sim.Stat{StatSLCWrites, StatSLCDirect, StatSLCFolded, StatSLCBypass, StatSLCHits, StatSLCDirectTime,
		StatSLCBlocks, StatSLCPeak, StatSLCRegion, StatSLCValid, StatSLCFolds, StatSLCErases}
}

// PutSLCStats puts the SLC cache's statistics into sn when the FTL has one.
func (f *Firmware) PutSLCStats(sn *sim.StatSnapshot) {
	if f.slc == nil {
		return
	}
	s := f.ftl.SLCStats()
	blocks, valid := f.ftl.SLCOccupancy()
	sn.PutInt(StatSLCWrites, s.SLCWrites)
	sn.PutInt(StatSLCDirect, s.DirectWrites)
	sn.PutInt(StatSLCBypass, s.BypassWrites)
	sn.PutInt(StatSLCFolded, s.FoldUnits)
	sn.PutInt(StatSLCHits, f.slc.hits)
	sn.PutInt(StatSLCDirectTime, int64(f.slc.directTimeAt(f.eng.Now())))
	sn.PutInt(StatSLCBlocks, int64(blocks))
	sn.PutInt(StatSLCPeak, s.PeakBlocks)
	sn.PutInt(StatSLCRegion, int64(f.ftl.SLCCapacity()*f.geo.Dies()*f.geo.Planes))
	sn.PutInt(StatSLCValid, valid)
	sn.PutInt(StatSLCFolds, s.FoldBlocks)
	sn.PutInt(StatSLCErases, s.SLCErases)
}
