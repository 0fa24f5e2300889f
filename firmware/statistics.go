package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
)

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

// The engagement of FastDrain's mechanisms (issue 31; docs/firmware.md "Engagement
// counters"): how much each was in force, not only that it happened. The runner puts
// StatForegroundTime, over the measured window (runner.Statistics).
var (
	StatHintedWrites = &sim.Stat{Name: "hinted_writes_received", Unit: sim.UnitCount,
		Desc: "write commands the firmware received with the victimization hint", Row: "hinted writes sent (host) / received / acted on"}
	StatHintActedOn = &sim.Stat{Name: "hinted_writes_acted_on", Unit: sim.UnitCount,
		Desc: "hinted writes the firmware made room for in advance (the one that started a hint episode, those received during one)",
		Row:  "hinted writes sent (host) / received / acted on"}
	StatHintEpisodes = &sim.Stat{Name: "hint_foreground_episodes", Unit: sim.UnitCount,
		Desc: "foreground eviction episodes the hint alone started (the occupancy plus reserved slots under the high watermark)",
		Row:  "foreground episodes started by the hint"}
	StatForegroundTime = &sim.Stat{Name: "foreground_time_us", Unit: sim.UnitTime,
		Desc: "time the evictor was in foreground mode (sending pages or waiting for a die with room)", Row: "time in foreground eviction / share of the run"}
	StatAboveHigh = &sim.Stat{Name: "completions_above_high", Unit: sim.UnitCount,
		Desc: "completions whose buffer level (FastDrain's upcall) was above-high", Row: "completions reporting above-high"}
	StatBackgroundIdle = &sim.Stat{Name: "background_pages_idle_dies", Unit: sim.UnitPages,
		Desc: "background eviction pages sent to dies idle of host work (firmware/activity.go)", Row: "background pages to idle / busy dies"}
	StatBackgroundBusy = &sim.Stat{Name: "background_pages_busy_dies", Unit: sim.UnitPages,
		Desc: "background eviction pages sent to dies busy with host reads (FD-Buf sends none; under Oracle-BG, what the idle-die rule would refuse)",
		Row:  "background pages to idle / busy dies"}
	StatReadsBehindArray = &sim.Stat{Name: "reads_behind_flash_work", Unit: sim.UnitPages,
		Desc: "host flash reads that reached a die already running a program, an erase or a GC read",
		Row:  "host flash reads behind flash work / behind a background program"}
	StatReadsBehindBackground = &sim.Stat{Name: "reads_behind_background_program", Unit: sim.UnitPages,
		Desc: "host flash reads that reached a die running a background eviction program",
		Row:  "host flash reads behind flash work / behind a background program"}
	StatReadSuspends = &sim.Stat{Name: "read_suspends", Unit: sim.UnitCount,
		Desc: "host flash reads that suspended a program or erase on their die (flash.die.suspend)", Row: "host reads that suspended a program or erase"}
	StatForegroundSlowDies = &sim.Stat{Name: "foreground_slow_dies", Unit: sim.UnitCount,
		Desc: "dies with room a foreground round passed over for want of an LSB page (latency-aware allocator)",
		Row:  "foreground: dies passed over for want of an LSB page / fallback rounds"}
	StatForegroundFallbacks = &sim.Stat{Name: "foreground_fallback_rounds", Unit: sim.UnitCount,
		Desc: "foreground rounds that found no die with room and an LSB page and let the allocator skip",
		Row:  "foreground: dies passed over for want of an LSB page / fallback rounds"}
)

// The word-line finality statistics (final.go; docs/reliability.md, "Word-line
// finality"), present only with firmware.power_loss.enabled, where the rule applies
// (zero under the control durable_at_done).
var (
	StatFinalityPads = &sim.Stat{Name: "finality_pad_pages", Unit: sim.UnitPages,
		Desc: "pages programmed with no data to make provisional pages final (Flush/FUA, the hold-up drain's end, an erase waiting on copies)",
		Row:  "finality: pad pages / flushes that waited / their wait"}
	StatFinalityFlushes = &sim.Stat{Name: "finality_flush_waits", Unit: sim.UnitCount,
		Desc: "Flush commands and FUA writes that, their data programmed, waited for its word lines to become final",
		Row:  "finality: pad pages / flushes that waited / their wait"}
	StatFinalityWait = &sim.Stat{Name: "finality_flush_wait_us", Unit: sim.UnitTime,
		Desc: "total time those flushes waited, from their data programmed to its word lines final",
		Row:  "finality: pad pages / flushes that waited / their wait"}
)

