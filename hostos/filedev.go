package hostos

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/pagecache"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// FileDevice is one file of the host's page cache seen as a uflip.Device, the target of
// fio-like jobs on a file: buffered (direct=0: read(2), write(2) through the page cache, with
// read-ahead, dirty throttling and writeback) or direct (direct=1: O_DIRECT|O_SYNC, straight
// to the block layer at the file's device extents). OpFlush is fsync(2) in both modes.
//
// The file is created with its whole size allocated up front (fallocate), so its contents
// are taken to be on the device already and reads of it reach the SSD; IOs must stay inside
// that size. Each calling process gets its own page-cache task (Host.Task), so dirty
// throttling is per process as in Linux.
type FileDevice struct {
	h      *Host
	f      *pagecache.File
	size   int64
	direct bool
	block  int64 // direct-I/O alignment: the device's logical block size
	advice pagecache.Fadvise
}

// SetFadvise sets the read-ahead advice the device's buffered reads are made with
// (posix_fadvise(2) on the open file; fio's fadvise_hint).
func (d *FileDevice) SetFadvise(a pagecache.Fadvise) { d.advice = a }

var _ uflip.Device = (*FileDevice)(nil)

// NewFileDevice creates the file name of size bytes on h for process p (charging the
// create syscall to p's core) and returns it as a device, buffered or direct. size must be
// positive; in direct mode it must be a multiple of the device's logical block size.
func NewFileDevice(p *sim.Proc, h *Host, name string, size int64, direct bool) (*FileDevice, error) {
	block := max(int64(h.Driver.LogicalBlockSize()), SectorSize)
	if size <= 0 || (direct && size%block != 0) {
		return nil, fmt.Errorf("hostos: file device %q: size %d is not a positive multiple of %d", name, size, block)
	}
	f, err := h.Cache.Create(h.Task(p), name)
	if err != nil {
		return nil, err
	}
	if err := h.Cache.Fallocate(f, size); err != nil {
		return nil, fmt.Errorf("hostos: file device %q of %d B: %w", name, size, err)
	}
	return &FileDevice{h: h, f: f, size: size, direct: direct, block: block}, nil
}

// File returns the page-cache file.
func (d *FileDevice) File() *pagecache.File { return d.f }

// Capacity returns the file size the device was created with, in bytes.
func (d *FileDevice) Capacity() int64 { return d.size }

// Direct reports whether IOs bypass the page cache.
func (d *FileDevice) Direct() bool { return d.direct }

// Do performs one IO on the file for process p and returns its latency, the time p spent in
// the call. Reads and writes must lie inside the file; in direct mode offset and size must
// be multiples of the device's logical block size (the file's device extents are page
// aligned, so the bios are too). OpFlush (offset and size zero) is fsync(2).
func (d *FileDevice) Do(p *sim.Proc, op uflip.Op, offset, size int64) (sim.Time, error) {
	if op == uflip.OpFlush {
		if offset != 0 || size != 0 {
			return 0, fmt.Errorf("hostos: file device %s: flush with offset %d and size %d, want 0 and 0", d.f.Name(), offset, size)
		}
	} else {
		if op != uflip.OpRead && op != uflip.OpWrite {
			return 0, fmt.Errorf("hostos: file device %s: unknown op %v", d.f.Name(), op)
		}
		if offset < 0 || size <= 0 || size > d.size || offset > d.size-size {
			return 0, fmt.Errorf("hostos: file device %s: %v of %d B at offset %d is not inside the file's %d B",
				d.f.Name(), op, size, offset, d.size)
		}
		if d.direct && (offset%d.block != 0 || size%d.block != 0) {
			return 0, fmt.Errorf("hostos: file device %s: direct %v of %d B at offset %d: offset and size must be multiples of the %d-byte block",
				d.f.Name(), op, size, offset, d.block)
		}
	}
	t := d.h.Task(p)
	t.SetFadvise(d.advice)
	start := p.Now()
	var err error
	switch {
	case op == uflip.OpFlush:
		err = d.h.Cache.Fsync(t, d.f)
	case op == uflip.OpRead && d.direct:
		_, err = d.h.Cache.ReadDirect(t, d.f, offset, size)
	case op == uflip.OpRead:
		_, err = d.h.Cache.Read(t, d.f, offset, size)
	case d.direct:
		_, err = d.h.Cache.WriteDirect(t, d.f, offset, size)
	default:
		_, err = d.h.Cache.Write(t, d.f, offset, size)
	}
	return p.Now() - start, devErr(err)
}

// OpenFileDevice returns an existing page-cache file as a device, buffered or direct, of
// the file's current size (open(2) of a file another process created).
func OpenFileDevice(h *Host, f *pagecache.File, direct bool) *FileDevice {
	block := max(int64(h.Driver.LogicalBlockSize()), SectorSize)
	return &FileDevice{h: h, f: f, size: f.Size(), direct: direct, block: block}
}
