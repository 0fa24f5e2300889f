package pagecache

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// ioRec is one bio the fake device saw.
type ioRec struct {
	Op       blk.Op
	Off      int64
	Size     int64
	Sync     bool
	FUA      bool
	Hint     blk.Hint
	Life     blk.WriteHint // bi_write_hint
	Stream   uint8         // bi_write_stream
	Issued   sim.Time
	Complete sim.Time
}

// fakeDev completes every bio a fixed latency after submission and logs it.
type fakeDev struct {
	eng    *sim.Engine
	lat    sim.Time
	noLog  bool
	log    []ioRec
	writes int64 // bytes written
	// failReads, while set, makes every read bio complete with this error.
	failReads error
}

func (d *fakeDev) Submit(b *blk.Bio) {
	now := d.eng.Now()
	b.Issued = now
	if !d.noLog {
		d.log = append(d.log, ioRec{Op: b.Op, Off: b.Offset, Size: b.Size, Sync: b.Sync, FUA: b.FUA,
			Hint: b.Hint, Life: b.WriteHint, Stream: b.WriteStream, Issued: now, Complete: now + d.lat})
	}
	if b.Op == blk.OpWrite {
		d.writes += b.Size
	}
	if b.Op == blk.OpRead && d.failReads != nil {
		b.Err = d.failReads
	}
	d.eng.Schedule(now+d.lat, b.Done, b, 0)
}

// ops returns the logged bios of one kind.
func (d *fakeDev) ops(op blk.Op) []ioRec {
	var out []ioRec
	for _, r := range d.log {
		if r.Op == op {
			out = append(out, r)
		}
	}
	return out
}

// testSpec is a 64 MiB host (16384 pages of dirtyable memory) with one 1 GHz core, a 1 µs
// syscall and free page copies, so times are easy to compute by hand.
func testSpec() Spec {
	s := DefaultSpec()
	s.Memory = 64 * MiB
	s.CPU.Cores = 1
	s.CPU.Freq = sim.GHz
	s.CPU.SyscallCycles = 1000
	s.CPU.PageCopyCycles = 0
	return s
}

// rig is an engine, a fake device and a cache on a 1 GiB device.
type rig struct {
	eng *sim.Engine
	dev *fakeDev
	c   *Cache
}

func newRig(t testing.TB, spec Spec, lat sim.Time) *rig {
	eng := sim.NewEngine()
	dev := &fakeDev{eng: eng, lat: lat}
	c, err := New(eng, "host", spec, dev, 1<<30)
	require.NoError(t, err)
	return &rig{eng: eng, dev: dev, c: c}
}

// spawn runs body as a process with a task on core 0.
func (r *rig) spawn(name string, body func(t *Task)) *Task {
	var task *Task
	p := r.eng.Spawn(name, func(p *sim.Proc) { body(task) })
	task = r.c.NewTask(p, r.c.Cores()[0])
	return task
}

// writePages writes pages [first, first+n) of f one 4 KiB page per call.
func writePages(tb testing.TB, c *Cache, t *Task, f *File, first, n int64) {
	for i := first; i < first+n; i++ {
		_, err := c.Write(t, f, i*PageSize, PageSize)
		require.NoError(tb, err)
	}
}
