package firmware

import "fmt"

// The merges of a hybrid mapping scheme (ftl.mapping: bast) are the die's GC task's work in
// place of victim blocks: the FTL queues a merge when a log block fills or a logical block
// needs a log block from a full pool (ftl.NextMerge), and the task carries it out with the
// same flash operations and timing as GC: it waits for the programs in flight to the merge's
// blocks, reads the pages to copy and programs them (moveBatch and relocate, gcBatch at a
// time, Cycles.GCPerPage each), erases the blocks the merge frees one after the other, and
// tells the FTL the merge is done. Host writes to the logical block wait meanwhile
// (ErrNoSpace), like writes waiting for GC.

// lookMerge starts the die's next queued merge, or waits for notify.
func (t *gcTask) lookMerge() {
	f := t.f
	if !f.ftl.NextMerge(t.g, &t.merge) {
		t.idle = true
		return
	}
	t.merging, t.erase, t.eraseAt = true, false, 0
	t.valid = append(t.valid[:0], t.merge.Moves...)
	t.v = t.merge.Wait[0] // the log block (never bad: mapping bast refuses flash faults)
	t.mergePrograms()
}

// mergePrograms goes on once no program to the merge's blocks is in flight: with its moves,
// or with the erase of its next block to erase after them, or, all erased, ends it.
func (t *gcTask) mergePrograms() {
	f := t.f
	wait := t.merge.Wait
	if t.erase {
		if t.eraseAt == len(t.merge.Erase) {
			t.mergeDone()
			return
		}
		wait = t.merge.Erase[t.eraseAt : t.eraseAt+1]
	}
	for _, b := range wait {
		if f.inflightBlock[b] > 0 || t.erase && f.newer[b] > 0 { // an erase also waits for newer copies (eraseguard.go)
			if t.erase {
				f.padCovering(b, &t.padLook) // and for the copies' word lines (final.go)
			}
			f.gc.progWait = append(f.gc.progWait, t)
			return
		}
	}
	if !t.erase {
		t.start = 0
		t.moveBatch()
		return
	}
	t.v = t.merge.Erase[t.eraseAt]
	t.issueErase()
}

// mergeErased frees the erased block and goes on with the merge.
func (t *gcTask) mergeErased() {
	f := t.f
	if t.w.failed {
		panic(fmt.Sprintf("firmware %s: erase of block %d failed during a bast merge (mapping bast refuses flash faults)", f.name, t.v))
	}
	f.ftl.Erase(t.v)
	t.eraseAt++
	t.mergePrograms()
}

// mergeDone ends the merge, checks the FTL if asked, and looks for more work.
func (t *gcTask) mergeDone() {
	f := t.f
	f.ftl.MergeDone(t.g)
	t.merging = false
	if f.spec.Verify {
		if err := f.ftl.Check(); err != nil {
			panic(fmt.Sprintf("firmware %s at %v: FTL invariants broken after a %v merge on die %d:\n%v", f.name, f.eng.Now(), t.merge.Kind, t.g, err))
		}
	}
	if f.OnGC != nil {
		f.OnGC(f)
	}
	f.evict.notify()
	f.roomChanged()
	t.look()
}