// PutFinalityStats puts the word-line finality statistics into sn with
// firmware.power_loss.enabled.
func (f *Firmware) PutFinalityStats(sn *sim.StatSnapshot) {
	if !f.spec.PowerLoss.Enabled {
		return
	}
	sn.PutInt(StatFinalityPads, f.ftl.Stats.FinalityPads)
	sn.PutInt(StatFinalityFlushes, f.fin.padWaits)
	sn.PutInt(StatFinalityWait, int64(f.fin.padWait))
}

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
	StatRefusedWrites = &sim.Stat{Name: "commands_refused_read_only", Unit: sim.UnitCount,
		Desc: "write, write zeroes, deallocate and flush commands failed with Attempted Write to Read Only Range (read-only mode)",
		Row:  "commands refused read-only / host reads failed"}
	StatFailedReads = &sim.Stat{Name: "host_reads_failed", Unit: sim.UnitCount,
		Desc: "host read commands completed with Unrecovered Read Error", Row: "commands refused read-only / host reads failed"}
	StatUnplaced = &sim.Stat{Name: "pages_unplaced", Unit: sim.UnitPages,
		Desc: "failed programs whose die had no room to program them again: the data went back to the buffer or to GC's original",
		Row:  "pages that could not be placed again"}
	StatSparePool = &sim.Stat{Name: "spare_blocks_a_die", Unit: sim.UnitBlocks,
		Desc: "each die's spare pool for factory and grown bad blocks (firmware.ftl.spare_blocks)", Row: "spare blocks a die: pool / least left"}
	StatSpareLeft = &sim.Stat{Name: "spare_blocks_least_left", Unit: sim.UnitBlocks,
		Desc: "the fewest spare blocks any die has left (negative once a die is past its pool)", Row: "spare blocks a die: pool / least left"}
	StatAvailableSpare = &sim.Stat{Name: "available_spare_percent", Unit: sim.UnitCount,
		Desc: "NVMe Available Spare: per cent of the pool the worst die has left, rounded down", Row: "SMART available spare % / critical warning"}
	StatCriticalWarning = &sim.Stat{Name: "critical_warning", Unit: sim.UnitCount,
		Desc: "the SMART / Health log's Critical Warning bits: 1 spare below threshold, 4 reliability degraded, 8 read-only",
		Row:  "SMART available spare % / critical warning"}
	StatReadOnly = &sim.Stat{Name: "read_only", Unit: sim.UnitCount,
		Desc: "1 if the drive went read-only (a die past its spare pool, or with no free block left), else 0", Row: "drive read-only / since"}
	StatReadOnlyAt = &sim.Stat{Name: "read_only_at_us", Unit: sim.UnitTime,
		Desc: "when the drive went read-only (0 while writable)", Row: "drive read-only / since"}
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
	sn.PutInt(StatHintedWrites, s.HintedWrites)
	sn.PutInt(StatHintActedOn, s.HintActedOn)
	sn.PutInt(StatHintEpisodes, s.HintEpisodes)
	sn.PutInt(StatAboveHigh, s.AboveHigh)
	sn.PutInt(StatBackgroundIdle, s.BackgroundIdle)
	sn.PutInt(StatBackgroundBusy, s.BackgroundBusy)
	sn.PutInt(StatReadsBehindArray, s.ReadsBehindArray)
	sn.PutInt(StatReadsBehindBackground, s.ReadsBehindBackground)
	sn.PutInt(StatReadSuspends, s.ReadSuspends)
	sn.PutInt(StatForegroundSlowDies, s.ForegroundSlowDies)
	sn.PutInt(StatForegroundFallbacks, s.ForegroundFallbacks)
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
	sn.PutInt(StatRefusedWrites, x.RefusedWrites)
	sn.PutInt(StatFailedReads, x.FailedReads)
	sn.PutInt(StatUnplaced, x.Unplaced)
	h, info := f.Health(), f.HealthInfo()
	sn.PutInt(StatSparePool, int64(h.SparePool))
	sn.PutInt(StatSpareLeft, int64(h.SpareLeft))
	sn.PutInt(StatAvailableSpare, int64(h.AvailableSpare))
	sn.PutInt(StatCriticalWarning, int64(info.CriticalWarning))
	var ro int64
	if h.ReadOnly {
		ro = 1
	}
	sn.PutInt(StatReadOnly, ro)
	sn.PutInt(StatReadOnlyAt, int64(h.ReadOnlyAt))
}

