//go:build !linux

package uflip

import (
	"fmt"
	"runtime"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// FileDevice is a Device backed by a real file with O_DIRECT; it is only available on
// Linux.
type FileDevice struct{}

// OpenFileDevice reports that O_DIRECT targets are supported only on Linux.
func OpenFileDevice(path string, opt FileOptions) (*FileDevice, error) {
	return nil, fmt.Errorf("%s: %w on %s (only linux)", path, ErrDirectUnsupported, runtime.GOOS)
}

// Capacity returns 0.
func (d *FileDevice) Capacity() int64 { return 0 }

// Close does nothing.
func (d *FileDevice) Close() error { return nil }

// Do always fails.
func (d *FileDevice) Do(*sim.Proc, Op, int64, int64) (sim.Time, error) {
	return 0, fmt.Errorf("%w on %s", ErrDirectUnsupported, runtime.GOOS)
}

// Idle does nothing.
func (d *FileDevice) Idle(sim.Time) {}
