package hostos

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/hostos/pagecache"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// OS adapts the host to the application models (apps.OS): each calling process gets its
// own page-cache task, so Linux's per-task dirty throttling state is kept per process.
type OS struct{ h *Host }

// OS returns the application-facing view of the host.
func (h *Host) OS() *OS { return &OS{h} }

var _ apps.OS = (*OS)(nil)

// ioErr marks err as an I/O error (apps.ErrIO) if the device failed a request
// (blk.IOError), so the application counts it and goes on; other errors pass unchanged.
func ioErr(err error) error {
	var e *blk.IOError
	if errors.As(err, &e) {
		return fmt.Errorf("%w: %w", apps.ErrIO, err)
	}
	return err
}

func file(f apps.File) (*pagecache.File, error) {
	pf, ok := f.(*pagecache.File)
	if !ok {
		return nil, fmt.Errorf("hostos: %T is not a file of this host", f)
	}
	return pf, nil
}

// Create makes a file; with size > 0 its space is allocated at once and its contents are
// taken to be on the device already (not cached), as for a data set prepared before the run.
func (o *OS) Create(p *sim.Proc, name string, size int64) (apps.File, error) {
	f, err := o.h.Cache.Create(o.h.Task(p), name)
	if err != nil {
		return nil, err
	}
	if size > 0 {
		if err := o.h.Cache.Fallocate(f, size); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// Open returns the named file if it exists.
func (o *OS) Open(name string) (apps.File, bool) {
	f := o.h.Cache.Lookup(name)
	if f == nil {
		return nil, false
	}
	return f, true
}

// Unlink removes f (its extents are discarded on the device).
func (o *OS) Unlink(p *sim.Proc, f apps.File) error {
	pf, err := file(f)
	if err != nil {
		return err
	}
	return ioErr(o.h.Cache.Unlink(o.h.Task(p), pf))
}

// Read is a buffered read.
func (o *OS) Read(p *sim.Proc, f apps.File, off, n int64) error {
	pf, err := file(f)
	if err != nil {
		return err
	}
	_, err = o.h.Cache.Read(o.h.Task(p), pf, off, n)
	return ioErr(err)
}

// Write is a buffered write (it may be throttled by balance_dirty_pages).
func (o *OS) Write(p *sim.Proc, f apps.File, off, n int64) error {
	pf, err := file(f)
	if err != nil {
		return err
	}
	_, err = o.h.Cache.Write(o.h.Task(p), pf, off, n)
	return ioErr(err)
}

// Fsync writes f's dirty pages, waits for them and flushes the device.
func (o *OS) Fsync(p *sim.Proc, f apps.File) error {
	pf, err := file(f)
	if err != nil {
		return err
	}
	return ioErr(o.h.Cache.Fsync(o.h.Task(p), pf))
}

// ReadDirect is an O_DIRECT read.
func (o *OS) ReadDirect(p *sim.Proc, f apps.File, off, n int64) error {
	pf, err := file(f)
	if err != nil {
		return err
	}
	_, err = o.h.Cache.ReadDirect(o.h.Task(p), pf, off, n)
	return ioErr(err)
}

// WriteDirect is an O_DIRECT write.
func (o *OS) WriteDirect(p *sim.Proc, f apps.File, off, n int64) error {
	pf, err := file(f)
	if err != nil {
		return err
	}
	_, err = o.h.Cache.WriteDirect(o.h.Task(p), pf, off, n)
	return ioErr(err)
}

// Compute runs d of CPU time on the process's core.
func (o *OS) Compute(p *sim.Proc, d sim.Time) {
	t := o.h.Task(p)
	if n := t.Core.Clock.CyclesIn(d); n > 0 {
		t.Place()
		p.Compute(t.Core, o.h.acts[t.Core], n)
	}
}
