package ftl

import "github.com/fastdrain-sim/fastdrain/sim"

// The FTL's statistics (sim.Stat): declared here, listed in a machine's catalogue
// (runner.Statistics), read at the end of a run by PutStats.
var (
	StatProgrammedLSB = &sim.Stat{Name: "pages_programmed_lsb", Unit: sim.UnitPages,
		Desc: "flash pages programmed at LSB page types (SLC and MLC pages count here too)", Row: "pages programmed LSB / CSB / MSB"}
	StatProgrammedCSB = &sim.Stat{Name: "pages_programmed_csb", Unit: sim.UnitPages,
		Desc: "flash pages programmed at CSB page types", Row: "pages programmed LSB / CSB / MSB"}
	StatProgrammedMSB = &sim.Stat{Name: "pages_programmed_msb", Unit: sim.UnitPages,
		Desc: "flash pages programmed at MSB page types", Row: "pages programmed LSB / CSB / MSB"}
	StatProgrammedTSB = &sim.Stat{Name: "pages_programmed_tsb", Unit: sim.UnitPages,
		Desc: "flash pages programmed at TSB (QLC top) page types (absent when 0)", Row: "pages programmed LSB / CSB / MSB"}
	StatUsed = &sim.Stat{Name: "flash_pages_used", Unit: sim.UnitPages,
		Desc: "flash pages programmed, all types (the paper's Fig. 3b/6b \"Used\")", Row: "flash pages used (programmed)"}
	StatWasted = &sim.Stat{Name: "pages_wasted", Unit: sim.UnitPages,
		Desc: "flash pages the allocators skipped during the run (the paper's \"Wasted\")", Row: "pages wasted (skipped) / at block close"}
	// Where the waste comes from (issue 31 item 7; Stats.LostAtClose, LeftBehind, …).
	StatLostAtClose = &sim.Stat{Name: "pages_wasted_at_block_close", Unit: sim.UnitPages,
		Desc: "of pages_wasted, the skipped pages that ran to a block's end (no LSB page left in it)", Row: "pages wasted (skipped) / at block close"}
	StatLeftBehind = &sim.Stat{Name: "pages_left_behind", Unit: sim.UnitPages,
		Desc: "CSB/MSB pages a foreground write left at the head of its block by taking the LSB page before them (latency-aware allocator)",
		Row:  "pages left behind by foreground / later programmed / later skipped"}
	StatBehindFilled = &sim.Stat{Name: "pages_left_behind_filled", Unit: sim.UnitPages,
		Desc: "pages left behind that a later write programmed", Row: "pages left behind by foreground / later programmed / later skipped"}
	StatBehindSkipped = &sim.Stat{Name: "pages_left_behind_skipped", Unit: sim.UnitPages,
		Desc: "pages left behind that a later foreground write skipped (wasted)", Row: "pages left behind by foreground / later programmed / later skipped"}
	StatPadded = &sim.Stat{Name: "page_slots_padded", Unit: sim.UnitCount,
		Desc: "mapping-unit slots of programmed pages that held no data (sub-page mapping only; absent when 0)",
		Row:  "page slots padded (sub-page mapping)"}
	StatWAF = &sim.Stat{Name: "waf", Unit: sim.UnitRatio,
		Desc: "write amplification: mapping units written to flash per host unit written", Row: "WAF"}
	StatErases = &sim.Stat{Name: "erases", Unit: sim.UnitBlocks,
		Desc: "flash blocks erased", Row: "GC runs / pages moved / erases"}
	// Where foreground writes landed (the latency-aware allocator's engagement, issue 31).
	StatForegroundWrites = &sim.Stat{Name: "foreground_writes", Unit: sim.UnitPages,
		Desc: "host pages written to flash by foreground eviction", Row: "foreground writes / on LSB pages"}
	StatForegroundLSB = &sim.Stat{Name: "foreground_writes_lsb", Unit: sim.UnitPages,
		Desc: "foreground writes that landed on LSB pages", Row: "foreground writes / on LSB pages"}
	StatLSBAfterSkip = &sim.Stat{Name: "foreground_writes_lsb_after_skip", Unit: sim.UnitPages,
		Desc: "foreground writes that skipped CSB/MSB pages to reach their LSB page",
		Row:  "foreground writes on LSB after skipping / on CSB-MSB (bounded)"}
	StatFGBounded = &sim.Stat{Name: "foreground_writes_bounded", Unit: sim.UnitPages,
		Desc: "foreground writes on CSB/MSB pages because the allocator's bounds left no LSB page",
		Row:  "foreground writes on LSB after skipping / on CSB-MSB (bounded)"}
	// The skip region (reclaim.go; absent for an allocator that never skipped).
	StatSkipRegion = &sim.Stat{Name: "skip_region_blocks", Unit: sim.UnitBlocks,
		Desc: "blocks holding skipped pages at the end of the run, all dies (the skip region; GC's erase returns them)",
		Row:  "skip region at the end: blocks / dies at lsb_only_blocks / blocks GC reclaimed"}
	StatSkipRegionFull = &sim.Stat{Name: "skip_region_full_dies", Unit: sim.UnitCount,
		Desc: "dies whose skip region held lsb_only_blocks blocks at the end of the run: foreground writes there skip no further until GC erases one (latency-aware allocator)",
		Row:  "skip region at the end: blocks / dies at lsb_only_blocks / blocks GC reclaimed"}
	StatSkipReclaims = &sim.Stat{Name: "skip_region_reclaims", Unit: sim.UnitBlocks,
		Desc: "skip-region blocks GC collected on planes with free blocks to spare (ftl.lsb_only_reclaim)",
		Row:  "skip region at the end: blocks / dies at lsb_only_blocks / blocks GC reclaimed"}
)

