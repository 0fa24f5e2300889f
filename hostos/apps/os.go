package apps

import "github.com/fastdrain-sim/fastdrain/sim"

// OS is what an application model needs from the simulated host. Every call blocks the
// calling process p in simulated time only, for as long as the host takes (page-cache hit,
// read-ahead, balance_dirty_pages throttling, device waits). An adapter over the real page
// cache implements it; tests implement it with fixed latencies.
type OS interface {
	// Create makes a file of size bytes. Data-set files made at set-up have their size
	// allocated and their contents considered on the device, not cached. Files an
	// application writes are created with size 0 and grow by Write.
	Create(p *sim.Proc, name string, size int64) (File, error)
	// Open returns the named file, if it exists.
	Open(name string) (File, bool)
	// Unlink removes f; its cached and dirty pages are dropped.
	Unlink(p *sim.Proc, f File) error
	// Read is a buffered read of n bytes at off.
	Read(p *sim.Proc, f File, off, n int64) error
	// Write is a buffered write of n bytes at off; it may block in balance_dirty_pages and
	// extends the file when it ends past its size.
	Write(p *sim.Proc, f File, off, n int64) error
	// Fsync writes f's dirty pages, waits for them and flushes the device cache.
	Fsync(p *sim.Proc, f File) error
	// ReadDirect is an O_DIRECT|O_SYNC read that bypasses the page cache.
	ReadDirect(p *sim.Proc, f File, off, n int64) error
	// WriteDirect is an O_DIRECT|O_SYNC write that bypasses the page cache.
	WriteDirect(p *sim.Proc, f File, off, n int64) error
	// Compute runs d of CPU time on a host core.
	Compute(p *sim.Proc, d sim.Time)
}

// File is a file of the simulated host as the application models see it.
type File interface {
	// Name returns the file's path.
	Name() string
	// Size returns the file's size in bytes.
	Size() int64
}
