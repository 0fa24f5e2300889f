package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nand"
)

// gcBatch is how many valid pages (mapping units) GC reads before moving them: a multiple
// of every UnitsPerPage (1, 2, 4), so a batch of valid units fills whole pages.
const gcBatch = 32

// collector is garbage collection: one task per die, and the tasks that wait for a victim
// block's programs to complete.
type collector struct {
	tasks []*gcTask
	// progWait holds the tasks waiting for in-flight programs to complete (programDone
	// gives each a look), in the order they started waiting.
	progWait []*gcTask
}

// gcTask cleans die g: whenever a plane of the die is at or below the GC threshold it cleans
// a victim block (reads its valid pages, programs them elsewhere on the die through the
// FTL's GC write points, erases the block) and repeats. Its steps run to completion, as the
// HIL's do (hilsteps.go).
type gcTask struct {
	f     *Firmware
	g     int
	core  int // its core (CPU)
	w     waiter
	on    gcSteps
	valid []ftl.Unit
	v     ftl.BlockID
	start int  // the batch of valid pages being moved
	idle  bool // waiting for notify
	erase bool // waiting for the victim's programs before its erase, not its moves
	// padLook is the task's last look for pages to pad before an erase (padCovering).
	padLook padLook
	fold    bool // the victim is an SLC block: its moves are a fold (slcfold.go)
	// loose counts an unguarded fold's programs, which the task does not wait for (the
	// control firmware.power_loss.controls.unguarded_fold, slcfold.go); nil without it.
	loose *waiter
	// retire holds the die's blocks retired after a failure whose valid pages are still
	// to move (faults.go), oldest first; they come before any GC victim.
	retire []ftl.BlockID
	// A hybrid mapping scheme's merge in progress (merge.go) and the next of its blocks to
	// erase.
	merge   ftl.Merge
	merging bool
	eraseAt int
}

// gcSteps are the steps of a GC task.
type gcSteps struct {
	wake     step // notified, or booted: look for work
	progs    step // programs completed: look at the victim's in-flight programs
	read     step // a batch's valid pages are in DRAM
	computed step // a batch's bookkeeping has ended
	moved    step // a batch's programs have completed
	erased   step // the victim's erase has completed
}

func newGCTask(f *Firmware, g int) *gcTask {
	t := &gcTask{f: f, g: g, core: f.core(g), w: waiter{stamps: make([]uint64, gcBatch)}}
	if f.spec.PowerLoss.Controls.UnguardedFold {
		t.loose = &waiter{pending: 1} // never 0: nothing waits for it
	}
	// No GC on hold-up power (power cut), nor in read-only mode (readonly.go): a step
	// other than an erase's end then leaves the victim as it is and waits; an erase in
	// flight is accounted.
	cut := &f.pl.cut
	t.on = gcSteps{
		wake:     newStep("gcTask", "wake", cut, t.unlessReadOnly(t.look)),
		progs:    newStep("gcTask", "programs-done", cut, t.unlessReadOnly(t.waitPrograms)),
		read:     newStep("gcTask", "read", cut, t.unlessReadOnly(t.account)),
		computed: newStep("gcTask", "computed", cut, t.unlessReadOnly(t.relocate)),
		moved:    newStep("gcTask", "moved", cut, t.unlessReadOnly(t.moved)),
		erased:   newStep("gcTask", "erased", cut, t.erased),
	}
	return t
}

// unlessReadOnly is run, or stop in read-only mode.
func (t *gcTask) unlessReadOnly(run func()) func() {
	return func() {
		if t.f.ro.on {
			t.stop()
			return
		}
		run()
	}
}

// moved goes on with the next batch once a batch's programs have completed.
func (t *gcTask) moved() {
	t.start += gcBatch
	t.moveBatch()
}

// notify wakes the task if it waits for work (the FTL may need GC on its die).
func (t *gcTask) notify() {
	if t.idle {
		t.idle = false
		t.f.at(t.f.eng.Now(), &t.on.wake)
	}
}

// stop leaves the victim as it is and waits: GC does not run in read-only mode.
func (t *gcTask) stop() {
	t.idle, t.erase, t.valid = true, false, t.valid[:0]
}

// look picks a victim on a plane that needs GC, or waits for notify.
func (t *gcTask) look() {
	f := t.f
	if f.ro.on {
		t.stop()
		return
	}
	if len(t.retire) > 0 {
		t.v, t.erase = t.retire[0], false
		t.retire = t.retire[1:]
		t.waitPrograms()
		return
	}
	if f.ftl.Hybrid() {
		t.lookMerge()
		return
	}
	// The first plane that needs GC and has a victim: a plane with nothing reclaimable must
	// not keep the die's other planes from folding or collecting (a sequential fill of a
	// gen4 preset otherwise stalled with every plane at the threshold).
	v, ok := ftl.NoBlock, false
	for pl := 0; pl < f.geo.Planes && !ok; pl++ {
		if f.ftl.NeedsGC(t.g, pl) {
			v, ok = f.ftl.PickVictim(t.g, pl)
		}
	}
	if !ok {
		t.idle = true // nothing reclaimable until more pages are invalidated
		return
	}
	t.v, t.erase = v, false
	t.waitPrograms()
}

