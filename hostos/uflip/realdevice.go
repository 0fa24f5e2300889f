package uflip

import "errors"

// ErrDirectUnsupported is wrapped by OpenFileDevice when the file system (or the operating
// system) does not support O_DIRECT, e.g. tmpfs, which rejects it with EINVAL.
var ErrDirectUnsupported = errors.New("O_DIRECT not supported by this file system")

// FileOptions configures OpenFileDevice.
type FileOptions struct {
	Size     int64 // bytes to use from offset 0; 0 uses the whole file or device
	ReadOnly bool  // open read-only; writes then fail
	Create   bool  // create a regular file (and extend it to Size) if needed
}
