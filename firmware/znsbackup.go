package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/internal/bitset"
	"github.com/fastdrain-sim/fastdrain/nand"
)

// The zone backup (docs/reliability.md, "A ZNS Flush: the zone backup"). Under word-line
// finality (final.go) a Flush or an FUA write waits until the pages it covers are final,
// and pads the blocks holding provisional pages; a zone's member block is never padded (a
// pad would take a page the zone's capacity counts on and move data the host places). So
// a Flush covering a zone's provisional pages would wait for the zone's next writes, for
// ever if the host writes that zone no more. The firmware instead copies each such page to
// a backup area outside every zone, as drives do for the paired-page problem: Lee, Shin
// et al., "Adaptive Paired Page Prebackup Scheme for MLC NAND Flash Memory", IEEE TCAD
// 2014 (doi:10.1109/TCAD.2014.2309857), state that the paired-page problem is generally
// handled by backing the lower pages up before the upper page is programmed, at a cost in
// performance and lifetime. SanDisk's US 8,819,337 B1 backs a previously written lower page
// up "in another area of the memory" before its upper page is written, when the lower page
// lies before the flush pointer recorded at the last flush cache command, that is when a
// Flush covered it; US 11,551,781 B2 and US 11,625,172 B2 (SanDisk) program a backup copy
// in single-bit-per-cell form and read it back after a power loss to recover the primary
// copy.
//
// The area: firmware.power_loss.zone_backup_blocks blocks a die (sized at build:
// sizeBackup), taken out of the FTL's allocation (ftl.FTL.ReserveBlock). A backup page is
// written where a program of it is final at its own completion: in the die's pSLC mode
// where it has one (each page a word line of its own), otherwise, on a page-by-page (2D)
// part, on the block's LSB pages only, passing its CSB and MSB pages over: no program of
// a backup page's word line ever follows it, so no cut can destroy it once done
// (die.Die.Cut loses a 2D page only during a program of its own word line). A one-shot or
// two-pass part without pSLC mode has no such page: no backup (the Flush waits, as before).
//
// Its data: a provisional page on a one-shot or two-pass part is still in DRAM (final.go
// keeps its in-flight record), so the copy is programmed from there; on a 2D part the
// buffer released it at its program's completion, so the zone page is read back first (a
// GC-like read: tR and the transfer, then the program). The backup page's spare area
// carries the zone page's out-of-band record (logical page, sequence number); a Flush
// waiting on a zone page is satisfied once its backup has completed.
//
// Reclaim: a backup page is needed until its zone page is final (the zone's later writes
// reach its word line's finalizing page) or erased (a reset); when every page of a full
// backup block is no longer needed the block is erased and a free block of its plane takes
// its place in the area. Recovery (recovery.go) finds the backup pages by their block's
// header (the first page's program names the block a backup block, as the SLC header of
// recoverymode.go names its mode) and maps a logical page to its backup copy when the
// zone's own copy did not survive; a backup record of a zone reset after it was taken
// (its sequence number not above the zone's reset mark, which the zone table records
// durably with the reset) is ignored, so a reset zone's old data never comes back.

// zoneBackup is the backup area's state; on is false without a zoned namespace, without
// word-line finality (firmware.power_loss.enabled off, the control durable_at_done, SLC
// dies) or on a part with no page final at its own program.
type zoneBackup struct {
	on    bool
	slc   bool  // backup pages are programmed in the die's pSLC mode
	pages []int // the page indices of a backup block that are written, in order
	dies  []bakDie
	live  []int32    // per block: backup pages of it still needed (only backup blocks count)
	hdr   bitset.Set // per block: its first backup page is on flash (the block's header)
	recs  []*bakRec
	free  []int32
	// starved: a save found no backup page; a reclaim's end saves again.
	starved bool
	// noCompact turns compaction off (a test's control: the area can then fill with
	// blocks each holding a page still needed).
	noCompact bool
	// inflight counts backup programs issued and not complete (the hold-up drain waits).
	inflight int
	// Pages counts backup pages programmed, Reads the zone pages read back for them,
	// Erases the backup blocks erased, Starved the saves that found the area full,
	// Compactions the blocks compacted and Moved the pages copied again for them.
	Pages, Reads, Erases, Starved, Compactions, Moved int64
}