// NSStatSet is the statistics of one namespace (namespaces.go): its host commands and
// pages.
type NSStatSet struct {
	Reads, Writes, ReadPages, WritePages *sim.Stat
}

// StatNS holds the statistics of namespaces 1 … nvme.MaxNamespaces (StatNS[i] is NSID
// i+1's). A machine with more than one namespace reports each of its namespaces'; with one,
// none (the machine-wide statistics are that namespace's).
var StatNS = func() (s [nvme.MaxNamespaces]NSStatSet) {
	for i := range s {
		n := i + 1
		cmds := fmt.Sprintf("namespace %d: read / write commands", n)
		pages := fmt.Sprintf("namespace %d: pages read / written", n)
		s[i] = NSStatSet{
			Reads:      numbered("ns%d_read_commands", sim.UnitCount, "host read commands to namespace %d", cmds, n),
			Writes:     numbered("ns%d_write_commands", sim.UnitCount, "host write commands to namespace %d", cmds, n),
			ReadPages:  numbered("ns%d_read_pages", sim.UnitPages, "4 KiB logical pages host reads of namespace %d covered", pages, n),
			WritePages: numbered("ns%d_write_pages", sim.UnitPages, "4 KiB logical pages host writes to namespace %d covered", pages, n),
		}
	}
	return s
}()

// numbered returns the statistic of a numbered thing (namespace or handle n): name and
// desc are formats taking n.
func numbered(name string, unit sim.Unit, desc, row string, n int) *sim.Stat {
	return &sim.Stat{Name: fmt.Sprintf(name, n), Unit: unit, Desc: fmt.Sprintf(desc, n), Row: row}
}

// NamespaceStatList returns StatNS as one list, namespace by namespace, for a catalogue.
func NamespaceStatList() []*sim.Stat {
	var out []*sim.Stat
	for _, s := range StatNS {
		out = append(out, s.Reads, s.Writes, s.ReadPages, s.WritePages)
	}
	return out
}

// PutNamespaceStats puts each namespace's statistics into sn when the firmware has more
// than one namespace.
func (f *Firmware) PutNamespaceStats(sn *sim.StatSnapshot) {
	if len(f.ns) < 2 {
		return
	}
	for i := range f.ns {
		s, st := StatNS[i], &f.ns[i].stats
		sn.PutInt(s.Reads, st.Reads)
		sn.PutInt(s.Writes, st.Writes)
		sn.PutInt(s.ReadPages, st.ReadPages)
		sn.PutInt(s.WritePages, st.WritePages)
	}
}

// The Flexible Data Placement statistics (fdp.go), present only with nvme.fdp.enabled: the
// FDP Statistics log page's counters since FDP was enabled (after preconditioning) and the
// events logged, then each reclaim unit handle's host and GC pages and WAF.
var (
	StatFDPHostBytes = &sim.Stat{Name: "fdp_host_bytes_written", Unit: sim.UnitCount,
		Desc: "FDP Statistics HBMW: bytes of host write commands", Row: "FDP bytes host written / media written / media erased"}
	StatFDPMediaBytes = &sim.Stat{Name: "fdp_media_bytes_written", Unit: sim.UnitCount,
		Desc: "FDP Statistics MBMW: bytes programmed to flash, host and GC", Row: "FDP bytes host written / media written / media erased"}
	StatFDPErasedBytes = &sim.Stat{Name: "fdp_media_bytes_erased", Unit: sim.UnitCount,
		Desc: "FDP Statistics MBE: bytes of flash erased", Row: "FDP bytes host written / media written / media erased"}
	StatFDPEvents = &sim.Stat{Name: "fdp_events", Unit: sim.UnitCount,
		Desc: "FDP events logged (host and controller events)", Row: "FDP events"}
	// StatFDPGroupFallbacks is present only with several reclaim groups, StatFDPRUTimeouts
	// only with a reclaim unit time limit.
	StatFDPGroupFallbacks = &sim.Stat{Name: "fdp_group_fallback_pages", Unit: sim.UnitPages,
		Desc: "pages written outside the reclaim group they named, which could take none (ftl/placement.go)", Row: "FDP pages written outside their full reclaim group"}
	StatFDPRUTimeouts = &sim.Stat{Name: "fdp_ru_time_limit_closes", Unit: sim.UnitCount,
		Desc: "reclaim units closed at the reclaim unit time limit (ERUTL)", Row: "FDP reclaim units closed at the time limit"}
	// StatFDPHeadRefusals counts the evictor's visits to a die that could not take the
	// oldest dirty page (its handle's reclaim unit full there, fdpevict.go);
	// StatFDPLookaheadPages, present only with firmware.buffer.placement_lookahead, the
	// pages it evicted out of age order instead.
	StatFDPHeadRefusals = &sim.Stat{Name: "fdp_evict_head_refusals", Unit: sim.UnitCount,
		Desc: "times a die could not take the oldest dirty page, its handle's reclaim unit being full there", Row: "FDP eviction: oldest page refused by a die / younger pages taken instead"}
	StatFDPLookaheadPages = &sim.Stat{Name: "fdp_evict_lookahead_pages", Unit: sim.UnitPages,
		Desc: "pages evicted out of age order, of another handle, after the oldest was refused (placement_lookahead)", Row: "FDP eviction: oldest page refused by a die / younger pages taken instead"}
)

