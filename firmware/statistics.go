package firmware

import "github.com/fastdrain-sim/fastdrain/sim"

// The firmware's statistics (sim.Stat): declared here, listed in a machine's catalogue
// (runner.Statistics), read at the end of a run by PutStats and PutFaultStats.
var (
	StatForegroundEvictions = &sim.Stat{Name: "evictions_foreground_pages", Unit: sim.UnitPages,
		Desc: "buffer pages evicted to flash in foreground mode (to all dies, a write may be waiting)", Row: "evictions foreground / background"}
	StatBackgroundEvictions = &sim.Stat{Name: "evictions_background_pages", Unit: sim.UnitPages,
		Desc: "buffer pages evicted to flash in background mode (to dies reads are not using)", Row: "evictions foreground / background"}
	StatStalls = &sim.Stat{Name: "writes_stalled", Unit: sim.UnitCount,
		Desc: "host writes that waited for room in the write buffer", Row: "writes stalled on a full buffer"}
	StatStallTime = &sim.Stat{Name: "write_stall_time_us", Unit: sim.UnitTime,
		Desc: "total time host writes waited for room in the write buffer", Row: "time writes stalled"}
	StatModeSwitches = &sim.Stat{Name: "fastdrain_mode_switches", Unit: sim.UnitCount,
		Desc: "switches of the FastDrain buffer between foreground and background eviction", Row: "fastdrain mode switches"}
	StatFlashReads = &sim.Stat{Name: "flash_reads_host_pages", Unit: sim.UnitPages,
		Desc: "host read pages that went to flash", Row: "flash reads (host pages)"}
	StatUnwrittenReads = &sim.Stat{Name: "unwritten_read_pages", Unit: sim.UnitPages,
		Desc: "host read pages never written, answered without touching flash", Row: "reads of never-written pages"}
	StatGCRuns = &sim.Stat{Name: "gc_runs", Unit: sim.UnitCount,
		Desc: "garbage collections (victim blocks collected)", Row: "GC runs / pages moved / erases"}
	StatGCPagesMoved = &sim.Stat{Name: "gc_pages_moved", Unit: sim.UnitPages,
		Desc: "valid pages garbage collection moved", Row: "GC runs / pages moved / erases"}
)

// The fault statistics, present only with a fault model (flash.die.faults).
var (
	StatProgramFailures = &sim.Stat{Name: "flash_program_failures", Unit: sim.UnitPages,
		Desc: "pages whose program failed", Row: "flash program / erase failures"}
	StatEraseFailures = &sim.Stat{Name: "flash_erase_failures", Unit: sim.UnitBlocks,
		Desc: "blocks whose erase failed", Row: "flash program / erase failures"}
	StatFactoryBad = &sim.Stat{Name: "bad_blocks_factory", Unit: sim.UnitBlocks,
		Desc: "factory bad blocks found at build", Row: "bad blocks factory / retired"}
	StatRetiredBlocks = &sim.Stat{Name: "bad_blocks_retired", Unit: sim.UnitBlocks,
		Desc: "blocks retired after a failed program or erase (grown bad blocks)", Row: "bad blocks factory / retired"}
	StatReprograms = &sim.Stat{Name: "pages_reprogrammed", Unit: sim.UnitPages,
		Desc: "failed pages programmed again elsewhere", Row: "pages re-programmed / moved out of retired blocks"}
	StatRetireMoves = &sim.Stat{Name: "retired_block_pages_moved", Unit: sim.UnitPages,
		Desc: "valid pages moved out of retired blocks", Row: "pages re-programmed / moved out of retired blocks"}
	StatReadRetries = &sim.Stat{Name: "read_retry_steps", Unit: sim.UnitCount,
		Desc: "read-retry steps the dies ran", Row: "read-retry steps / uncorrectable page reads"}
	StatUncorrectable = &sim.Stat{Name: "uncorrectable_page_reads", Unit: sim.UnitPages,
		Desc: "page reads still uncorrectable after the last retry step (host and GC)", Row: "read-retry steps / uncorrectable page reads"}
)

// PutStats puts the firmware's own statistics into sn (its buffer's and FTL's are theirs:
// buffer.Buffer.PutStats, ftl.FTL.PutStats).
func (f *Firmware) PutStats(sn *sim.StatSnapshot) {
	s := &f.Stats
	sn.PutInt(StatForegroundEvictions, s.ForegroundEvictions)
	sn.PutInt(StatBackgroundEvictions, s.BackgroundEvictions)
	sn.PutInt(StatStalls, s.Stalls)
	sn.PutInt(StatStallTime, int64(s.StallTime))
	sn.PutInt(StatModeSwitches, int64(len(f.ModeLog())))
	sn.PutInt(StatFlashReads, s.FlashReads)
	sn.PutInt(StatUnwrittenReads, s.Unmapped)
	sn.PutInt(StatGCRuns, s.GCRuns)
	sn.PutInt(StatGCPagesMoved, s.GCPagesMoved)
}

// PutFaultStats puts the fault counters into sn; a machine with a fault model calls it.
func (f *Firmware) PutFaultStats(sn *sim.StatSnapshot) {
	x := &f.faults
	sn.PutInt(StatProgramFailures, x.ProgramFailures)
	sn.PutInt(StatEraseFailures, x.EraseFailures)
	sn.PutInt(StatFactoryBad, x.FactoryBad)
	sn.PutInt(StatRetiredBlocks, x.RetiredBlocks)
	sn.PutInt(StatReprograms, x.Reprograms)
	sn.PutInt(StatRetireMoves, x.RetireMoves)
	sn.PutInt(StatReadRetries, x.ReadRetries)
	sn.PutInt(StatUncorrectable, x.Uncorrectable)
}
