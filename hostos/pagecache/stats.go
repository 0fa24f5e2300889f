package pagecache

import "github.com/fastdrain-sim/fastdrain/sim"

// Stats are the page cache's observable counters and event records.
type Stats struct {
	PagesDirtied     int64 // pages that went from clean to dirty
	PagesWrittenBack int64 // pages the flusher submitted for writeback
	PagesSynced      int64 // pages fsync and O_DIRECT coherence submitted
	// WrittenBackHigh and SyncedHigh are the pages of PagesWrittenBack and PagesSynced
	// submitted while FastDrain's high ratio set was in force: what the switch did not stop.
	WrittenBackHigh, SyncedHigh int64
	PagesRead                   int64 // pages read into the cache (read-ahead included)
	ReadHits                    int64 // pages a read found cached
	ReadMisses                  int64 // read misses that started synchronous read-ahead
	Reclaimed                   int64 // clean pages evicted to make room
	DirectReadBytes             int64 // bytes of O_DIRECT reads sent to the device
	DirectWriteBytes            int64 // bytes of O_DIRECT writes sent to the device
	Migrations                  int64 // tasks moved to an idle core to run (CPUSpec.WakeIdle)
	// ReadErrors counts pages a read from the device failed to fill (dropped, not cached);
	// WriteErrors, dirty pages whose write to the device failed (their file's fsync
	// reports the error once, as Linux's errseq does; the pages count as written).
	ReadErrors, WriteErrors int64

	// Fsync phases, ps per fsync: FsyncData is writing the file's dirty pages and waiting
	// for all of its writeback (its own bios and any the flusher had started), FsyncFlush
	// the cache flush after it. FsyncInherited counts fsyncs that found pages of the file
	// already under the flusher's writeback and had to wait for them.
	FsyncData, FsyncFlush sim.Histogram
	FsyncInherited        int64

	ThrottleTime   sim.Time      // total time writers slept in balance_dirty_pages
	ThrottlePauses int64         // number of such sleeps
	Pause          sim.Histogram // their lengths, ps

	Victims  []VictimEvent // page victimizations, in start order
	Switches []RatioSwitch // FastDrain ratio-set switches, in time order
}

// VictimEvent is one page victimization: a flusher work (background, periodic or
// reclaim-driven) and the dirty pages it counted when it started, which its bios carry as
// the FastDrain hint, decremented as pages are submitted.
type VictimEvent struct {
	Start  sim.Time // the work started and counted its pages
	End    sim.Time // the work stopped submitting
	Done   sim.Time // the last of its bios completed (0 while none has)
	Pages  int64    // dirty pages counted at the start
	Reason string   // "background", "periodic" or "vmscan"
}

// Duration returns how long the victimization lasted: from its start until its last bio
// completed (or until it stopped submitting, if that is later).
func (v VictimEvent) Duration() sim.Time { return max(v.End, v.Done) - v.Start }

// RatioSwitch records a FastDrain switch of the dirty ratio set.
type RatioSwitch struct {
	At              sim.Time
	High            bool // the high set (buffer above high watermark) is now in effect
	Ratio           int
	BackgroundRatio int
}

// Stats returns the cache's statistics; the caller must not modify them.
func (c *Cache) Stats() *Stats { return &c.stats }

// Track adds the page cache's time series to a sampler: dirty pages, pages under writeback,
// the dirty ratio and background ratio in effect (%), and writers' cumulative throttled
// time (ps). Series names are "<cache name>.<quantity>".
func (c *Cache) Track(s *sim.Sampler) {
	s.Track(c.name+".dirty_pages", func() int64 { return c.nrDirty })
	s.Track(c.name+".writeback_pages", func() int64 { return c.nrWriteback })
	s.Track(c.name+".dirty_ratio", func() int64 { return int64(c.ratio) })
	s.Track(c.name+".dirty_background_ratio", func() int64 { return int64(c.bgRatio) })
	s.Track(c.name+".throttle_time", func() int64 { return int64(c.stats.ThrottleTime) })
}