// bakDie is one die's part of the area.
type bakDie struct {
	blocks []ftl.BlockID // the reserved blocks
	state  []uint8       // bakReady, bakFilling, bakFull, bakErasing
	cur    int           // the block being filled (index), −1 for none
	next   int           // the next index of zoneBackup.pages in it
	erase  []*bakErase   // per reserved block: its erase's waiter and step
}

const (
	bakReady   uint8 = iota // erased, not yet written
	bakFilling              // being written
	bakFull                 // every usable page taken
	bakErasing              // its erase is in flight
)

// bakRec is one backup page: the zone page it copies, where the copy goes, and its state.
type bakRec struct {
	id    int32
	zb    ftl.BlockID // the zone's block
	page  uint16      // the zone page's index in it
	bb    ftl.BlockID // the backup block
	ppn   ftl.PPN     // the backup page
	oob   uint64      // the zone page's out-of-band record
	saved bool        // the backup's program has completed
	owned bool        // the zone page is still provisional (its ring holds the record)
	used  bool        // given out (not in the free list)
	// replaces is the older copy of the same zone page a compaction moves (compactBackup),
	// dropped once this one is done.
	replaces *bakRec
	w        waiter // the read back of a 2D zone page
	stamps   [1]uint64
	read     step
}

// bakErase is a backup block's erase in flight.
type bakErase struct {
	die, i int
	w      waiter
	done   step
}

// zoneBackupField is firmware.power_loss.zone_backup_blocks' field path.
const zoneBackupField = "firmware.power_loss.zone_backup_blocks"

// initBackup sets the area up (after the zones and word-line finality, and after the
// factory-bad scan, so no bad block is reserved): nothing without a zoned namespace or
// word-line finality. It reports a size the configuration gives that cannot hold the
// zoned namespaces' provisional pages (sizeBackup).
func (f *Firmware) initBackup() error {
	want := f.spec.PowerLoss.ZoneBackupBlocks
	switch {
	case want != 0 && !f.ftl.Zoned():
		return fmt.Errorf("%s: %d is set but no namespace is zoned (nvme.namespaces[].type: zoned): the area serves a zone's Flush", zoneBackupField, want)
	case want != 0 && f.fin.page == nil:
		return fmt.Errorf("%s: %d is set but word-line finality is off (firmware.power_loss.controls.durable_at_done, or dies whose every page is final at its program): nothing would be backed up", zoneBackupField, want)
	case !f.ftl.Zoned() || f.fin.page == nil:
		return nil
	}
	z := &f.zbak
	ds := f.flash.Die()
	switch {
	case ds.SLCPages > 0:
		z.slc = true
		for i := range ds.SLCPages {
			z.pages = append(z.pages, i)
		}
	case ds.PageByPage:
		for i := range ds.PagesPerBlock {
			if ds.PageType(i) == nand.LSB {
				z.pages = append(z.pages, i)
			}
		}
	default:
		if want > 0 {
			return fmt.Errorf("%s: %d, but the dies have no page final at its own program (a one-shot or two-pass part without pSLC mode: flash.die.slc)", zoneBackupField, want)
		}
		return nil
	}
	n, err := f.sizeBackup(want, len(z.pages))
	if err != nil {
		return err
	}
	z.on = true
	z.live = make([]int32, f.geo.Blocks())
	z.hdr = bitset.New(f.geo.Blocks())
	z.dies = make([]bakDie, f.geo.Dies())
	for d := range z.dies {
		bd := &z.dies[d]
		bd.cur = -1
		for i := range n {
			pi := d*f.geo.Planes + i%f.geo.Planes
			b, ok := f.ftl.ReserveBlock(pi)
			if !ok {
				return fmt.Errorf("%s: %d blocks a die; plane %d of die %d has no free block left for block %d", zoneBackupField, n, i%f.geo.Planes, d, i)
			}
			bd.blocks = append(bd.blocks, b)
			bd.state = append(bd.state, bakReady)
			e := &bakErase{die: d, i: i}
			e.done = newStep("zoneBackup", "erased", &f.pl.off, func() { f.backupErased(e) })
			bd.erase = append(bd.erase, e)
		}
	}
	return nil
}

