package uflip

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// SectorSize is the size in bytes of one LBA unit, the sector of docs/sources.md §12's formulas.
const SectorSize = 512

// Op is the kind of one IO handed to a Device.
type Op uint8

// The IO operations. uFLIP issues only reads and writes; OpFlush is for fio-like jobs'
// fsync and OpTrim for their trims (a discard of the range), sharing this type so one
// Device serves every workload.
const (
	OpRead Op = iota
	OpWrite
	OpFlush
	OpTrim
)

// String returns "read", "write" or "flush".
func (o Op) String() string {
	switch o {
	case OpRead:
		return "read"
	case OpWrite:
		return "write"
	case OpFlush:
		return "flush"
	case OpTrim:
		return "trim"
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// Device is the I/O issuer a workload drives: the host's direct I/O path, a test fake, or a
// FileDevice. Do performs one IO of size bytes at byte offset for process p and returns once
// it has completed, with its latency; a simulated device blocks p in simulated time for that
// long. For OpFlush, offset and size are zero.
type Device interface {
	Do(p *sim.Proc, op Op, offset, size int64) (latency sim.Time, err error)
}

// ErrIO marks an error the storage device returned for an IO (a Device wraps such errors
// with it): a workload may record it and go on, where any other error from Do is bad input
// or a bug.
var ErrIO = errors.New("I/O error")

// Idler is implemented by devices whose idle time is real (the FileDevice): the executor
// calls Idle for every pause, in addition to sleeping in simulated time.
type Idler interface {
	Idle(d sim.Time)
}

// Base is one of uFLIP's four baseline patterns.
type Base uint8

// The baseline patterns: sequential read, random read, sequential write, random write.
const (
	SR Base = iota
	RR
	SW
	RW
)

var baseNames = [...]string{"SR", "RR", "SW", "RW"}

// String returns "SR", "RR", "SW" or "RW".
func (b Base) String() string {
	if int(b) < len(baseNames) {
		return baseNames[b]
	}
	return fmt.Sprintf("base(%d)", uint8(b))
}

// Op returns the operation of the base: OpRead for SR and RR, OpWrite for SW and RW.
func (b Base) Op() Op {
	if b == SW || b == RW {
		return OpWrite
	}
	return OpRead
}

// Random reports whether the base picks random LBAs (RR, RW).
func (b Base) Random() bool { return b == RR || b == RW }

// valid reports whether b is one of the four bases.
func (b Base) valid() bool { return int(b) < len(baseNames) }

// ParseBase parses "SR", "RR", "SW" or "RW" (case-insensitive).
func ParseBase(s string) (Base, error) {
	for i, n := range baseNames {
		if len(s) == 2 && (s == n || (s[0]|0x20) == (n[0]|0x20) && (s[1]|0x20) == (n[1]|0x20)) {
			return Base(i), nil
		}
	}
	return 0, fmt.Errorf("base %q is not one of SR, RR, SW, RW", s)
}

// MarshalText implements encoding.TextMarshaler.
func (b Base) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (b *Base) UnmarshalText(t []byte) error {
	v, err := ParseBase(string(t))
	if err != nil {
		return err
	}
	*b = v
	return nil
}
