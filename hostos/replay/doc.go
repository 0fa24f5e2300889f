// Package replay replays block I/O traces (package trace) on a simulated host.
//
// Place in the data flow: replay sits at the top of the host side, beside the application
// models, uFLIP and fio-like jobs. It pulls requests from a Source (a trace.Reader streaming a
// file, or a slice) and submits each one as a direct bio to the host's block layer
// (hostos.Host.Queue) on the raw block device, as btreplay or fio's replay_* options do with
// O_DIRECT: reads and writes carry REQ_SYNC, writes REQ_FUA only when the trace recorded it
// (blkparse's F), trims become discards and flushes cache flushes; a preflush mark (a
// leading F) is not replayed as a separate flush. The block layer, the NVMe
// driver, PCIe and the SSD do the rest; each bio's completion event comes back here.
//
// Two modes (Options.Mode):
//
//   - Timed issues every request at its trace time, measured from the start of the replay
//     (the trace reader has already made times relative to the first request and applied
//     its TimeScale). Issuing is event-driven: one timer event for the next request, one
//     completion handler per bio, no process per request. At most Options.MaxOutstanding
//     requests are in flight; a request whose time comes while that many are outstanding
//     waits, with every later request behind it (requests are never dropped or reordered),
//     and is issued as soon as one completes. It is then counted as late and its delay
//     recorded (Result.Late, Result.Lateness). Later requests keep their own trace times:
//     the schedule is not shifted. (A Slice whose times go backwards gets the same treatment:
//     a request whose time has passed is issued at once and counted as late.)
//   - AsFastAsPossible ignores trace times and keeps Options.QueueDepth requests
//     outstanding: each completion issues the next request.
//
// Results (Result): per-operation latency histograms (submission to completion, in ps,
// including any wait in the block layer for a free request), counts and bytes, late
// requests, first and last issue time, and optionally one CSV line per request
// (Options.Records).
//
// Addresses: requests must lie inside the device and be aligned to its logical block size.
// The trace reader wraps or rejects addresses past its Options.Capacity and rounds ranges out
// to its SectorSize; FitOptions sets both from the device. A request the device cannot take
// stops the replay with an error naming it. Request.Device is ignored: every device of the
// trace lands in the one namespace (use trace.Merged with offsets to keep them apart).
//
// There is no host CPU cost: submission happens in event handlers, as if by an
// asynchronous submitter (libaio) whose syscall time is not modelled.
package replay
