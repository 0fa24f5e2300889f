package runner

import (
	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/buffer"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/hostos/pagecache"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Statistics is the whole machine's catalogue: every statistic run, replay, fio, uflip and
// sweeps report about the SSD and the host, in the order they are shown. Each is declared
// (name, unit, description, text row) beside the counter it reads; `fastdrain stats list`
// prints this list and docs/outputs.md explains how to add one.
var Statistics = sim.NewCatalogue(append([]*sim.Stat{
	buffer.StatCapacity, buffer.StatPeakOccupancy, buffer.StatReadHits, buffer.StatReadMisses,
	firmware.StatForegroundEvictions, firmware.StatBackgroundEvictions, firmware.StatStalls, firmware.StatStallTime,
	firmware.StatModeSwitches, firmware.StatFlashReads, firmware.StatUnwrittenReads,
	ftl.StatProgrammedLSB, ftl.StatProgrammedCSB, ftl.StatProgrammedMSB, ftl.StatProgrammedTSB, ftl.StatUsed, ftl.StatWasted, ftl.StatLostAtClose,
	ftl.StatLeftBehind, ftl.StatBehindFilled, ftl.StatBehindSkipped, ftl.StatPadded,
	ftl.StatWAF, firmware.StatGCRuns, firmware.StatGCPagesMoved, ftl.StatErases,
	firmware.StatFinalityPads, firmware.StatFinalityFlushes, firmware.StatFinalityWait,
	firmware.StatProgramFailures, firmware.StatEraseFailures, firmware.StatFactoryBad, firmware.StatRetiredBlocks,
	firmware.StatReprograms, firmware.StatRetireMoves, firmware.StatReadRetries, firmware.StatUncorrectable,
	firmware.StatRefusedWrites, firmware.StatFailedReads, firmware.StatUnplaced, firmware.StatSparePool,
	firmware.StatSpareLeft, firmware.StatAvailableSpare, firmware.StatCriticalWarning, firmware.StatReadOnly,
	firmware.StatReadOnlyAt, pagecache.StatWriteErrors, pagecache.StatReadErrors,
	pagecache.StatVictimizations, pagecache.StatWrittenBack, pagecache.StatWrittenBackHigh,
	pagecache.StatSynced, pagecache.StatSyncedHigh, pagecache.StatThrottleTime, pagecache.StatThrottlePauses,
	pagecache.StatRatioSwitches,
	StatHintedSent, firmware.StatHintedWrites, firmware.StatHintActedOn, firmware.StatHintEpisodes,
	firmware.StatForegroundTime, StatForegroundShare, ftl.StatForegroundWrites, ftl.StatForegroundLSB,
	ftl.StatLSBAfterSkip, ftl.StatFGBounded, firmware.StatForegroundSlowDies, firmware.StatForegroundFallbacks,
	ftl.StatSkipRegion, ftl.StatSkipRegionFull, ftl.StatSkipReclaims,
	firmware.StatAboveHigh, firmware.StatBackgroundIdle, firmware.StatBackgroundBusy,
	firmware.StatReadsBehindArray, firmware.StatReadsBehindBackground, firmware.StatReadSuspends,
	StatHighSetTime, StatHighSetShare},
	append(append(append(append(append(firmware.SLCStatList(), firmware.ZNSStatList()...), blk.ZoneStatList()...),
		firmware.NamespaceStatList()...), firmware.FDPStatList()...), sim.StatEvents)...)...,
)

// Snapshot takes machine m's statistics (Statistics) once, at the end of the work: the
// firmware's, its buffer's and FTL's, the zone counters (with a zoned namespace only), the
// word-line finality counters (with firmware.power_loss.enabled only), the
// fault counters (with a fault model only), the page cache's and the engine's. wastedBefore is the FTL's Stats.Wasted when the work
// began (ftl.FTL.PutStats). Nothing is counted per event for it.
func Snapshot(m *platforms.Machine, wastedBefore int64) *sim.StatSnapshot {
	sn := Statistics.NewSnapshot()
	fw := m.SSD.FW
	fw.Buffer().PutStats(sn)
	fw.PutStats(sn)
	fw.FTL().PutStats(sn, wastedBefore)
	fw.PutNamespaceStats(sn)
	fw.PutFDPStats(sn)
	fw.PutSLCStats(sn)
	fw.PutZNSStats(sn)
	fw.PutFinalityStats(sn)
	blk.PutZoneStats(sn, m.Host.Queues)
	if m.Config.Flash.Die.Faults.Enabled() { // fault rows only with a fault model
		fw.PutFaultStats(sn)
		m.Host.Cache.PutErrorStats(sn)
	}
	m.Host.Cache.PutStats(sn)
	putEngagement(sn, m, 0, m.Eng.Now(), 0)
	sn.PutInt(sim.StatEvents, int64(m.Eng.Fired()))
	return sn
}

// MachineStats returns a Result that holds only machine m's statistics so far — the
// snapshot (Snapshot), the firmware, buffer, FTL, fault and page-cache counters, the
// buffer's mode changes and the engine's events — for the statistics outputs (StatsTable,
// StatsCSV, StatValues) of a command that drives the machine itself (replay, fio, uflip).
// wastedBefore is the FTL's Stats.Wasted when the command started.
func MachineStats(m *platforms.Machine, label string, wastedBefore int64) *Result {
	r := &Result{Label: label, Config: m.Config}
	r.takeMachine(m, wastedBefore)
	return r
}

// takeMachine fills r's machine statistics from m: the one place a result reads them.
func (r *Result) takeMachine(m *platforms.Machine, wastedBefore int64) {
	fw := m.SSD.FW
	r.Stats = Snapshot(m, wastedBefore)
	r.Events = m.Eng.Fired()
	r.Firmware, r.Faults, r.FTL, r.Buffer = fw.Stats, fw.FaultStats(), fw.FTL().Stats, fw.Buffer().Stats
	r.BufferPages, r.Cache, r.ModeChanges = fw.Buffer().Capacity(), *m.Host.Cache.Stats(), fw.ModeLog()
	r.Victims = append([]pagecache.VictimEvent(nil), r.Cache.Victims...)
	r.Cache.Victims = r.Victims
	r.Switches = r.Cache.Switches
	r.FlashUsed = r.stat(ftl.StatUsed)
	r.FlashWasted = r.stat(ftl.StatWasted)
	r.Health = healthOf(m)
}

// stat returns an integer statistic of the snapshot (0 when absent).
func (r *Result) stat(s *sim.Stat) int64 {
	v, _ := r.Stats.Value(s)
	return int64(v)
}

// StatsTable lists the run's statistics for people (report.StatsTable).
func (r *Result) StatsTable() *report.Table {
	return report.StatsTable("statistics ("+r.Label+")", r.Stats)
}

// StatsCSV is stats.csv: the run's statistics as numbers (report.StatsCSV).
func (r *Result) StatsCSV() *report.Table {
	return report.StatsCSV("statistics ("+r.Label+")", r.Stats)
}

// StatValue is one statistic of the run, named with its unit, its value a number in that
// unit (a time in µs): replay.json's ssd_stats.
type StatValue struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// StatValues returns the run's statistics as numbers, one value a name (as StatsCSV).
func (r *Result) StatValues() []StatValue {
	var out []StatValue
	for _, v := range r.Stats.Values() {
		out = append(out, StatValue{v.Stat.Name, v.Stat.Number(v.Value)})
	}
	return out
}