// sizeBackup returns the area's blocks a die: want if given (0 takes the size needed),
// checked against what the zoned namespaces can leave provisional on a die at once. That
// is, per die, the active zones' member blocks on it (nvme.namespaces[].zones.max_active,
// every zone of the namespace without a limit; a zone of B blocks has at most ⌈B / dies⌉
// on a die) times the most pages a block holds provisional at once (worked out from the
// finalizing pages: 12 on 2D TLC in the shadow order), in backup blocks of perBlock pages,
// plus one block being erased while another fills and one kept erased for compaction
// (takeBackup). The area may take at most an eighth of a die's blocks.
func (f *Firmware) sizeBackup(want, perBlock int) (int, error) {
	n := len(f.fin.page)
	diff := make([]int, n+2)
	for i, fin := range f.fin.page {
		diff[i+1]++
		diff[int(fin)+1]--
	}
	prov, run := 0, 0
	for p := 1; p <= n; p++ {
		run += diff[p]
		prov = max(prov, run)
	}
	dies := f.geo.Dies()
	members := 0
	for i := range f.ns {
		t := f.ns[i].zns
		if t == nil {
			continue
		}
		active := len(t.zones)
		if t.maxActive > 0 {
			active = min(active, t.maxActive)
		}
		members += active * ((t.stripe + dies - 1) / dies)
	}
	need := 2 + (members*prov+perBlock-1)/perBlock
	limit := f.geo.Planes * f.geo.BlocksPerPlane / 8
	switch {
	case want < 0:
		return 0, fmt.Errorf("%s: %d must not be negative (0 sizes the area: %d blocks a die here)", zoneBackupField, want, need)
	case want == 0 && need > limit:
		return 0, fmt.Errorf("%s: the zoned namespaces can leave %d pages a die provisional at once (%d zone blocks a die × %d pages), %d backup blocks of %d pages; "+
			"more than an eighth of a die's %d blocks: set nvme.namespaces[].zones.max_active", zoneBackupField, members*prov, members, prov, need, perBlock, f.geo.Planes*f.geo.BlocksPerPlane)
	case want == 0:
		return need, nil
	case want < need:
		return 0, fmt.Errorf("%s: %d blocks a die; the zoned namespaces can leave %d pages a die provisional at once (%d zone blocks a die × %d pages), %d blocks of %d backup pages, "+
			"and the area needs one more being erased and one kept for compaction: at least %d blocks",
			zoneBackupField, want, members*prov, members, prov, need-2, perBlock, need)
	case want > limit:
		return 0, fmt.Errorf("%s: %d blocks a die; at most an eighth of a die's %d blocks (%d)", zoneBackupField, want, f.geo.Planes*f.geo.BlocksPerPlane, limit)
	}
	return want, nil
}

// saveZone backs up zone block b's provisional host pages not yet backed up (awaitFinal,
// for a Flush or an FUA write, and the hold-up drain's end). It stops at the first page
// the area has no room for (starved: a reclaim's end saves again).
func (f *Firmware) saveZone(b ftl.BlockID) {
	z := &f.zbak
	ring := f.fin.prov[b]
	die, _, _ := f.geo.BlockAddr(b)
	for i := range ring {
		e := &ring[i]
		if !e.host || e.bak != 0 {
			continue
		}
		r := f.takeBackup(die)
		if r == nil {
			z.starved = true
			z.Starved++
			return
		}
		e.bak = r.id + 1
		f.copyZonePage(r, b, e)
	}
}

