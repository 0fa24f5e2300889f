// Package blk models the Linux block layer of the simulated host: blk-mq with the none,
// mq-deadline and kyber schedulers (docs/design.md "Host OS: Block layer", docs/sources.md §1.4, §6).
//
// Place in the data flow: the page cache, its writeback flusher and the O_DIRECT path
// submit bios (Queue.Submit); the queue splits bios larger than MaxRequestBytes, merges
// contiguous bios of one operation into queued requests (back and front merges, then
// request-with-request), allocates requests (nr_requests, with the async share that kyber
// and mq-deadline reserve for sync I/O) and driver tags (QueueDepth = q_depth − 1), orders
// requests with its scheduler and offers them to the NVMe driver (Driver.QueueRequest).
// The driver calls Queue.Complete when the device finishes; each bio's Done handler then
// gets an engine event.
//
// Writeback throttling (blk-wbt, wbt.go) sits between merging and request allocation, as
// rq_qos_throttle does: buffered writes and discards that do not merge wait in FIFO order
// while their class has its depth in flight; the depth scales with the latency of reads
// over 100 ms windows (Spec.WBTLat, 0 = off). A submitter that Linux would put to sleep in
// wbt_wait can wait for Bio.Admitted (the flusher does).
//
// Dispatch is event-driven: whenever something becomes dispatchable (a new request, a
// completion, a driver restart, a kyber depth increase) the queue schedules one dispatch
// event at the current time. Bios submitted in the same instant therefore merge before
// dispatch, much as a plug would let them. Kyber's latency timer is armed only by
// completions and never ticks on an idle queue.
//
// Statistics (Stats): per-request queue, device and total latency histograms, per-bio
// latency, merge counts, kyber dispatches and throttle events per domain with every depth
// change, mq-deadline batch, expiry and starvation decisions, writeback throttling's waits
// and scale steps, and sync (fsync) writes' wait, queue and device times. Queue.KyberDepth
// can be tracked with a sim.Sampler.
package blk
