package pagecache

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// BlockDevice is where the page cache sends bios: the block layer's queue (blk.Queue
// satisfies it). Submit must not block; it completes each bio later by scheduling bio.Done
// with the bio as the event data.
type BlockDevice interface {
	Submit(bio *blk.Bio)
}

// DirtySleeper is an optional BlockDevice method: the device is told when a writer starts
// to sleep in balance_dirty_pages (wb->dirty_sleep), which blk-wbt reads.
type DirtySleeper interface {
	DirtySleep(at sim.Time)
}

// Cache is the page cache, the file table and the writeback machinery of one host with one
// block device (one bdi_writeback). Processes call it through a Task.
type Cache struct {
	name  string
	eng   *sim.Engine
	spec  Spec
	dev   BlockDevice
	sleep DirtySleeper // dev's DirtySleeper, or nil
	cores []*sim.Core

	mem         frameTable
	nrDirty     int64 // NR_FILE_DIRTY
	nrWriteback int64 // NR_WRITEBACK
	memWait     sim.Signal

	files  []*File
	byName map[string]*File
	space  spaceAllocator

	ratio, bgRatio int  // the dirty ratio set in effect
	high           bool // FastDrain: the high set is in effect

	wb      writeback
	reqFree *req
	stats   Stats
	check   *DataCheck // the end-to-end data check, if on (datacheck.go)
	// hintStream is the write stream each write hint's writes get (writehint.go).
	hintStream [blk.NumWriteHints]uint8
}

// New builds the page cache of a host whose block device has capacity bytes, and starts its
// flusher process ("<name>.flush") on eng.
func New(eng *sim.Engine, name string, spec Spec, dev BlockDevice, capacity int64) (*Cache, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	if capacity < PageSize {
		return nil, fmt.Errorf("pagecache: device capacity %d B is smaller than a page", capacity)
	}
	c := &Cache{
		name:   name,
		eng:    eng,
		spec:   spec,
		dev:    dev,
		mem:    newFrameTable(int((spec.Memory - spec.Reserved) / PageSize)),
		byName: make(map[string]*File),
		space:  newSpaceAllocator(capacity / PageSize),
	}
	clk := sim.NewClock(spec.CPU.Freq)
	for i := range spec.CPU.Cores {
		c.cores = append(c.cores, sim.NewCore(fmt.Sprintf("%s.cpu%d", name, i), clk))
	}
	if spec.FastDrain.Adaptive {
		c.ratio, c.bgRatio = spec.FastDrain.Low.Ratio, spec.FastDrain.Low.BackgroundRatio
	} else {
		c.ratio, c.bgRatio = spec.Dirty.Ratio, spec.Dirty.BackgroundRatio
	}
	c.sleep, _ = dev.(DirtySleeper)
	c.stats.Pause.Name = name + ".throttle_pause"
	c.stats.FsyncData.Name = name + ".fsync_data"
	c.stats.FsyncFlush.Name = name + ".fsync_flush"
	c.initWriteback()
	return c, nil
}

// Name returns the cache's component name.
func (c *Cache) Name() string { return c.name }

// Spec returns the configuration the cache was built with.
func (c *Cache) Spec() Spec { return c.spec }

// Cores returns the host cores; processes are placed on them with NewTask.
func (c *Cache) Cores() []*sim.Core { return c.cores }

// bug panics with the component name and simulated time: a model bug. Callers test the
// condition first, so the arguments are not boxed on the hot path.
func (c *Cache) bug(format string, args ...any) {
	panic(fmt.Sprintf("pagecache %s at %v: %s", c.name, c.eng.Now(), fmt.Sprintf(format, args...)))
}

