package trace

import (
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Op is the kind of a traced request.
type Op uint8

// Request kinds. Trim is a discard/deallocate; Flush writes back volatile caches and carries
// no data (its Offset and Size are zero).
const (
	Read Op = iota
	Write
	Trim
	Flush
)

// String returns the op's lower-case name.
func (o Op) String() string {
	switch o {
	case Read:
		return "read"
	case Write:
		return "write"
	case Trim:
		return "trim"
	case Flush:
		return "flush"
	}
	return "op(" + itoa(int64(o)) + ")"
}

// Flags are request attributes that some formats record (only blkparse's RWBS field does).
type Flags uint8

// Request attributes from blkparse's RWBS letters (blktrace(8), blkparse(1)).
const (
	// FlagPreFlush is a leading 'F': flush the volatile cache before this request.
	FlagPreFlush Flags = 1 << iota
	// FlagFUA is an 'F' after the op letter: force unit access (write through).
	FlagFUA
	// FlagSync is 'S': a synchronous request somebody waits for.
	FlagSync
	// FlagMeta is 'M': file-system metadata.
	FlagMeta
	// FlagAhead is 'A': read-ahead.
	FlagAhead
	// FlagBarrier is 'B': an old-kernel barrier (ordered, flushed) request.
	FlagBarrier
)

// String lists the set flags, e.g. "fua|sync", or "" when none is set.
func (f Flags) String() string {
	names := [...]string{"preflush", "fua", "sync", "meta", "ahead", "barrier"}
	var b strings.Builder
	for i, n := range names {
		if f&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte('|')
			}
			b.WriteString(n)
		}
	}
	return b.String()
}

// Request is one traced I/O, normalised: time in picoseconds since the first request of the
// trace (after time scaling), byte offset and size (after alignment, device mapping and
// capacity handling). It is plain data, cheap to copy.
type Request struct {
	// Time is when the request is issued, relative to the trace's first request.
	Time sim.Time
	// Device is the trace's device (0, 1, … as numbered by the trace; for blkparse the
	// index of the major,minor pair in order of first appearance), or 0 when
	// Options.Devices is Merged.
	Device int
	// Offset is the first byte addressed.
	Offset int64
	// Size is the number of bytes; zero only for Flush.
	Size int64
	// Op is the request kind.
	Op Op
	// Flags holds attributes recorded by the trace (blkparse only).
	Flags Flags
	// Line is the 1-based line of the trace this request came from.
	Line int
}

// End returns the byte just past the request's range.
func (r Request) End() int64 { return r.Offset + r.Size }