// copyZonePage copies provisional page e of zone block b to record r's backup page: from
// DRAM if the page is still there, else read back from the zone first.
func (f *Firmware) copyZonePage(r *bakRec, b ftl.BlockID, e *provPage) {
	zp := f.geo.FirstPage(b) + ftl.PPN(e.page)
	r.zb, r.page, r.owned, r.saved, r.oob = b, e.page, true, false, f.pl.oob[zp]
	if e.pend { // still in DRAM (a latched or coarse word line, final.go)
		f.programBackup(r, e.stamps[0])
		return
	}
	f.zbak.Reads++
	r.w = waiter{pending: 1, ready: f.eng.Now(), then: &r.read, stamps: r.stamps[:]}
	die, _, _ := f.geo.BlockAddr(b)
	op := f.sched.get(opGCRead, die)
	op.ppn, op.w, op.idx = zp, &r.w, 0
	f.sched.enqueue(op)
}

// takeBackup gives out the next backup page of die d in a new record, or nil if the die's
// area has no room now. The last erased block is kept for compaction: when the block being
// filled is full and no other block is erased or being erased, the full block needing the
// fewest of its pages has those pages copied again, from their zone pages, to that last
// block (compactBackup), and is erased once the copies are done. Without it the area could
// fill with blocks each holding a page of a zone that is never written again (the sizing
// bounds the pages needed, not where they lie).
func (f *Firmware) takeBackup(d int) *bakRec {
	z := &f.zbak
	bd := &z.dies[d]
	for {
		if bd.cur >= 0 && bd.next < len(z.pages) {
			return f.nextBackupPage(d)
		}
		if bd.cur >= 0 {
			bd.state[bd.cur] = bakFull
			if z.live[bd.blocks[bd.cur]] == 0 {
				f.reclaimBackup(d, bd.cur)
			}
			bd.cur = -1
		}
		ready, nready, erasing := -1, 0, false
		for i, s := range bd.state {
			switch s {
			case bakReady:
				if ready < 0 {
					ready = i
				}
				nready++
			case bakErasing:
				erasing = true
			}
		}
		switch {
		case nready == 0:
			return nil
		case nready == 1 && !erasing && !z.noCompact:
			if !f.compactBackup(d, ready) {
				return nil
			}
		default:
			bd.cur, bd.next, bd.state[ready] = ready, 0, bakFilling
		}
	}
}

// nextBackupPage takes the next page of die d's block being filled, in a new record.
func (f *Firmware) nextBackupPage(d int) *bakRec {
	z := &f.zbak
	bd := &z.dies[d]
	b := bd.blocks[bd.cur]
	p, ok := f.ftl.ReservedTake(b, z.pages[bd.next])
	if !ok {
		panic(fmt.Sprintf("firmware %s: backup block %d refused page %d", f.name, b, z.pages[bd.next]))
	}
	bd.next++
	z.live[b]++
	r := f.newBackupRec()
	r.bb, r.ppn, r.replaces = b, p, nil
	return r
}

// compactBackup makes die d's last erased block (index to) the one being filled and copies
// into it the needed pages of the full block needing the fewest (none of whose programs is
// in flight): each is copied again from its zone page, and the old copy is dropped once the
// new one is done (backupDone), so a cut meanwhile finds one of them. It reports false if no
// full block can be compacted into the room the new block has.
func (f *Firmware) compactBackup(d, to int) bool {
	z := &f.zbak
	bd := &z.dies[d]
	victim := -1
	for i, s := range bd.state {
		b := bd.blocks[i]
		if s != bakFull || f.inflightBlock[b] > 0 || int(z.live[b]) >= len(z.pages) {
			continue
		}
		if victim < 0 || z.live[b] < z.live[bd.blocks[victim]] {
			victim = i
		}
	}
	if victim < 0 {
		return false
	}
	bd.cur, bd.next, bd.state[to] = to, 0, bakFilling
	vb := bd.blocks[victim]
	z.Compactions++
	for _, old := range z.recs {
		if !old.used || old.bb != vb || !old.owned || !old.saved {
			continue
		}
		for i := range f.fin.prov[old.zb] {
			e := &f.fin.prov[old.zb][i]
			if e.bak != old.id+1 {
				continue
			}
			r := f.nextBackupPage(d)
			e.bak = r.id + 1 // e stays saved: the old copy is kept until the new one is done
			old.owned = false
			f.copyZonePage(r, old.zb, e)
			r.replaces = old
			z.Moved++
		}
	}
	return true
}

