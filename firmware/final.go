package firmware

import (
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nand"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Word-line finality (docs/reliability.md, "Word-line finality: the firmware fix"). A die
// reports a program done before the page is safe: on a 2D page-by-page part a later CSB or
// MSB program of the same word line that a power cut interrupts destroys the lower pages
// (Tseng, Grupp and Swanson, "Understanding the Impact of Power Loss on Flash Memory", DAC
// 2011, doi:10.1145/2024724.2024733: "a power failure during a program operation can
// corrupt data that a previous, successful program operation wrote"; Lee, Shin et al.,
// IEEE TCAD 2014, doi:10.1109/TCAD.2014.2309857, the paired-page problem); on a one-shot
// part the lower pages are only latched in the page registers until the word line's last
// page starts the array; on a two-pass part a word line is final only after its fine
// pass, which the next word line's program runs. A page is final once the program of its
// finalizing page (hal.DieSpec.FinalizingPage, die.Spec.FinalizingPages) has completed.
//
// Program completion stays one event (programDone); what promises durability moves from
// "program done" to "word line final": the erase guard's release (uncover: a block whose
// data a newer copy supersedes — a host write's or a GC, merge or fold copy's source — is
// erased only once that copy is final), a Flush's and an FUA write's completion (they wait
// for the pages they cover, padding the blocks: padFlush), and, on parts whose
// provisional pages a cut destroys with no program running (one-shot, two-pass), the
// hold-up drain's end (drainPads). The out-of-band record and the buffer's release stay at
// "program done" (the table in docs/reliability.md says why). The control firmware.power_loss.controls.durable_at_done restores the old rule.
//
// Reads: a page only latched (one-shot) is not in the array, and a two-pass word line
// after its first pass holds data that cannot be read back until its second (US
// 12,056,368 B2: a storage location whose first-step program has completed "stores
// unreadable data"; the fine pass needs the data again, which Western Digital's US
// 11,837,277 B2 re-reads from SLC and US 11,269,725 B2 keeps in controller RAM for the
// whole word line). On those parts (latchLoss) a provisional page keeps its in-flight
// record, and reads of it are served from DRAM, until it is final. A 2D page is in the
// array once its program is done and is read from the die.

// finality is the firmware's word-line finality state.
type finality struct {
	// page maps a page index (native mode) to its finalizing page; nil: every page is final
	// at its program's completion (the control durable_at_done, or a die spec without the
	// table).
	page []uint16
	// passFinal: a page passed over (skipped, sealed, wasted) counts as programmed for the
	// finality of the pages below it. True page by page, where a passed-over page is never
	// programmed and so never interrupts its word line; false on one-shot and two-pass
	// parts, where a word line is final only after a later program has run (the die's model
	// loses a coarse word line until the next one is programmed: die.Die.Cut).
	passFinal bool
	// latchLoss: a cut with no program running destroys provisional pages (latched or
	// coarse word lines), so the hold-up drain's end pads them.
	latchLoss bool
	// passOver: the die programs page by page and lets a block's pages be passed over
	// (set whatever the rule: the cut's drop of GC programs needs it, powerloss.go).
	passOver bool
	// prefix, per block: its pages [0, prefix) have completed, or been passed over (with
	// passFinal).
	prefix []uint16
	// prov, per block: its provisional pages (done, not final), nil when none; blocks lists
	// the blocks with some, in the order they got their first.
	prov   [][]provPage
	blocks []ftl.BlockID
	spare  [][]provPage // empty rings for reuse
	pushed uint64       // provisional pages recorded so far (GC's pad look, padCovering)
	pads   int          // finality pads queued or in flight
	// waits are the flushes waiting for their pages' finality; drainWait: the hold-up
	// drain's end waits for its pads.
	waits     []*worker
	drainWait bool
	// padWaits counts the Flush commands and FUA writes that, their data programmed,
	// waited for provisional pages to become final, padding their blocks, and padWait the
	// time they waited (kept out of Stats, whose dump the golden files hold; reported as
	// StatFinalityFlushes and StatFinalityWait).
	padWaits int64
	padWait  sim.Time
}

// provPage is a provisional page: its index in its block, its finalizing page, whether it
// holds host data (an eviction's), and the erase guards its program holds until final.
type provPage struct {
	page, fin uint16
	host      bool
	ncovers   uint8
	covers    [ftl.MaxUnitsPerPage]ftl.BlockID
	// pend: its units' in-flight records (stamps, units of them) are kept until it is
	// final, so reads of it are served from DRAM (latchLoss parts).
	pend   bool
	units  uint8
	stamps [ftl.MaxUnitsPerPage]uint64
	// bak is its zone backup page's record id + 1 (znsbackup.go; 0: none), saved that the
	// backup's program has completed: a Flush waiting on the page is satisfied.
	bak   int32
	saved bool
}

// padLook is a caller's last look for pages to pad (padCovering): for which block, and
// the count of provisional pages then.
type padLook struct {
	v    ftl.BlockID
	seen uint64
}

// finTarget is what a waiting flush needs of one block: no host page at or below page is
// provisional.
type finTarget struct {
	b    ftl.BlockID
	page uint16
}

// init sets up word-line finality for the firmware's dies: only with
// firmware.power_loss.enabled (without it no cut can happen, and the firmware keeps the
// timing of a firmware without the rule: results byte-identical), and none with the
// control durable_at_done or without a finality table.
func (fi *finality) init(f *Firmware) {
	ds := f.flash.Die()
	fi.passOver = ds.PageByPage || ds.FinalizingPage == nil
	if !f.spec.PowerLoss.Enabled || f.spec.PowerLoss.Controls.DurableAtDone || ds.FinalizingPage == nil {
		return
	}
	n := ds.PagesPerBlock
	fi.page = make([]uint16, n)
	trivial := true
	for p := range n {
		fi.page[p] = uint16(ds.FinalizingPage(p))
		trivial = trivial && int(fi.page[p]) == p
	}
	if trivial { // SLC: every page is final at its own completion
		fi.page = nil
		return
	}
	fi.passFinal = ds.PageByPage
	fi.latchLoss = !fi.passFinal
	fi.prefix = make([]uint16, f.geo.Blocks())
	fi.prov = make([][]provPage, f.geo.Blocks())
}

// programFinal is programDone's finality part for op, a completed program of block b: it
// advances b's completed prefix, releases at once what op's page holds if it is final
// already, or records it as provisional, and releases the pages op makes final.
func (f *Firmware) programFinal(op *flashOp, b ftl.BlockID) {
	fi := &f.fin
	if f.slc != nil && f.ftl.IsSLC(b) {
		f.pendingDone(op)
		f.uncover(op) // pSLC: every page is final at its own completion
		return
	}
	first := f.geo.FirstPage(b)
	idx := int(op.ppn - first)
	fi.advance(f, b, first, idx)
	if fin := fi.page[idx]; fin < fi.prefix[b] || f.ftl.IsBad(b) { // a retired block is never programmed again
		f.pendingDone(op)
		f.uncover(op)
	} else {
		e := provPage{page: uint16(idx), fin: fin, host: op.kind == opEvict, ncovers: op.ncovers, covers: op.covers}
		op.ncovers = 0
		if fi.latchLoss {
			// A latched or coarse word line is not read back from the array (below): reads of
			// the page stay served from the firmware's copy until it is final.
			e.pend, e.units, e.stamps = true, max(op.units, 1), op.ustamps
			if f.units == 1 {
				e.stamps[0] = op.stamp
			}
		} else {
			f.pendingDone(op)
		}
		fi.push(b, e)
	}
	if len(fi.prov[b]) > 0 {
		f.settle(b)
	}
}

// advance records the completion of page idx of block b (first its first page): the
// completed prefix grows past it and, with passFinal, past the pages passed over after it.
func (fi *finality) advance(f *Firmware, b ftl.BlockID, first ftl.PPN, idx int) {
	p := int(fi.prefix[b])
	if idx < p {
		return
	}
	p = idx + 1
	if fi.passFinal {
		for n := f.ftl.NextPage(b); p < n && f.ftl.Passed(first+ftl.PPN(p)); p++ {
		}
	}
	fi.prefix[b] = uint16(p)
}

// push records e as a provisional page of block b.
func (fi *finality) push(b ftl.BlockID, e provPage) {
	if fi.prov[b] == nil {
		if n := len(fi.spare); n > 0 {
			fi.prov[b] = fi.spare[n-1][:0]
			fi.spare = fi.spare[:n-1]
		} else {
			fi.prov[b] = make([]provPage, 0, 8)
		}
		fi.blocks = append(fi.blocks, b)
	}
	fi.prov[b] = append(fi.prov[b], e)
	fi.pushed++
}

// settle releases block b's provisional pages that are final now: their erase guards go,
// and the flushes and the drain waiting on them look again.
func (f *Firmware) settle(b ftl.BlockID) {
	fi := &f.fin
	ring := fi.prov[b]
	kept := ring[:0]
	for _, e := range ring {
		if e.fin < fi.prefix[b] {
			f.released(b, &e)
			continue
		}
		kept = append(kept, e)
	}
	if len(kept) == len(ring) {
		return
	}
	fi.prov[b] = kept
	if len(kept) == 0 {
		fi.forget(b)
	}
	if len(fi.waits) > 0 {
		f.flushesLook()
	}
}

// released runs the deferred part of provisional page e of block b, final now (or
// erased): its erase guards go, and its in-flight records if it kept them.
func (f *Firmware) released(b ftl.BlockID, e *provPage) {
	f.uncoverBlocks(e.covers[:e.ncovers])
	if e.bak != 0 {
		f.unrefBackup(e.bak) // its backup page is no longer needed (znsbackup.go)
	}
	if !e.pend {
		return
	}
	p := f.geo.FirstPage(b) + ftl.PPN(e.page)
	if f.units == 1 {
		f.pending.done(ftl.Unit(p), e.stamps[0])
		return
	}
	u := f.geo.UnitOf(p, 0)
	for i, s := range e.stamps[:e.units] {
		f.pending.done(u+ftl.Unit(i), s)
	}
}

// forget drops block b from the blocks with provisional pages (it has none left).
func (fi *finality) forget(b ftl.BlockID) {
	fi.spare = append(fi.spare, fi.prov[b][:0])
	fi.prov[b] = nil
	for i, x := range fi.blocks {
		if x == b {
			copy(fi.blocks[i:], fi.blocks[i+1:])
			fi.blocks = fi.blocks[:len(fi.blocks)-1]
			return
		}
	}
}

// erasing is told that block b's erase is being issued: its provisional pages, whose data
// was superseded or reset, release their guards, and its completed prefix starts again.
func (f *Firmware) erasing(b ftl.BlockID) {
	fi := &f.fin
	if fi.page == nil {
		return
	}
	fi.prefix[b] = 0
	if ring := fi.prov[b]; ring != nil {
		for i := range ring {
			f.released(b, &ring[i])
		}
		fi.forget(b)
		if len(fi.waits) > 0 {
			f.flushesLook()
		}
	}
}

// hostFin returns the highest host page of block b that is provisional and the highest
// finalizing page of its provisional host pages, leaving out those a zone backup holds
// (znsbackup.go); ok is false if it has none.
func (fi *finality) hostFin(b ftl.BlockID) (hi, fin int, ok bool) {
	for _, e := range fi.prov[b] {
		if e.host && !e.saved {
			hi, fin, ok = max(hi, int(e.page)), max(fin, int(e.fin)), true
		}
	}
	return hi, fin, ok
}

// finalPrecondition pads, with word-line finality on, each block preconditioning left
// partly filled up to the finalizing page of its last page (closed form, no program): the
// preconditioned data is durable (version 1, as if written and flushed before the run),
// so its word lines are final, as a drive that flushed it would have made them. Without
// this, on a two-pass die a cut loses every such block's last word line (coarse only), and
// on a 2D die a cut during the block's next CSB or MSB program its lower pages.
func (f *Firmware) finalPrecondition() {
	fi := &f.fin
	if fi.page == nil {
		return
	}
	for b := ftl.BlockID(0); int(b) < f.geo.Blocks(); b++ {
		n := f.ftl.NextPage(b)
		if n == 0 || n >= f.geo.PagesPerBlock || f.slc != nil && f.ftl.IsSLC(b) {
			continue
		}
		for t := int(fi.page[n-1]); f.ftl.NextPage(b) <= t; {
			if _, ok := f.ftl.PadNext(b); !ok {
				break
			}
		}
	}
}

// padTo pads open block b up to page target (its finalizing page): each of its pages not
// yet taken, up to target, is programmed with no data (ftl.FTL.PadNext). A block the FTL
// will not pad (a zone's, a BAST data block) is left to its own programs.
func (f *Firmware) padTo(b ftl.BlockID, target int) {
	for f.ftl.NextPage(b) <= target {
		p, ok := f.ftl.PadNext(b)
		if !ok {
			return
		}
		f.issuePad(p)
	}
	if f.ftl.Hybrid() { // a pad may have filled a log block and queued its merge
		g, _, _ := f.geo.BlockAddr(b)
		f.gc.tasks[g].notify()
	}
}

// issuePad queues the program of pad page p: no data, no record. It goes to the queue of
// its block's stream, after the block's programs already allocated (an eviction arriving
// from DRAM is not overtaken: scheduler.arrivePad).
func (f *Firmware) issuePad(p ftl.PPN) {
	b := f.geo.BlockOf(p)
	g := f.geo.Addr(p).Die
	op := f.sched.get(opPad, g)
	op.ppn, op.stamp = p, nand.ErasedStamp
	for i := range op.ustamps {
		op.ustamps[i], op.oob[i] = nand.ErasedStamp, 0
	}
	f.inflightBlock[b]++
	f.fin.pads++
	if f.ftl.IsGCBlock(b) {
		op.rewrite = true // the GC queue carries the GC stream's blocks' programs
		f.sched.enqueue(op)
		return
	}
	f.sched.arrivePad(op)
}

// padDone completes a pad's program.
func (f *Firmware) padDone(op *flashOp) {
	fi := &f.fin
	b := f.geo.BlockOf(op.ppn)
	f.inflightBlock[b]--
	fi.pads--
	first := f.geo.FirstPage(b)
	fi.advance(f, b, first, int(op.ppn-first))
	if len(fi.prov[b]) > 0 {
		f.settle(b)
	}
	f.gc.programsDone(f)
	f.evict.notify() // the die's program queue has room again
	if fi.drainWait && fi.pads == 0 && f.zbak.inflight == 0 {
		fi.drainWait = false
		if f.buf.Dirty() == 0 {
			f.drainIdle()
		} // else the evictor, notified, goes on with the drain and ends it (drainIdle)
	}
}

// padCovering pads every block holding a provisional page whose program guards block v
// (a newer copy of v's data), up to that page's finalizing page: an erase of v waits for
// them, and nothing else may come to program those blocks (GC's own stream waits for the
// erase). It looks only if a page was recorded provisional since its last look for the
// caller for v (*look).
func (f *Firmware) padCovering(v ftl.BlockID, look *padLook) {
	fi := &f.fin
	if fi.page == nil || look.v == v && look.seen == fi.pushed {
		return
	}
	look.v, look.seen = v, fi.pushed
	for i := 0; i < len(fi.blocks); i++ {
		b := fi.blocks[i]
		target := -1
		for _, e := range fi.prov[b] {
			for _, c := range e.covers[:e.ncovers] {
				if c == v {
					target = max(target, int(e.fin))
				}
			}
		}
		if target >= 0 {
			f.padTo(b, target)
		}
	}
}

// awaitFinal has a flush whose data has been programmed wait until its host pages are
// final, padding their blocks; it reports false if nothing is provisional (the flush
// completes now).
func (f *Firmware) awaitFinal(wk *worker) bool {
	fi := &f.fin
	wk.fin = wk.fin[:0]
	for _, b := range fi.blocks {
		if hi, fin, ok := fi.hostFin(b); ok {
			wk.fin = append(wk.fin, finTarget{b: b, page: uint16(hi)})
			if f.zbak.on && f.ftl.ZoneBlock(b) {
				defer f.saveZone(b) // a zone's block is not padded: its pages are backed up (znsbackup.go)
				continue
			}
			defer f.padTo(b, fin) // after the targets are taken: a pad may settle pages
		}
	}
	if len(wk.fin) == 0 {
		return false
	}
	fi.padWaits++
	wk.finFrom = f.eng.Now()
	fi.waits = append(fi.waits, wk)
	return true
}

// reached reports whether every host page of wk's targets is final.
func (fi *finality) reached(wk *worker) bool {
	for _, t := range wk.fin {
		for _, e := range fi.prov[t.b] {
			if e.host && e.page <= t.page && !e.saved {
				return false
			}
		}
	}
	return true
}

// flushesLook completes the waiting flushes whose pages are final now (on.durable).
func (f *Firmware) flushesLook() {
	fi := &f.fin
	kept := fi.waits[:0]
	for _, wk := range fi.waits {
		if fi.reached(wk) {
			fi.padWait += f.eng.Now() - wk.finFrom
			f.at(f.eng.Now(), &wk.on.durable)
			continue
		}
		kept = append(kept, wk)
	}
	clear(fi.waits[len(kept):])
	fi.waits = kept
}

// drainPads pads, at the hold-up drain's end, every block with provisional pages when a
// cut with no program running destroys them (latchLoss), and reports whether the drain
// must wait for the pads.
func (f *Firmware) drainPads() bool {
	fi := &f.fin
	if !fi.latchLoss {
		return false
	}
	for i := 0; i < len(fi.blocks); i++ {
		b := fi.blocks[i]
		if f.zbak.on && f.ftl.ZoneBlock(b) {
			f.saveZone(b) // a zone's block is not padded: its latched pages are backed up (znsbackup.go)
			continue
		}
		fin := -1
		for _, e := range fi.prov[b] {
			fin = max(fin, int(e.fin))
		}
		f.padTo(b, fin)
	}
	return fi.pads > 0 || f.zbak.inflight > 0
}

// arrivePad queues pad op on its die's program queue no earlier than the last eviction
// program queued to arrive there, and holds the die's later arrivals behind it: a block's
// pages are programmed in order.
func (s *scheduler) arrivePad(op *flashOp) {
	g := op.die
	t := max(s.f.eng.Now(), s.lastArrive[g])
	s.padAt[g] = t
	s.arrive(t, op)
}

// durable is the step of a flush whose pages have become final: it completes.
func (wk *worker) durable() { wk.finish(nvme.StatusSuccess) }