// RUHStatSet is the statistics of one reclaim unit handle.
type RUHStatSet struct {
	HostPages, GCPages, WAF, ReclaimUnits *sim.Stat
}

// StatRUH holds the statistics of reclaim unit handles 0 … nvme.MaxReclaimUnitHandles−1.
var StatRUH = func() (s [nvme.MaxReclaimUnitHandles]RUHStatSet) {
	for h := range s {
		row := fmt.Sprintf("FDP handle %d: host / GC pages / reclaim units / WAF", h)
		s[h] = RUHStatSet{
			HostPages:    numbered("fdp_ruh%d_host_pages", sim.UnitPages, "logical pages the host wrote to flash through reclaim unit handle %d", row, h),
			GCPages:      numbered("fdp_ruh%d_gc_pages", sim.UnitPages, "pages of reclaim unit handle %d's data GC moved", row, h),
			ReclaimUnits: numbered("fdp_ruh%d_reclaim_units", sim.UnitCount, "reclaim units reclaim unit handle %d has started", row, h),
			WAF:          numbered("fdp_ruh%d_waf", sim.UnitRatio, "write amplification of reclaim unit handle %d's data: (host + GC) / host pages", row, h),
		}
	}
	return s
}()

// FDPStatList returns the FDP statistics as one list, for a catalogue.
func FDPStatList() []*sim.Stat {
	out := []*sim.Stat{StatFDPHostBytes, StatFDPMediaBytes, StatFDPErasedBytes, StatFDPEvents, StatFDPGroupFallbacks, StatFDPRUTimeouts, StatFDPHeadRefusals, StatFDPLookaheadPages}
	for _, s := range StatRUH {
		out = append(out, s.HostPages, s.GCPages, s.ReclaimUnits, s.WAF)
	}
	return out
}

// PutFDPStats puts the FDP statistics into sn when FDP is on.
func (f *Firmware) PutFDPStats(sn *sim.StatSnapshot) {
	if f.fdp == nil {
		return
	}
	info := f.FDPInfo()
	sn.PutInt(StatFDPHostBytes, int64(info.HostBytes))
	sn.PutInt(StatFDPMediaBytes, int64(info.MediaBytes))
	sn.PutInt(StatFDPErasedBytes, int64(info.ErasedBytes))
	sn.PutInt(StatFDPEvents, int64(len(info.HostEvents)+len(info.CtrlEvents))+f.fdp.eventsLost)
	if f.fdp.spec.Groups() > 1 {
		sn.PutInt(StatFDPGroupFallbacks, f.ftl.GroupFallbacks())
	}
	if f.fdp.spec.RUTimeLimit > 0 {
		sn.PutInt(StatFDPRUTimeouts, f.fdp.ruTimeouts)
	}
	sn.PutInt(StatFDPHeadRefusals, f.fdp.headRefusals)
	if len(f.fdp.window) > 1 {
		sn.PutInt(StatFDPLookaheadPages, f.fdp.lookaheadPages)
	}
	for h := range f.ftl.Handles() {
		s, st := StatRUH[h], f.ftl.HandleStats(h)
		sn.PutInt(s.HostPages, st.HostWrites)
		sn.PutInt(s.GCPages, st.GCWrites)
		sn.PutInt(s.ReclaimUnits, st.ReclaimUnits)
		sn.Put(s.WAF, st.WAF())
	}
}