// newBackupRec returns a free record (a new one gets its id and its read step).
func (f *Firmware) newBackupRec() *bakRec {
	z := &f.zbak
	if n := len(z.free); n > 0 {
		r := z.recs[z.free[n-1]]
		z.free = z.free[:n-1]
		r.used = true
		return r
	}
	r := &bakRec{id: int32(len(z.recs)), used: true}
	z.recs = append(z.recs, r)
	r.read = newStep("zoneBackup", "read", &f.pl.off, func() { f.backupRead(r) })
	return r
}

// detachBackup clears the zone page's reference to record r (given up: its page is backed
// up again, or not at all) and frees r.
func (f *Firmware) detachBackup(r *bakRec) {
	if r.owned {
		for i := range f.fin.prov[r.zb] {
			if e := &f.fin.prov[r.zb][i]; e.bak == r.id+1 {
				e.bak, e.saved = 0, false
			}
		}
	}
	r.owned, r.saved = false, true
	if old := r.replaces; old != nil {
		r.replaces = nil
		f.dropBackup(old)
	}
	f.dropBackup(r)
}

// backupRead goes on with record r once its zone page has been read back: it programs the
// copy, or, if the read stayed uncorrectable, gives the backup up (the page's Flush waits
// for its finality, as without the area).
func (f *Firmware) backupRead(r *bakRec) {
	if r.w.failed {
		f.zbak.Starved++
		f.detachBackup(r) // nothing in flight for it
		return
	}
	f.programBackup(r, r.stamps[0])
}

// programBackup queues the program of r's backup page with data stamp.
func (f *Firmware) programBackup(r *bakRec, stamp uint64) {
	z := &f.zbak
	die, _, _ := f.geo.BlockAddr(r.bb)
	op := f.sched.get(opBackup, die)
	op.ppn, op.stamp, op.idx = r.ppn, stamp, int(r.id)
	op.oob[0] = r.oob
	op.tx.SLC = z.slc // reset at its completion: the op returns to the pool
	f.inflightBlock[r.bb]++
	z.inflight++
	f.sched.enqueue(op)
}

// backupDone completes a backup page's program: its record goes on flash, the Flushes
// waiting on its zone page look again, and the page is dropped if its zone page became
// final (or was reset) meanwhile.
func (f *Firmware) backupDone(op *flashOp) {
	z := &f.zbak
	op.tx.SLC = false
	r := z.recs[op.idx]
	f.pl.recordProgram(op)
	f.inflightBlock[r.bb]--
	z.inflight--
	z.Pages++
	if r.ppn == f.geo.FirstPage(r.bb)+ftl.PPN(z.pages[0]) {
		z.hdr.Put(int(r.bb), true)
	}
	r.saved = true
	if old := r.replaces; old != nil {
		r.replaces = nil
		f.dropBackup(old) // a compaction's new copy is done: the old one goes
	}
	if !r.owned {
		f.dropBackup(r)
	} else {
		for i := range f.fin.prov[r.zb] {
			if e := &f.fin.prov[r.zb][i]; e.bak == r.id+1 {
				e.saved = true
			}
		}
		if len(f.fin.waits) > 0 {
			f.flushesLook()
		}
	}
	f.backupDrained()
}

// backupFailed handles a backup program the die reported failed: the page is given up
// (its backup block is closed: no more of it is used) and its zone page is backed up
// again, on another page.
func (f *Firmware) backupFailed(op *flashOp) {
	z := &f.zbak
	op.tx.SLC = false
	r := z.recs[op.idx]
	f.inflightBlock[r.bb]--
	z.inflight--
	d, _, _ := f.geo.BlockAddr(r.bb)
	if bd := &z.dies[d]; bd.cur >= 0 && bd.blocks[bd.cur] == r.bb {
		bd.next = len(z.pages)
	}
	owned, zb := r.owned, r.zb
	f.detachBackup(r)
	if owned {
		f.saveZone(zb)
	}
	f.backupDrained()
}

