//go:build linux

package uflip

// This file is the real-device path: it measures a real file or block device and runs
// OUTSIDE the simulation model. It is the one place in the package that reads the wall
// clock (time.Now) and sleeps in real time; simulated devices never come through here.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
	"unsafe"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// directAlign is the buffer alignment used for O_DIRECT: a page, which satisfies every
// logical block size up to 4 KiB.
const directAlign = 4096

// FileDevice is a Device backed by a real file or block device opened with O_DIRECT. Each
// Do is one pread/pwrite (fdatasync for OpFlush) on an aligned buffer; its latency is the
// wall-clock time it took, and the calling process then sleeps that long in simulated time
// so the simulated timeline mirrors the real one. IOs are issued one at a time, whatever
// the number of streams. It implements Idler: pauses are also slept in real time.
type FileDevice struct {
	path     string
	f        *os.File
	capacity int64
	readOnly bool
	raw      []byte // backing store of buf
	buf      []byte // directAlign-aligned IO buffer
}

// OpenFileDevice opens path with O_DIRECT for use as a Device of opt.Size bytes (the whole
// file or device when 0). A file system without O_DIRECT support gives an error wrapping
// ErrDirectUnsupported: "PATH: O_DIRECT not supported by this file system".
func OpenFileDevice(path string, opt FileOptions) (*FileDevice, error) {
	if opt.Size < 0 || opt.Size%SectorSize != 0 {
		return nil, fmt.Errorf("%s: size %d is not a non-negative multiple of %d", path, opt.Size, SectorSize)
	}
	flags := os.O_RDWR | syscall.O_DIRECT
	if opt.ReadOnly {
		flags = os.O_RDONLY | syscall.O_DIRECT
	}
	if opt.Create {
		flags |= os.O_CREATE
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		if errors.Is(err, syscall.EINVAL) {
			return nil, fmt.Errorf("%s: %w (%v)", path, ErrDirectUnsupported, err)
		}
		return nil, err
	}
	d := &FileDevice{path: path, f: f, readOnly: opt.ReadOnly}
	if err := d.size(opt); err != nil {
		_ = f.Close()
		return nil, err
	}
	return d, nil
}

// size sets the capacity: the file's (or block device's) size, extended or bounded by opt.
func (d *FileDevice) size(opt FileOptions) error {
	end, err := d.f.Seek(0, io.SeekEnd)
	if err != nil {
		return fmt.Errorf("%s: size: %w", d.path, err)
	}
	if opt.Size > end {
		if !opt.Create {
			return fmt.Errorf("%s: size %d exceeds its %d bytes", d.path, opt.Size, end)
		}
		if err := d.f.Truncate(opt.Size); err != nil {
			return fmt.Errorf("%s: extend to %d: %w", d.path, opt.Size, err)
		}
		end = opt.Size
	}
	if opt.Size > 0 {
		end = opt.Size
	}
	d.capacity = end / SectorSize * SectorSize
	return nil
}

// Capacity returns the usable size in bytes.
func (d *FileDevice) Capacity() int64 { return d.capacity }

// Close closes the file.
func (d *FileDevice) Close() error { return d.f.Close() }

// buffer returns an aligned buffer of n bytes, growing the backing store when needed.
func (d *FileDevice) buffer(n int64) []byte {
	if int64(len(d.buf)) < n {
		d.raw = make([]byte, n+directAlign)
		skip := 0
		if r := int(uintptr(unsafe.Pointer(&d.raw[0])) % directAlign); r != 0 {
			skip = directAlign - r
		}
		d.buf = d.raw[skip : skip+int(n)]
		for i := range d.buf {
			d.buf[i] = byte(i*7 + 0x5a) // non-zero data, so writes are not all-zero
		}
	}
	return d.buf[:n]
}

// Do performs one IO and returns its wall-clock latency; p (if non-nil) then sleeps that
// long in simulated time.
func (d *FileDevice) Do(p *sim.Proc, op Op, offset, size int64) (sim.Time, error) {
	if op != OpFlush {
		switch {
		case size <= 0 || size%SectorSize != 0 || offset < 0 || offset%SectorSize != 0:
			return 0, fmt.Errorf("%s: %s of %d B at %d is not sector aligned", d.path, op, size, offset)
		case offset+size > d.capacity:
			return 0, fmt.Errorf("%s: %s of %d B at %d ends past the capacity %d", d.path, op, size, offset, d.capacity)
		case op == OpWrite && d.readOnly:
			return 0, fmt.Errorf("%s: write to a read-only device", d.path)
		}
	}
	var buf []byte
	if op != OpFlush {
		buf = d.buffer(size)
	}
	var n int
	var err error
	start := time.Now()
	switch op {
	case OpRead:
		n, err = d.f.ReadAt(buf, offset)
	case OpWrite:
		n, err = d.f.WriteAt(buf, offset)
	case OpFlush:
		err = syscall.Fdatasync(int(d.f.Fd()))
	default:
		return 0, fmt.Errorf("%s: unknown op %d", d.path, op)
	}
	lat := sim.Time(time.Since(start).Nanoseconds()) * sim.Nanosecond
	if err == nil && op != OpFlush && int64(n) != size {
		err = fmt.Errorf("short %s: %d of %d bytes", op, n, size)
	}
	if err != nil {
		if errors.Is(err, syscall.EINVAL) {
			return 0, fmt.Errorf("%s: direct %s of %d B at %d rejected (%v): offset and size must be "+
				"multiples of the device's logical block size", d.path, op, size, offset, err)
		}
		return 0, fmt.Errorf("%s: %s of %d B at %d: %w", d.path, op, size, offset, err)
	}
	if p != nil {
		p.Sleep(lat)
	}
	return lat, nil
}

// Idle sleeps d of real time.
func (d *FileDevice) Idle(t sim.Time) { time.Sleep(time.Duration(t / sim.Nanosecond)) }
