// Package apps holds the application models of the FastDrain paper's evaluation (Zhang et
// al., IEEE CAL 2020, Section 4): six latency-critical applications — Apache-F, Apache-U,
// DB-S, DB-U, ImgServer-F, ImgServer-U — and Ungzip, the write-intensive,
// throughput-oriented application co-located with each of them.
//
// Place in the data flow: the top of the host side. Each application is a set of
// simulated processes that call the host through the small OS interface (buffered read and
// write, fsync, O_DIRECT, create/unlink, CPU time); an adapter maps it onto the page cache,
// whose writeback and the block layer below carry the I/O to the SSD. Applications
// never see the device.
//
// Models (docs/workloads.md gives every parameter with its source or rationale):
//   - ServerSpec: a static-file HTTP server (Apache, the image server). Fetch reads a
//     file of a pre-existing data set chosen by Zipf directory popularity and a size-class
//     mix; upload writes a new file and fsyncs it before responding.
//   - DBSpec: an InnoDB-like database with an O_DIRECT table file. Select reads random
//     16 KiB pages; update reads a page, commits with a redo-log append and fsync, and
//     writes the page back.
//   - UngzipSpec: gzip -d producing output at a CPU-bound rate in 32 KiB writes into the
//     page cache, never fsyncing.
//
// Latency-critical applications are driven by closed-loop clients with think time. Each
// request's response time — from issue to completion, everything the host does included —
// goes into a sim.Histogram and a bounded Series (sampled points plus per-interval
// aggregates) for response-time-over-time plots.
//
// A Scenario names the applications run together, the duration (30 simulated seconds by
// default, as in the paper) and the seed; Scenarios lists each latency-critical
// application with Ungzip, each alone, and Ungzip alone. Start or Execute runs one on an
// engine.
package apps
