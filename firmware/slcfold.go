package firmware

import (
	"errors"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// slcCache is the firmware's half of the FTL's SLC cache (ftl/slccache.go): it marks the
// flash transactions of blocks in SLC mode (hal.FlashCmd.SLC, so the die reads and
// programs them in its pSLC mode), watches for the host's idle periods to fold the cache,
// refreshes the cache's size from the fill, and counts the cache's hits and the time host
// writes went direct to native blocks. Nil without an SLC cache.
type slcCache struct {
	f     *Firmware
	delay sim.Time // the idle delay (ftl.SLCCacheConfig.IdleDelay), also the watch's period
	armed bool     // a watch tick is due
	seen  int64    // the FTL's host writes at the last tick
	// direct is set from the first host program issued to a native block while the cache
	// was full (ftl.FTL.SLCDirect) to the next issued to an SLC block; since is when it
	// began and directTime the time spent in it before.
	direct     bool
	since      sim.Time
	directTime sim.Time
	hits       int64 // host flash reads of pages in SLC blocks
	erasing    int   // folded SLC blocks whose erase is queued or on a die (FlashWork.FoldErases)
	tick       step  // the watch (watch)
}

// newSLCCache returns the firmware's SLC cache for f's FTL, or nil, refusing the
// combinations the cache cannot serve correctly.
func newSLCCache(f *Firmware, faults bool) (*slcCache, error) {
	if !f.ftl.SLCCache() {
		return nil, nil
	}
	switch {
	case f.fdp != nil:
		return nil, errors.New("firmware.ftl.slc_cache: not with nvme.fdp.enabled: reclaim units are native blocks, and host writes through the cache would leave their handles")
	case f.ftl.Zoned():
		return nil, errors.New("firmware.ftl.slc_cache: not with a zoned namespace (nvme.namespaces type zoned): a zone's writes go to its own blocks in order, and the cache would take them elsewhere")
	case faults:
		return nil, errors.New("firmware.ftl.slc_cache: not with a fault model (flash.die.faults): a retired block in SLC mode is not taken out of the cache's counts")
	}
	c := &slcCache{f: f, delay: f.spec.FTL.SLCCache.IdleDelay()}
	c.tick = newStep("slcCache", "watch", &f.pl.cut, c.watch)
	return c, nil
}

// submitted marks tx (op's, being submitted) for the die's pSLC mode if op's block is in
// SLC mode, counts a host read of an SLC block as a cache hit, and follows direct mode
// and the watch on host programs.
func (c *slcCache) submitted(op *flashOp, tx *hal.FlashCmd) {
	f := c.f
	tx.SLC = op.kind != opErase && f.ftl.IsSLC(f.geo.BlockOf(op.ppn))
	switch {
	case op.kind == opHostRead && tx.SLC:
		c.hits++
	case op.kind != opEvict:
	case tx.SLC:
		if c.direct {
			c.direct = false
			c.directTime += f.eng.Now() - c.since
		}
		c.arm()
	case !c.direct && f.ftl.SLCDirect():
		c.direct, c.since = true, f.eng.Now()
		c.arm()
	}
}

// sameMode reports whether programs a and b may share a multi-plane transaction: both in
// SLC mode or neither (a transaction runs in one mode).
func (c *slcCache) sameMode(a, b ftl.PPN) bool {
	g := c.f.geo
	return c.f.ftl.IsSLC(g.BlockOf(a)) == c.f.ftl.IsSLC(g.BlockOf(b))
}

// mergeFold joins to fold program op the fold programs at the head of die queue q's GC
// queue on other planes at the same page index (and block, if the die requires it), for
// one multi-plane transaction, as merge does for host programs: a controller folds SLC
// data into a native word line across the die's planes at once, as it writes host data.
// Only a contiguous run of fold programs at the head is taken, so each block's programs
// stay in order. Other GC programs are not merged (the paper's platforms' GC, whose
// results stay as they were).
func (s *scheduler) mergeFold(q *dieQueue, op *flashOp) {
	g := s.f.geo
	a0 := g.Addr(op.ppn)
	used := uint64(1) << uint(a0.Plane)
	for q.gc.n > 0 && len(op.merged)+1 < g.Planes {
		nx := q.gc.head
		if nx.kind != opGCProgram || !nx.fold {
			return
		}
		a := g.Addr(nx.ppn)
		if a.Page != a0.Page || used&(1<<uint(a.Plane)) != 0 || (s.sameBlock && a.Block != a0.Block) {
			return
		}
		used |= 1 << uint(a.Plane)
		op.merged = append(op.merged, q.gc.pop())
	}
}

// arm schedules the watch's next tick if none is due.
func (c *slcCache) arm() {
	if !c.armed {
		c.armed = true
		c.f.at(c.f.eng.Now()+c.delay, &c.tick)
	}
}

// watch runs every delay while full SLC blocks are in use, it resizes the cache from the fill (ftl.FTL.RefreshSLC), calls the host idle if
// no host write reached the FTL since the last tick (ftl.FTL.SetSLCIdle: fold every full SLC
// block), and wakes the GC tasks, which fold where the FTL asks (ftl.FTL.NeedsGC).
func (c *slcCache) watch() {
	f := c.f
	c.armed = false
	if f.ro.on {
		return
	}
	fl := f.ftl
	fl.RefreshSLC()
	w := fl.SLCIdleWrites() // host writes, or those that use the cache (ftl.SLCRouter)
	fl.SetSLCIdle(w == c.seen)
	c.seen = w
	if c.direct && fl.SLCHasRoom() { // folded or grown: a host write would go to SLC again
		c.direct = false
		c.directTime += f.eng.Now() - c.since
	}
	for _, t := range f.gc.tasks {
		t.notify()
	}
	if fl.SLCFoldable() { // else nothing to fold: the next SLC or direct host program arms it
		c.arm()
	}
}

// directTimeAt returns the time spent in direct mode up to now.
func (c *slcCache) directTimeAt(now sim.Time) sim.Time {
	if c.direct {
		return c.directTime + now - c.since
	}
	return c.directTime
}

// SLCDirectTime returns the time host writes have spent in direct mode (the SLC cache full,
// programs going to native blocks) up to now; 0 without an SLC cache.
func (f *Firmware) SLCDirectTime() sim.Time {
	if f.slc == nil {
		return 0
	}
	return f.slc.directTimeAt(f.eng.Now())
}

// Folding is durable (docs/reliability.md, "The SLC cache and power loss"): a fold is GC of
// an SLC block, so the block is erased only once every folded copy's program has completed
// (gcTask.moveBatch waits for each batch's programs, waitPrograms for the victim's erase),
// and until then the SLC copy keeps its out-of-band record. A fold's copy keeps the SLC
// copy's sequence number, so whichever of the two the cut leaves on flash is the same
// version, and recovery maps the logical page to it. The order is the one SanDisk's
// folding patent gives (US 11,960,758 B2, claims 9 and 17: the SLC blocks are released only
// after the data was verified as written in the MLC block). The control
// firmware.power_loss.controls.unguarded_fold breaks the order to show what it protects.

// programWaiter returns the waiter a GC program of t counts in: the task's own, whose step
// moves the next batch (or erases the victim) once the batch's programs have completed; or,
// for a fold under the control unguarded_fold, one nothing waits for, so the task erases
// the SLC block while its folded copies are still being programmed.
func (t *gcTask) programWaiter() *waiter {
	if t.fold && t.loose != nil {
		return t.loose
	}
	return &t.w
}