// PutStats puts the FTL's statistics into sn. Stats.Wasted counts from the FTL's build
// (preconditioning included); wastedBefore is its value when the measured work began, so
// pages_wasted is that work's. The other counters start at zero after preconditioning.
func (f *FTL) PutStats(sn *sim.StatSnapshot, wastedBefore int64) {
	s := &f.Stats
	var used int64
	for _, k := range s.Programmed {
		used += k
	}
	sn.PutInt(StatProgrammedLSB, s.Programmed[0])
	sn.PutInt(StatProgrammedCSB, s.Programmed[1])
	sn.PutInt(StatProgrammedMSB, s.Programmed[2])
	if s.Programmed[TSB] > 0 { // QLC only: other outputs are unchanged
		sn.PutInt(StatProgrammedTSB, s.Programmed[TSB])
	}
	sn.PutInt(StatUsed, used)
	sn.PutInt(StatWasted, s.Wasted-wastedBefore)
	sn.PutInt(StatLostAtClose, s.LostAtClose)
	sn.PutInt(StatLeftBehind, s.LeftBehind)
	sn.PutInt(StatBehindFilled, s.BehindFilled)
	sn.PutInt(StatBehindSkipped, s.BehindSkipped)
	if s.Padded > 0 { // sub-page mapping only: outputs with one unit a page are unchanged
		sn.PutInt(StatPadded, s.Padded)
	}
	sn.Put(StatWAF, s.WAF())
	sn.PutInt(StatErases, s.Erases)
	sn.PutInt(StatForegroundWrites, s.ForegroundWr)
	sn.PutInt(StatForegroundLSB, s.LSBForFG)
	sn.PutInt(StatLSBAfterSkip, s.LSBAfterSkip)
	sn.PutInt(StatFGBounded, s.FGBounded)
	f.putSkipRegion(sn)
}

// putSkipRegion puts the skip region's statistics, only if an allocator ever skipped a page
// (outputs of runs that never skip are unchanged): the region's blocks at the end, the dies
// at the latency-aware allocator's bound (lsb_only_blocks), and the blocks GC reclaimed.
func (f *FTL) putSkipRegion(sn *sim.StatSnapshot) {
	if f.Stats.Wasted == 0 && f.Stats.SkipReclaims == 0 {
		return
	}
	var blocks, full int64
	for d := range f.dies {
		blocks += int64(f.dies[d].lsbOnly)
		if f.cfg.Allocator == LatencyAware && f.cfg.LSBOnlyBlocks > 0 && f.dies[d].lsbOnly >= f.cfg.LSBOnlyBlocks {
			full++
		}
	}
	sn.PutInt(StatSkipRegion, blocks)
	sn.PutInt(StatSkipRegionFull, full)
	sn.PutInt(StatSkipReclaims, f.Stats.SkipReclaims)
}