// Task is a process's view of the host kernel (its task_struct): the core it runs on, its
// dirty-throttling state and its outstanding I/O.
type Task struct {
	Proc *sim.Proc
	Core *sim.Core
	c    *Cache
	act  sim.Activity

	nrDirtied      int64 // pages dirtied since the last balance_dirty_pages
	nrDirtiedPause int64 // ratelimit: balance_dirty_pages runs when nrDirtied reaches it
	pausedWhen     int64 // dirty_paused_when, jiffies; valid if pausedValid
	pausedValid    bool
	dirtyGen       int64 // bandwidth interval in which the task last dirtied a page

	pending int // bios of this task in flight
	ioDone  sim.Signal
	err     error

	throttled sim.Time
	pauses    int64

	// fadvise is the read-ahead advice of the file the task reads (posix_fadvise on its
	// open file): fadvRandom reads only what is asked; fadvSequential doubles the window.
	fadvise Fadvise
}

// Fadvise is posix_fadvise(2) read-ahead advice (mm/fadvise.c).
type Fadvise uint8

// The advice values modelled.
const (
	FadvNormal     Fadvise = iota // read-ahead as the device's read_ahead_kb allows
	FadvRandom                    // POSIX_FADV_RANDOM: FMODE_RANDOM, no read-ahead
	FadvSequential                // POSIX_FADV_SEQUENTIAL: the window maximum doubled
)

// SetFadvise sets the read-ahead advice of the task's reads (posix_fadvise(2) on the file
// it reads): a task stands for one process with one open file.
func (t *Task) SetFadvise(a Fadvise) { t.fadvise = a }

// NewTask binds process p, running on core, to the cache.
func (c *Cache) NewTask(p *sim.Proc, core *sim.Core) *Task {
	return &Task{Proc: p, Core: core, c: c, act: core.Res.Activity("kernel"),
		nrDirtiedPause: initRatelimitPages, dirtyGen: -1}
}

// KernelActivity returns the activity the task's kernel work is recorded under on its
// core ("kernel"), so callers charging syscalls need not look it up by name.
func (t *Task) KernelActivity() sim.Activity { return t.act }

// Throttled returns the total time the task slept in balance_dirty_pages.
func (t *Task) Throttled() sim.Time { return t.throttled }

// Pauses returns how many times the task slept in balance_dirty_pages.
func (t *Task) Pauses() int64 { return t.pauses }

// compute charges n cycles of kernel work to the task's core.
func (t *Task) compute(cycles int64) {
	if cycles > 0 {
		t.Place()
		t.Proc.Compute(t.Core, t.act, cycles)
	}
}

// Place is the wake-up placement of a task about to run (CPUSpec.WakeIdle): it stays on
// its core if that core is idle now, else moves to the first idle core in core order, else
// stays and queues behind the work booked on its core. Callers that book the task's CPU
// time themselves call it first.
func (t *Task) Place() {
	c := t.c
	if !c.spec.CPU.WakeIdle {
		return
	}
	now := c.eng.Now()
	if t.Core.Res.FreeAt(now) <= now {
		return
	}
	for _, core := range c.cores {
		if core.Res.FreeAt(now) <= now {
			t.Core, t.act = core, core.Res.Activity("kernel")
			c.stats.Migrations++
			return
		}
	}
}

// wait blocks until all of the task's bios completed and returns (and clears) the first
// error.
func (t *Task) wait() error {
	for t.pending > 0 {
		t.Proc.Wait(&t.ioDone)
	}
	err := t.err
	t.err = nil
	return err
}

// DirtyPages returns NR_FILE_DIRTY.
func (c *Cache) DirtyPages() int64 { return c.nrDirty }

// WritebackPages returns NR_WRITEBACK.
func (c *Cache) WritebackPages() int64 { return c.nrWriteback }

// CachedPages returns NR_FILE_PAGES: pages of files in memory.
func (c *Cache) CachedPages() int64 { return int64(c.mem.used()) }

