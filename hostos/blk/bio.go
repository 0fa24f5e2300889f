package blk

import "github.com/fastdrain-sim/fastdrain/sim"

// Op is the operation a bio or request carries (Linux REQ_OP_*).
type Op uint8

// The block operations the simulated host issues.
const (
	OpRead      Op = iota // REQ_OP_READ
	OpWrite               // REQ_OP_WRITE
	OpFlush               // REQ_OP_FLUSH (volatile write cache flush; Size 0)
	OpDiscard             // REQ_OP_DISCARD (NVMe Dataset Management / deallocate)
	OpZoneReset           // REQ_OP_ZONE_RESET (NVMe Zone Management Send, Reset Zone; zoned.go)
	// OpZoneAppend is an NVMe Zone Append sent by passthrough (io_uring_cmd on the
	// namespace's generic character device /dev/ngXnY: a REQ_OP_DRV_OUT request carrying
	// the command; passthrough.go).
	OpZoneAppend
	NumOps // number of operations, for per-operation arrays
)

// String returns the lower-case name of the operation.
func (o Op) String() string {
	switch o {
	case OpRead:
		return "read"
	case OpWrite:
		return "write"
	case OpFlush:
		return "flush"
	case OpDiscard:
		return "discard"
	case OpZoneReset:
		return "zone_reset"
	case OpZoneAppend:
		return "zone_append"
	}
	return "op?"
}

// Hint is FastDrain's page-victimization hint carried by writeback-originated writes.
type Hint struct {
	Victim bool // the write flushes pages chosen as victims by the page cache
	Pages  int  // dirty pages the current victimization pass still has to flush
}

// Bio is one block I/O as the page cache, the file system or O_DIRECT hands it to the block
// layer (struct bio). The owner fills Op, Offset, Size, Sync, FUA, Hint, Done and Private;
// the block layer sets Issued and Err.
type Bio struct {
	Op     Op
	Offset int64 // bytes from the start of the device, 512-aligned
	Size   int64 // bytes, multiple of 512 (0 for flush)
	Sync   bool  // REQ_SYNC: a process waits for it (reads, O_DIRECT, fsync writes)
	Idle   bool  // REQ_IDLE: with Sync, an O_DIRECT write, which wbt does not throttle
	FUA    bool  // REQ_FUA: forced unit access
	// Background is REQ_BACKGROUND: a write of background or periodic (kupdate) writeback,
	// which wbt limits to its background depth.
	Background bool
	Hint       Hint // FastDrain victimization hint
	// WriteStream is the write's stream (bi_write_stream, Linux 6.16: io_uring's per-I/O
	// sqe->write_stream on a direct write), 1 … the device's write streams, 0 none. The
	// NVMe driver turns stream s into the namespace's s-th FDP placement identifier.
	WriteStream uint8
	// WriteHint is the write's data-lifetime hint (bi_write_hint, writehint.go): the
	// file's inode hint on page-cache writeback and O_DIRECT writes. Requests of different
	// hints never merge; the NVMe driver does not send it.
	WriteHint WriteHint
	Issued    sim.Time    // set by Submit
	Done      sim.Handler // receives an engine event when the bio completes; ev.Data is the *Bio
	Wake      *sim.Signal // if set, notified at completion instead of a Done event (a waiting process)
	// Admitted, if set, is notified when writeback throttling lets the bio go after it had
	// to wait (Held was true): a submitter that would sleep in wbt_wait waits on it.
	Admitted *sim.Signal
	Err      error // completion status, set before Done fires
	// Result is the command's result for a passthrough request (nvme_req(req)->result,
	// returned to io_uring_cmd in the CQE's extra field): a Zone Append's ALBA, the
	// logical block its data went to. Set before Done fires.
	Result  uint64
	Private any // owner's cookie

	parts    int32 // parts of the bio not yet completed (more than one when it was split)
	finished bool
	held     bool // a part waits in writeback throttling's queue
}

// Held reports whether a part of the bio waits for writeback throttling (the submitter
// would be asleep in wbt_wait).
func (b *Bio) Held() bool { return b.held }

// Finished reports whether the bio has completed since it was last submitted.
func (b *Bio) Finished() bool { return b.finished }

// End returns the byte offset just past the bio.
func (b *Bio) End() int64 { return b.Offset + b.Size }