// waitPrograms goes on once no program to the victim is in flight: with its moves, or with
// its erase after them.
func (t *gcTask) waitPrograms() {
	f := t.f
	if t.merging {
		t.mergePrograms()
		return
	}
	if f.inflightBlock[t.v] > 0 || t.erase && f.newer[t.v] > 0 {
		if t.erase {
			f.padCovering(t.v, &t.padLook) // the copies' word lines may wait for programs that will not come
		}
		f.gc.progWait = append(f.gc.progWait, t) // the erase also waits for newer copies (eraseguard.go)
		return
	}
	if t.erase && f.ftl.IsBad(t.v) {
		t.retired() // a bad block is never erased
		return
	}
	if t.erase {
		t.issueErase()
		return
	}
	t.valid = f.ftl.ValidUnits(t.v, t.valid[:0])
	t.start = 0
	t.fold = f.slc != nil && f.ftl.IsSLC(t.v)
	t.moveBatch()
}

// batch returns the valid units being moved.
func (t *gcTask) batch() []ftl.Unit {
	return t.valid[t.start:min(t.start+gcBatch, len(t.valid))]
}

// moveBatch reads the next batch of valid pages, or, all moved, waits to erase.
func (t *gcTask) moveBatch() {
	f := t.f
	if f.ro.on {
		t.stop() // read-only since the batch began (readonly.go)
		return
	}
	if t.start >= len(t.valid) {
		t.erase = true
		t.waitPrograms()
		return
	}
	w := &t.w
	w.pending, w.then = 0, &t.on.read
	// A fold with its own scheduling (firmware.scheduler.fold_share) queues the batch's
	// reads before the die may take one, so the scheduler reads each page once for its
	// units (foldshare.go).
	whole := t.fold && f.sched.foldShare > 0
	for j, old := range t.batch() {
		// One read per unit: each senses its page and moves the unit's bytes (GC's units of
		// one page are not merged into one sense; a fold's are, with fold_share).
		op := f.sched.get(opGCRead, t.g)
		op.ppn, op.slot, op.w, op.idx, op.fold = f.ftl.PageOf(old), uint8(f.ftl.SlotOf(old)), w, j, t.fold
		w.pending++
		if whole {
			f.sched.dies[t.g].gc.push(op)
			continue
		}
		f.sched.enqueue(op)
	}
	if whole {
		f.sched.dispatch(t.g)
	}
}

// account charges the batch's bookkeeping.
func (t *gcTask) account() {
	f := t.f
	if c := f.spec.Cycles.GCPerPage * int64(len(t.batch())); c > 0 {
		f.compute(t.core, WorkGC, c, &t.on.computed)
		return
	}
	t.relocate()
}

// relocate programs the batch's pages that are still valid to new pages.
func (t *gcTask) relocate() {
	f := t.f
	w := &t.w
	w.pending, w.then = 0, &t.on.moved
	if f.units > 1 {
		t.relocateUnits()
		return
	}
	for j, old := range t.batch() {
		if _, ok := f.ftl.Owner(old); !ok {
			continue // overwritten or trimmed while it was read
		}
		if !f.gcRoom(t.g) {
			break // the die has no free block left: read-only (readonly.go)
		}
		var nu ftl.Unit
		if f.ftl.IsBad(t.v) { // a retired block's page (faults.go), not GC's
			nu, _, _ = f.ftl.Rewrite(old)
			f.faults.RetireMoves++
		} else {
			nu, _ = f.ftl.Relocate(old)
			f.Stats.GCPagesMoved++
		}
		np := ftl.PPN(nu) // one unit a page
		op := f.sched.get(opGCProgram, t.g)
		op.ppn, op.stamp, op.w, op.from, op.fold = np, w.stamps[j], t.programWaiter(), old, t.fold
		if t.loose == nil || !t.fold { // the control unguarded_fold does not wait for the copies
			f.coverCopy(op, old) // the victim is erased only once the copy is final (final.go)
		}
		if f.pl.oob != nil {
			op.oob[0] = f.pl.oob[old] // the copy keeps the original's sequence number
		}
		f.pending.put(nu, op.stamp)
		f.inflightBlock[f.geo.BlockOf(np)]++
		op.w.pending++
		f.sched.enqueue(op)
	}
	if w.pending == 0 {
		t.start += gcBatch
		t.moveBatch()
	}
}