// DirtyableMemory is global_dirtyable_memory in pages (docs/sources.md §5.1): free pages plus file
// pages, with Reserved already taken out of both.
func (c *Cache) DirtyableMemory() int64 {
	free := int64(c.mem.capacity - c.mem.used())
	return free + int64(c.mem.used())
}

// Ratios returns the dirty_ratio and dirty_background_ratio in effect.
func (c *Cache) Ratios() (ratio, bgRatio int) { return c.ratio, c.bgRatio }

// Thresholds returns the dirty threshold, the background threshold and the freerun ceiling
// in pages, computed now from the ratios in effect (docs/sources.md §5.1, §5.2).
func (c *Cache) Thresholds() (thresh, bg, freerun int64) {
	thresh, bg = dirtyLimits(c.DirtyableMemory(), c.ratio, c.bgRatio)
	return thresh, bg, freerunCeiling(thresh, bg)
}

// Lookup returns the file called name, or nil.
func (c *Cache) Lookup(name string) *File { return c.byName[name] }

// allocFrame returns a free frame for page idx of f, reclaiming the least recently used clean
// page if memory is full. If no clean page exists it wakes the flusher to write everything
// (WB_REASON_VMSCAN) and waits for pages to become clean. It returns noFrame if the page
// appeared, or the file was unlinked, while it waited.
func (c *Cache) allocFrame(t *Task, f *File, idx int64) int32 {
	for {
		if f.frameOf(idx) != noFrame || f.unlinked {
			return noFrame
		}
		if fr := c.takeFrame(f, idx); fr != noFrame {
			return fr
		}
		c.wb.vmscan = true
		c.wbWakeup()
		t.Proc.Wait(&c.memWait)
	}
}

// evict drops a clean page from its file; the frame stays taken by the caller.
func (c *Cache) evict(fr int32) {
	c.mem.lruDel(fr)
	fm := &c.mem.frames[fr]
	f := c.files[fm.file]
	f.pages[fm.index] = noFrame
	f.nrCached--
}

// dropPage removes a cached page of f (truncate): a dirty page is discarded unwritten.
func (c *Cache) dropPage(f *File, idx int64) {
	fr := f.pages[idx]
	fm := &c.mem.frames[fr]
	if fm.flags&(pgWriteback|pgLocked) != 0 {
		c.bug("dropping page %d of %s under I/O", idx, f.name)
	}
	if fm.flags&pgDirty != 0 {
		c.nrDirty--
		f.nrDirty--
	}
	c.mem.lruDel(fr)
	f.pages[idx] = noFrame
	f.nrCached--
	c.mem.release(fr)
}

// becameClean puts a page whose I/O finished on the LRU and wakes allocators waiting for
// memory.
func (c *Cache) becameClean(fr int32) {
	c.mem.lruAdd(fr)
	if c.memWait.Waiting() > 0 {
		c.memWait.Broadcast()
	}
}

// markDirty sets PG_dirty on a cached page (account_page_dirtied and __mark_inode_dirty):
// the first dirty page of a clean inode stamps dirtied_when and queues the inode on b_dirty,
// and the first dirty inode of the device arms the periodic flusher wake-up. It returns
// whether the page was newly dirtied.
func (c *Cache) markDirty(t *Task, f *File, idx int64, fr int32) bool {
	fm := &c.mem.frames[fr]
	if fm.flags&pgDirty != 0 {
		return false
	}
	c.mem.lruDel(fr)
	fm.flags |= pgDirty
	c.nrDirty++
	f.nrDirty++
	f.noteDirty(idx)
	c.stats.PagesDirtied++
	if t.dirtyGen != c.wb.gen {
		t.dirtyGen = c.wb.gen
		c.wb.dirtiers++
	}
	if f.list == nil {
		hadDirtyIO := c.wbHasDirtyIO()
		f.dirtiedWhen = c.eng.Now()
		c.wb.bDirty.pushBack(f)
		if !hadDirtyIO {
			c.wbWakeupDelayed()
		}
	}
	return true
}
