package pagecache

import "github.com/fastdrain-sim/fastdrain/sim"

// The page cache's statistics (sim.Stat): declared here, listed in a machine's catalogue
// (runner.Statistics), read at the end of a run by PutStats.
var (
	StatVictimizations = &sim.Stat{Name: "page_victimizations", Unit: sim.UnitCount,
		Desc: "writeback passes that flushed dirty pages (the FastDrain hint's victimizations)", Row: "page victimizations"}
	StatWrittenBack = &sim.Stat{Name: "pages_written_back", Unit: sim.UnitPages,
		Desc: "dirty pages the writeback flusher submitted", Row: "pages written back / in the high ratio set"}
	StatWrittenBackHigh = &sim.Stat{Name: "pages_written_back_high_set", Unit: sim.UnitPages,
		Desc: "of pages_written_back, those submitted while FastDrain's high dirty-ratio set was in force", Row: "pages written back / in the high ratio set"}
	StatSynced = &sim.Stat{Name: "pages_synced", Unit: sim.UnitPages,
		Desc: "dirty pages fsync (and O_DIRECT coherence) submitted", Row: "pages synced / in the high ratio set"}
	StatSyncedHigh = &sim.Stat{Name: "pages_synced_high_set", Unit: sim.UnitPages,
		Desc: "of pages_synced, those submitted while FastDrain's high dirty-ratio set was in force", Row: "pages synced / in the high ratio set"}
	StatThrottleTime = &sim.Stat{Name: "writer_throttle_time_us", Unit: sim.UnitTime,
		Desc: "total time writers slept in balance_dirty_pages", Row: "writer throttle time / pauses"}
	StatThrottlePauses = &sim.Stat{Name: "writer_throttle_pauses", Unit: sim.UnitCount,
		Desc: "sleeps of writers in balance_dirty_pages", Row: "writer throttle time / pauses"}
	StatRatioSwitches = &sim.Stat{Name: "dirty_ratio_switches", Unit: sim.UnitCount,
		Desc: "FastDrain switches between the low and high dirty-ratio sets", Row: "dirty-ratio switches"}
	// The device's errors as the cache saw them (with a fault model only: PutErrorStats).
	StatWriteErrors = &sim.Stat{Name: "page_write_errors", Unit: sim.UnitPages,
		Desc: "dirty pages whose write to the device failed (their file's fsync reported it)", Row: "page cache write / read errors (pages)"}
	StatReadErrors = &sim.Stat{Name: "page_read_errors", Unit: sim.UnitPages,
		Desc: "pages a read from the device failed to fill (dropped, not cached)", Row: "page cache write / read errors (pages)"}
)

// PutStats puts the page cache's statistics into sn.
func (c *Cache) PutStats(sn *sim.StatSnapshot) {
	s := &c.stats
	sn.PutInt(StatVictimizations, int64(len(s.Victims)))
	sn.PutInt(StatWrittenBack, s.PagesWrittenBack)
	sn.PutInt(StatWrittenBackHigh, s.WrittenBackHigh)
	sn.PutInt(StatSynced, s.PagesSynced)
	sn.PutInt(StatSyncedHigh, s.SyncedHigh)
	sn.PutInt(StatThrottleTime, int64(s.ThrottleTime))
	sn.PutInt(StatThrottlePauses, s.ThrottlePauses)
	sn.PutInt(StatRatioSwitches, int64(len(s.Switches)))
}

// PutErrorStats puts the device errors the cache saw into sn; a machine with a fault model
// calls it (without one a device never fails, and outputs leave them out).
func (c *Cache) PutErrorStats(sn *sim.StatSnapshot) {
	sn.PutInt(StatWriteErrors, c.stats.WriteErrors)
	sn.PutInt(StatReadErrors, c.stats.ReadErrors)
}
