package ftl

import "fmt"

// nextMerge implements hybrid: it takes the die's oldest queued log block and plans its
// merge (bast.go): switch, partial or full.
func (b *bast) nextMerge(die int, m *Merge) bool {
	r := &b.run[die]
	if r.active || len(b.queue[die]) == 0 {
		return false
	}
	f := b.f
	q := b.queue[die]
	s := q[0]
	copy(q, q[1:])
	b.queue[die] = q[:len(q)-1]
	f.dies[die].merges--
	l := &b.logs[s]
	d := b.data[l.lbn]
	next := int(f.blocks[l.blk].next)
	*r = mergeRun{active: true, slot: s, lbn: l.lbn, target: l.blk}
	m.Wait, m.Moves, m.Erase = append(m.Wait[:0], l.blk), m.Moves[:0], m.Erase[:0]
	if d != NoBlock {
		m.Wait = append(m.Wait, d)
		m.Erase = append(m.Erase, d)
	}
	switch {
	case l.inOrder && next == b.ppb:
		r.kind = SwitchMerge
	case l.inOrder:
		r.kind = PartialMerge
		if d != NoBlock {
			first := f.g.FirstPage(d)
			for i := next; i < int(f.blocks[d].next); i++ {
				if f.p2l.at(int64(first+PPN(i))) <= maxLPN {
					m.Moves = append(m.Moves, Unit(first+PPN(i)))
				}
			}
		}
	default:
		r.kind = FullMerge
		t, ok := b.open(die, true)
		if !ok {
			panic(fmt.Sprintf("ftl: bast: die %d has no free block for a full merge (ftl.log_blocks validation should have refused this geometry)", die))
		}
		r.target = t
		logical := int64(len(f.l2p))
		for off := 0; off < b.ppb; off++ {
			if lpn := b.lpnOf(l.lbn, off); lpn < logical {
				if u := f.l2p.at(lpn); u != NoUnit {
					m.Moves = append(m.Moves, u)
				}
			}
		}
		m.Erase = append(m.Erase, l.blk)
	}
	m.Kind = r.kind
	return true
}

// move implements hybrid: the copy of old goes to the running merge's block at its offset,
// the offsets before it with no current page left unprogrammed.
func (b *bast) move(old PPN) (PPN, int64) {
	f := b.f
	r := &b.run[f.g.Addr(old).Die]
	lpn, _ := f.Owner(Unit(old))
	lbn, off := b.split(lpn)
	if !r.active || r.lbn != lbn {
		panic(fmt.Sprintf("ftl: bast: page %d (lpn %d) is not part of its die's running merge", old, lpn))
	}
	for int(f.blocks[r.target].next) < off {
		b.waste(r.target)
	}
	if int(f.blocks[r.target].next) != off {
		panic(fmt.Sprintf("ftl: bast: merge copies offset %d of logical block %d after offset %d", off, lbn, f.blocks[r.target].next-1))
	}
	p := f.take(r.target)
	if r.kind == PartialMerge {
		b.logs[r.slot].at[off] = uint16(off + 1)
	}
	f.Stats.GCWrites++
	f.Stats.MergeCopies++
	f.bind(lpn, Unit(p))
	return p, lpn
}

// mergeDone implements hybrid: the merge's block becomes the logical block's data block and
// the log slot is free again. The firmware has erased the merge's Erase blocks.
func (b *bast) mergeDone(die int) {
	r := &b.run[die]
	if !r.active {
		panic(fmt.Sprintf("ftl: bast: MergeDone on die %d with no merge running", die))
	}
	l := &b.logs[r.slot]
	b.data[r.lbn] = r.target
	b.logOf[r.lbn] = -1
	l.lbn, l.blk, l.queued = -1, NoBlock, false
	switch r.kind {
	case SwitchMerge:
		b.f.Stats.SwitchMerges++
	case PartialMerge:
		b.f.Stats.PartialMerges++
	default:
		b.f.Stats.FullMerges++
	}
	r.active = false
}

// MergeNow carries out every queued merge of every die at once, without timing: the moves,
// then the erases (the FTL's part of what the firmware does with timing). Tests of the FTL
// alone use it; page-level mapping has nothing to do.
func (f *FTL) MergeNow() {
	if f.hyb == nil {
		return
	}
	var m Merge
	for die := 0; die < f.g.Dies(); die++ {
		for f.NextMerge(die, &m) {
			for _, old := range m.Moves {
				if _, ok := f.Owner(old); ok {
					f.Relocate(old)
				}
			}
			for _, e := range m.Erase {
				f.Erase(e)
			}
			f.MergeDone(die)
		}
	}
}
