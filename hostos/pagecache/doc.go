// Package pagecache models the Linux page cache and writeback of the simulated host
// (docs/design.md "Host OS", docs/sources.md §5).
//
// Place in the data flow: applications, fio-like jobs and uFLIP call it through a Task
// (read, write, fsync, O_DIRECT, create, unlink); it turns them into bios for the block
// layer below (a BlockDevice, in the platform hostos/blk's queue) and is told by the NVMe
// driver the SSD's buffer level from each completion (SetBufferLevel).
//
// It holds:
//   - host memory and CPU costs: Memory, Reserved (not dirtyable), host cores with syscall,
//     page-copy and interrupt costs in cycles;
//   - the page cache: files of 4 KiB pages with dirty/writeback/locked flags in one flat
//     frame table, inode dirtied_when, one LRU of clean pages for reclaim, on-demand
//     sequential read-ahead (mm/readahead.c);
//   - a contiguous extent allocator that lays files out on the device, so sequential file
//     writes become sequential LBAs; unlink trims a file's extents;
//   - dirty throttling: domain_dirty_limits and balance_dirty_pages with Linux's integer
//     pos_ratio, max/min pause and nr_dirtied_pause rules (mm/page-writeback.c, docs/sources.md
//     §5.1–5.2), with one documented simplification of the dirty_ratelimit estimator;
//   - one flusher process per device (bdi_writeback, fs/fs-writeback.c, docs/sources.md §5.3):
//     woken by the first dirty inode (delayed), by balance_dirty_pages and by reclaim, it runs
//     kupdate passes for expired inodes every dirty_writeback_centisecs and background passes
//     while above the background threshold, writing inodes in dirtied order in 4 MiB-multiple
//     chunks; it never ticks while nothing is dirty;
//   - FastDrain's host side: each flusher work counts the dirty pages it is about to flush
//     (victimization detection); its write bios carry blk.Hint{Victim, Pages} with the count
//     still to flush; SetBufferLevel switches between the low and high dirty-ratio sets;
//   - fsync (write, wait, flush) and the O_DIRECT|O_SYNC path that bypasses the cache.
//
// Statistics: Stats (counters, throttling, victimization events, ratio switches) and Track
// for dirty/writeback/ratio time series.
package pagecache
