package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// gcBatch is how many valid pages GC reads before moving them.
const gcBatch = 32

// gcLoop returns the GC process of die g: whenever a plane of the die is at or below the
// GC threshold it cleans a victim block — reads its valid pages, programs them elsewhere
// on the die through the FTL's GC write points, erases the block — and repeats.
func (f *Firmware) gcLoop(g int) func(p *sim.Proc) {
	return func(p *sim.Proc) {
		core := f.core(g)
		w := &waiter{stamps: make([]uint64, gcBatch)}
		var valid []ftl.PPN
		for {
			plane := -1
			for pl := 0; pl < f.geo.Planes; pl++ {
				if f.ftl.NeedsGC(g, pl) {
					plane = pl
					break
				}
			}
			if plane < 0 {
				p.Wait(&f.gcSig[g])
				continue
			}
			v, ok := f.ftl.PickVictim(g, plane)
			if !ok {
				p.Wait(&f.gcSig[g]) // nothing reclaimable until more pages are invalidated
				continue
			}
			for f.inflightBlock[v] > 0 {
				p.Wait(&f.progDone)
			}
			valid = f.ftl.ValidPages(v, valid[:0])
			for start := 0; start < len(valid); start += gcBatch {
				f.gcMove(p, core, w, g, valid[start:min(start+gcBatch, len(valid))])
			}
			for f.inflightBlock[v] > 0 {
				p.Wait(&f.progDone)
			}
			op := f.sched.get(opErase, g)
			op.ppn, op.w = f.geo.FirstPage(v), w
			w.pending = 1
			f.sched.enqueue(op)
			w.wait(p)
			f.ftl.Erase(v)
			f.Stats.GCRuns++
			if f.spec.Verify {
				if err := f.ftl.Check(); err != nil {
					panic(fmt.Sprintf("firmware %s at %v: FTL invariants broken after GC of block %d:\n%v", f.name, p.Now(), v, err))
				}
			}
			if f.OnGC != nil {
				f.OnGC(f)
			}
			f.evict.notify()
			f.roomChanged()
		}
	}
}

// gcMove reads a batch of valid pages and programs those still valid to new pages.
func (f *Firmware) gcMove(p *sim.Proc, core *sim.Core, w *waiter, g int, batch []ftl.PPN) {
	w.pending = 0
	for j, old := range batch {
		op := f.sched.get(opGCRead, g)
		op.ppn, op.w, op.idx = old, w, j
		w.pending++
		f.sched.enqueue(op)
	}
	w.wait(p)
	p.Compute(core, f.acts.gc, f.spec.Cycles.GCPerPage*int64(len(batch)))
	w.pending = 0
	for j, old := range batch {
		if _, ok := f.ftl.Owner(old); !ok {
			continue // overwritten or trimmed while it was read
		}
		np, _ := f.ftl.Relocate(old)
		op := f.sched.get(opGCProgram, g)
		op.ppn, op.stamp, op.w = np, w.stamps[j], w
		f.pending.put(np, op.stamp)
		f.inflightBlock[f.geo.BlockOf(np)]++
		w.pending++
		f.Stats.GCPagesMoved++
		f.sched.enqueue(op)
	}
	w.wait(p)
}
