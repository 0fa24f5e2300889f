package blk

import "fmt"

// Status is the block layer's class of a failed request, Linux's blk_status_t: the driver
// maps its device's status to one (nvme_error_status in drivers/nvme/host/core.c), and the
// kernel reports the request with the class's name (blk_errors[] in block/blk-core.c,
// printed by blk_print_req_error: "critical medium error, dev nvme0n1, sector 2048 op
// 0x0:(READ)").
type Status uint8

// Classes of failed requests (the blk_status_t values the model's driver produces).
const (
	StatusIOErr   Status = iota // BLK_STS_IOERR: any other error (errno EIO)
	StatusMedium                // BLK_STS_MEDIUM: the medium could not be read or written (ENODATA)
	StatusTarget                // BLK_STS_TARGET: the request addressed nothing valid, e.g. past the end (EREMOTEIO)
	StatusNotSupp               // BLK_STS_NOTSUPP: the device does not support the operation (EOPNOTSUPP)
	StatusNoSpace               // BLK_STS_NOSPC: the device ran out of space (ENOSPC)
)

var statusNames = [...]string{"I/O", "critical medium", "critical target", "operation not supported", "critical space allocation"}

// statusErrnos are the errno values (Linux, x86) each class returns to the application:
// EIO, ENODATA, EREMOTEIO, EOPNOTSUPP, ENOSPC (blk_errors[] in block/blk-core.c).
var statusErrnos = [...]int{5, 61, 121, 95, 28}

// Errno returns the errno a system call that hit this class of error returns (its
// absolute value), EIO for an unknown class.
func (s Status) Errno() int {
	if int(s) < len(statusErrnos) {
		return statusErrnos[s]
	}
	return 5
}

// String returns the class's name as blk_errors[] gives it, e.g. "critical medium".
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("blk.Status(%d)", uint8(s))
}

// StatusReporter is implemented by a driver's errors that know their block-layer class.
type StatusReporter interface {
	BlockStatus() Status
}

// IOError is a request the device failed, as the block layer hands it to every bio the
// request carried: the class, the request's operation and place, and the driver's error.
type IOError struct {
	Status Status
	Op     Op
	Offset int64 // bytes from the start of the device
	Size   int64 // bytes (0 for a flush)
	Err    error // the driver's error
}

// Error describes the failure in Linux's words: "critical medium error on read of 4096
// bytes at sector 2048: …" followed by the driver's account.
func (e *IOError) Error() string {
	if e.Op == OpFlush {
		return fmt.Sprintf("%s error on a cache flush: %v", e.Status, e.Err)
	}
	return fmt.Sprintf("%s error on %s of %d bytes at sector %d: %v", e.Status, e.Op, e.Size, e.Offset/512, e.Err)
}

// Unwrap returns the driver's error.
func (e *IOError) Unwrap() error { return e.Err }

// Errno returns the errno of the error's class (Status.Errno).
func (e *IOError) Errno() int { return e.Status.Errno() }

// newIOError wraps err, the driver's error for rq.
func newIOError(rq *Request, err error) *IOError {
	st := StatusIOErr
	if r, ok := err.(StatusReporter); ok {
		st = r.BlockStatus()
	}
	return &IOError{Status: st, Op: rq.Op, Offset: rq.Offset, Size: rq.Size, Err: err}
}