// unrefBackup is told that the zone page of backup record id−1 is no longer provisional
// (final, or its block erased): the backup page is dropped once its program is done.
func (f *Firmware) unrefBackup(id int32) {
	r := f.zbak.recs[id-1]
	r.owned = false
	if r.saved {
		f.dropBackup(r)
	}
}

// dropBackup frees record r: its backup page is no longer needed; a full block none of
// whose pages is needed is erased.
func (f *Firmware) dropBackup(r *bakRec) {
	z := &f.zbak
	b := r.bb
	z.live[b]--
	r.used = false
	z.free = append(z.free, r.id)
	if z.live[b] > 0 {
		return
	}
	d, _, _ := f.geo.BlockAddr(b)
	bd := &z.dies[d]
	for i, x := range bd.blocks {
		if x == b && bd.state[i] == bakFull {
			f.reclaimBackup(d, i)
		}
	}
}

// reclaimBackup erases backup block i of die d: its records go (the block's contents are
// undefined once its erase starts), and a free block of its plane replaces it when the
// erase completes (backupErased).
func (f *Firmware) reclaimBackup(d, i int) {
	z := &f.zbak
	bd := &z.dies[d]
	b := bd.blocks[i]
	bd.state[i] = bakErasing
	f.pl.eraseIssued(f, b)
	z.hdr.Put(int(b), false)
	e := bd.erase[i]
	e.w = waiter{pending: 1, then: &e.done}
	op := f.sched.get(opErase, d)
	op.ppn, op.w = f.geo.FirstPage(b), &e.w
	f.sched.enqueue(op)
}

// backupErased completes a backup block's erase: the block returns to its plane's free list
// (or is retired if the erase failed) and a free block of the plane (of the die, if the
// plane has none) takes its place in the area; a starved save goes on.
func (f *Firmware) backupErased(e *bakErase) {
	z := &f.zbak
	bd := &z.dies[e.die]
	b := bd.blocks[e.i]
	if e.w.failed {
		f.retire(b)
	} else {
		f.ftl.Erase(b)
	}
	z.Erases++
	_, plane, _ := f.geo.BlockAddr(b)
	nb, ok := f.ftl.ReserveBlock(e.die*f.geo.Planes + plane)
	for p := 0; !ok && p < f.geo.Planes; p++ {
		nb, ok = f.ftl.ReserveBlock(e.die*f.geo.Planes + p)
	}
	if !ok {
		panic(fmt.Sprintf("firmware %s: die %d has no free block for its zone backup area", f.name, e.die))
	}
	bd.blocks[e.i], bd.state[e.i] = nb, bakReady
	if z.starved {
		z.starved = false
		for _, zb := range f.fin.blocks {
			if f.ftl.ZoneBlock(zb) {
				f.saveZone(zb)
			}
		}
	}
}

// backupDrained ends the hold-up drain waiting for its backups (drainPads) once none is in
// flight and no pad either.
func (f *Firmware) backupDrained() {
	fi := &f.fin
	if fi.drainWait && fi.pads == 0 && f.zbak.inflight == 0 {
		fi.drainWait = false
		if f.buf.Dirty() == 0 {
			f.drainIdle()
		}
	}
}

// backupBlock reports whether block b carries a backup block's header on flash (recovery).
func (z *zoneBackup) backupBlock(b ftl.BlockID) bool { return z.on && z.hdr.Has(int(b)) }

// staleBackup reports whether a backup record of logical page lpn with sequence number seq
// predates a reset of its zone (the zone table's reset mark): recovery ignores it.
func (f *Firmware) staleBackup(lpn int64, seq uint64) bool {
	for i := range f.ns {
		ns := &f.ns[i]
		t := ns.zns
		if t == nil || lpn < ns.base || lpn >= ns.base+int64(len(t.zones))*t.zonePages {
			continue
		}
		return seq <= t.zones[(lpn-ns.base)/t.zonePages].resetSeq
	}
	return false
}