// relocateUnits is relocate with sub-page mapping: the batch's units still valid are
// packed, in order, UnitsPerPage to a new page of the die's GC stream (ftl.RelocateUnits),
// the batch's last page padded if they do not fill it. Moving u valid units thus costs
// ⌈u / UnitsPerPage⌉ page programs per batch.
func (t *gcTask) relocateUnits() {
	f := t.f
	w := &t.w
	k := f.units
	var olds [ftl.MaxUnitsPerPage]ftl.Unit
	var stamps [ftl.MaxUnitsPerPage]uint64
	n := 0
	program := func() {
		np := f.ftl.RelocateUnits(olds[:n])
		f.Stats.GCPagesMoved += int64(n)
		op := f.sched.get(opGCProgram, t.g)
		op.ppn, op.units, op.w, op.fold = np, uint8(n), t.programWaiter(), t.fold
		u := f.geo.UnitOf(np, 0)
		for i := 0; i < k; i++ {
			op.ustamps[i], op.oob[i] = nand.ErasedStamp, 0 // a padded slot
			if i < n {
				op.ustamps[i] = stamps[i]
				if t.loose == nil || !t.fold { // the control unguarded_fold does not wait for the copies
					f.coverCopy(op, olds[i]) // the victim is erased only once the copy is final (final.go)
				}
				f.pending.put(u+ftl.Unit(i), stamps[i])
				if f.pl.oob != nil {
					op.oob[i] = f.pl.oob[olds[i]] // the copy keeps the original's sequence number
				}
			}
		}
		op.stamp = op.ustamps[0]
		f.inflightBlock[f.geo.BlockOf(np)]++
		op.w.pending++
		f.sched.enqueue(op)
		n = 0
	}
	for j, old := range t.batch() {
		if _, ok := f.ftl.Owner(old); !ok {
			continue // overwritten or trimmed while it was read
		}
		olds[n], stamps[n] = old, w.stamps[j]
		if n++; n == k {
			if !f.gcRoom(t.g) {
				n = 0
				break // the die has no free block left: read-only (readonly.go)
			}
			program()
		}
	}
	if n > 0 && f.gcRoom(t.g) {
		program()
	}
	if w.pending == 0 {
		t.start += gcBatch
		t.moveBatch()
	}
}

// erased frees the victim and looks for more work.
func (t *gcTask) erased() {
	f := t.f
	if t.merging {
		t.mergeErased()
		return
	}
	if t.w.failed { // the die's erase status: the block is retired, not freed
		f.retire(t.v)
		t.retire = t.retire[:len(t.retire)-1] // it holds no valid page: nothing to move
		t.retired()
		return
	}
	if t.fold {
		f.slc.erasing--
	}
	f.ftl.Erase(t.v)
	f.Stats.GCRuns++
	if f.spec.Verify {
		if err := f.ftl.Check(); err != nil {
			panic(fmt.Sprintf("firmware %s at %v: FTL invariants broken after GC of block %d:\n%v", f.name, f.eng.Now(), t.v, err))
		}
	}
	if f.OnGC != nil {
		f.OnGC(f)
	}
	f.evict.notify()
	f.roomChanged()
	t.look()
}

// retired ends the moves out of a retired block (or a GC victim retired meanwhile), checks
// the FTL if asked, and looks for more work. The block stays where it is, in the bad-block
// table.
func (t *gcTask) retired() {
	f := t.f
	if f.spec.Verify {
		if err := f.ftl.Check(); err != nil {
			panic(fmt.Sprintf("firmware %s at %v: FTL invariants broken after retiring block %d:\n%v", f.name, f.eng.Now(), t.v, err))
		}
	}
	f.evict.notify()
	f.roomChanged()
	t.look()
}

// programsDone gives every task waiting for in-flight programs a look (on.progs), in the
// order they started waiting.
func (c *collector) programsDone(f *Firmware) {
	if len(c.progWait) == 0 {
		return
	}
	for i, t := range c.progWait {
		f.at(f.eng.Now(), &t.on.progs)
		c.progWait[i] = nil
	}
	c.progWait = c.progWait[:0]
}

// issueErase queues the erase of block t.v; on.erased follows (GC's victim, or the block a
// merge frees).
func (t *gcTask) issueErase() {
	f := t.f
	op := f.sched.get(opErase, t.g)
	op.ppn, op.w = f.geo.FirstPage(t.v), &t.w
	if t.fold {
		f.slc.erasing++
	}
	if f.pl.oob != nil {
		f.pl.eraseIssued(f, t.v)
	}
	f.erasing(t.v)
	t.w.pending, t.w.then, t.w.failed = 1, &t.on.erased, false
	f.sched.enqueue(op)
	if f.OnErase != nil {
		f.OnErase()
	}
}
