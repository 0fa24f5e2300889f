package channel

import (
	"math/bits"

	"github.com/fastdrain-sim/fastdrain/die"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// The transaction state machine: arbitration, and what happens at the end of each phase.

// dispatch gives an idle bus to the next phase: first a transaction whose array work is done
// and that needs the bus (data-out or status), else the best startable new transaction.
// On dies with independent plane reads a read command to a free plane goes first: its few
// hundred nanoseconds of bus start a tR of tens of microseconds that would otherwise wait
// for every data-out queued (a die's planes would sense one after another, not together);
// the data-outs wait at most one command per free plane.
func (c *Channel) dispatch(now sim.Time) {
	if c.busBusy {
		return
	}
	if c.indep && c.queued > 0 && c.ready.head != nil {
		if tx := c.pick(now, true); tx != nil {
			c.queued--
			c.startIssue(tx, now)
			return
		}
	}
	if tx := c.ready.pop(); tx != nil {
		c.startOut(tx, now)
		return
	}
	if c.queued == 0 {
		return
	}
	if tx := c.pick(now, false); tx != nil {
		c.queued--
		c.startIssue(tx, now)
	}
}

// pick removes and returns the transaction the policy starts next (a read, if readsOnly),
// or nil if no queued transaction's die can take it now.
func (c *Channel) pick(now sim.Time, readsOnly bool) *Transaction {
	var best *Transaction
	// The ways that may have a candidate, in order: the set's words are walked directly,
	// clearing the lowest bit each step (Set.Next per member was 5 % slower in flashbench).
	for k, word := range c.candWays {
		for ; word != 0; word &= word - 1 {
			cand := c.candidate(&c.ways[k<<6|bits.TrailingZeros64(word)], now, readsOnly)
			if cand != nil && (best == nil || c.before(cand, best)) {
				best = cand
			}
		}
	}
	if best != nil {
		w := &c.ways[best.Die]
		if best.Kind == Read {
			w.reads.remove(best) // the head but on dies with independent plane reads
		} else {
			w.writes.pop()
		}
	}
	return best
}

// noteWay updates way i's bit in candWays after its queues, owner or reader changed. A way
// can have a candidate (startable) only if no read has suspended its die's operation, and
// either its die is free and something is queued, or a read is queued (which may suspend a
// program or erase): every other way's candidate is nil.
func (c *Channel) noteWay(i int) {
	w := &c.ways[i]
	c.candWays.Put(i, w.reader == nil && (w.owner == nil && w.readPlanes == 0 && w.writes.head != nil || w.reads.head != nil ||
		c.cacheProg && w.cached == nil && w.owner != nil && w.writes.head != nil)) // cacheprog.go
}

// candidate returns the transaction die w would start next under the policy (nil unless it
// is a read, if readsOnly), if its die can take it now.
func (c *Channel) candidate(w *way, now sim.Time, readsOnly bool) *Transaction {
	r, wr := w.reads.head, w.writes.head
	if readsOnly && r == nil {
		return nil
	}
	if c.spec.Policy == ReadFirst {
		if r != nil && c.startable(w, r, now) {
			return r
		}
		if c.indep && r != nil { // a later read of a free plane may start (planes.go in package die)
			for x := r.next; x != nil; x = x.next {
				if c.startable(w, x, now) {
					return x
				}
			}
		}
		if wr != nil && !readsOnly && c.startable(w, wr, now) {
			return wr
		}
		return nil
	}
	head := r
	if head == nil || (wr != nil && wr.seq < r.seq) {
		head = wr
	}
	if head != nil && (!readsOnly || head == r) && c.startable(w, head, now) {
		return head
	}
	return nil
}

// startable reports whether tx's die can take it now: the die is free, or tx is a read
// allowed to suspend (MaySuspend) and the die's program or erase can be suspended for it.
// On a die with independent plane reads the reads in flight hold only their planes: a
// read may start when its own planes are free, a program or erase when every plane is.
func (c *Channel) startable(w *way, tx *Transaction, now sim.Time) bool {
	if w.reader != nil {
		return false
	}
	if w.owner == nil {
		if tx.Kind == Read {
			return w.readPlanes&tx.planes == 0
		}
		return w.readPlanes == 0
	}
	if c.cacheProg && tx.Kind == Program {
		return c.cacheable(w, tx) // cacheprog.go
	}
	return tx.Kind == Read && tx.MaySuspend && w.owner.Kind != Read && w.die.Suspendable(now)
}

// before orders two candidates: under ReadFirst reads come first; then submission order.
func (c *Channel) before(a, b *Transaction) bool {
	if c.spec.Policy == ReadFirst && (a.Kind == Read) != (b.Kind == Read) {
		return a.Kind == Read
	}
	return a.seq < b.seq
}

// xfer returns the bus time of tx's data per plane.
func (c *Channel) xfer(tx *Transaction) sim.Time {
	if tx.Bytes == 0 || tx.Bytes == c.spec.Die.PageSize {
		return c.pageXfer
	}
	return c.spec.ONFI.Transfer(tx.Bytes)
}

// bytes returns tx's data bytes per plane.
func (c *Channel) bytes(tx *Transaction) int64 {
	if tx.Bytes == 0 {
		return int64(c.spec.Die.PageSize)
	}
	return int64(tx.Bytes)
}

// startIssue puts tx's command (and, for a program, its data) on the bus.
func (c *Channel) startIssue(tx *Transaction, now sim.Time) {
	w := &c.ways[tx.Die]
	if w.owner == nil {
		if c.indep && tx.Kind == Read {
			w.readPlanes |= tx.planes
		} else {
			w.owner = tx
		}
		tx.Suspended = false
	} else if tx.Kind == Program {
		w.cached, tx.Suspended = tx, false // into the cache register (startable checked it, cacheprog.go)
		c.stats.Cached++
	} else {
		w.reader = tx // suspends the owner's program or erase (startable checked it)
		tx.Suspended = true
	}
	c.noteWay(tx.Die) // pick popped tx from its queue
	tx.BusStart = now
	tx.state = stIssue
	n := len(tx.Addrs)
	end := now
	switch tx.Kind {
	case Read:
		end += c.readCmd[n]
		c.bus.Occupy(now, end, c.actCmd)
	case Erase:
		end += c.eraseCmd[n]
		c.bus.Occupy(now, end, c.actCmd)
	case Program:
		x := c.xfer(tx)
		if c.twoPass && !tx.SLC { // a word line's last page sends the fine pass's data again (die.Spec.ResendBytes)
			x += c.spec.ONFI.Transfer(c.spec.Die.ResendBytes(tx.Addrs[0].Page))
		}
		cmdStart := now
		for p := range n {
			end += c.progSetup[n][p]
			c.bus.Occupy(cmdStart, end, c.actCmd)
			c.bus.Occupy(end, end+x, c.actIn)
			end += x
			cmdStart = end
			end += c.progConfrm[n][p]
		}
		c.bus.Occupy(cmdStart, end, c.actCmd)
	}
	c.busBusy = true
	c.eng.SchedulePhase(end, sim.PhaseHardware, c, tx, evBus)
}

// startOut puts the data-out of a read (or the status poll of a program or erase) on the
// bus.
func (c *Channel) startOut(tx *Transaction, now sim.Time) {
	tx.state = stOut
	end := now
	if c.spec.StatusPoll {
		end += c.status
		if tx.Kind == Read {
			end += c.spec.ONFI.CmdAddr(1, 0) // 00h: back to read mode before data-out
		}
	}
	if tx.Kind == Read {
		n := len(tx.Addrs)
		x := c.xfer(tx)
		cmdStart := now
		for p := range n {
			end += c.outSetup[n][p]
			c.bus.Occupy(cmdStart, end, c.actCmd)
			c.bus.Occupy(end, end+x, c.actOut)
			end += x
			cmdStart = end
		}
	} else {
		c.bus.Occupy(now, end, c.actCmd)
	}
	c.busBusy = true
	c.eng.SchedulePhase(end, sim.PhaseHardware, c, tx, evBus)
}

// busDone handles the end of tx's bus phase: the command reached the die, or the data-out
// or status finished.
func (c *Channel) busDone(tx *Transaction, now sim.Time) {
	d := c.ways[tx.Die].die
	if tx.state == stOut {
		if tx.retryLeft > 0 {
			c.retry(tx, d, now)
			return
		}
		c.complete(tx, now)
		return
	}
	if c.cacheProg && tx == c.ways[tx.Die].cached {
		tx.state = stCached // the array is still the owner's: tPROG starts when it completes
		return
	}
	c.startArray(tx, d, now)
}

// startArray starts tx's array work on die d (its command has reached the die).
func (c *Channel) startArray(tx *Transaction, d *die.Die, now sim.Time) {
	var end sim.Time
	tx.Failed = 0
	switch tx.Kind {
	case Read:
		if tx.SLC {
			end = d.ReadSLC(now, tx.Addrs, tx.Stamps)
		} else {
			end = d.Read(now, tx.Addrs, tx.Stamps)
		}
		tx.Failed = failedAddrs(d.Failed(), tx.Addrs)
		tx.retryLeft, tx.Retries = d.ReadRetries(), 0
	case Program:
		if tx.SLC {
			end = d.ProgramSLC(now, tx.Addrs, tx.Stamps)
		} else {
			end = d.Program(now, tx.Addrs, tx.Stamps)
		}
		tx.Failed = failedAddrs(d.Failed(), tx.Addrs)
	case Erase:
		end = d.Erase(now, tx.Addrs)
		tx.Failed = failedAddrs(d.Failed(), tx.Addrs)
	}
	tx.ArrayStart, tx.ArrayEnd = now, end
	tx.state = stArray
	if end == now { // a one-shot page that only loads the die's registers
		c.arrayDone(tx, now)
		return
	}
	c.eng.SchedulePhase(end, sim.PhaseHardware, c, tx, evArray)
}

// arrayDone handles the end of tx's array work. A program or erase that a read suspended
// ends later than first scheduled: the event is re-armed at the new end.
func (c *Channel) arrayDone(tx *Transaction, now sim.Time) {
	if tx.Kind != Read {
		d := c.ways[tx.Die].die
		if !d.Complete(now) {
			c.eng.SchedulePhase(d.BusyUntil(), sim.PhaseHardware, c, tx, evArray)
			return
		}
		tx.ArrayEnd = now
		if !c.spec.StatusPoll {
			c.complete(tx, now)
			return
		}
	}
	tx.state = stWaitBus
	c.ready.push(tx)
}

// complete finishes tx: frees its die, counts it, and notifies its Done handler.
func (c *Channel) complete(tx *Transaction, now sim.Time) {
	w := &c.ways[tx.Die]
	if w.reader == tx {
		w.reader = nil
	} else if w.owner == tx {
		w.owner = nil
		if w.cached != nil {
			c.promote(w, now) // cacheprog.go
		}
	} else {
		w.readPlanes &^= tx.planes // a read of a die with independent plane reads
	}
	c.noteWay(tx.Die)
	w.count--
	tx.Completed = now
	tx.state = stFree
	b := c.bytes(tx) * int64(len(tx.Addrs))
	switch tx.Kind {
	case Read:
		c.stats.Reads++
		c.stats.BytesOut += b
	case Program:
		c.stats.Programs++
		c.stats.BytesIn += b
		if c.twoPass && !tx.SLC {
			c.stats.BytesIn += int64(c.spec.Die.ResendBytes(tx.Addrs[0].Page) * len(tx.Addrs))
		}
	case Erase:
		c.stats.Erases++
	}
	if tx.Done != nil {
		// Field by field: a literal holding interfaces is built in a temporary and copied
		// over. The unexported fields stay zero (only this line writes the note).
		n := &c.note
		n.Time, n.Handler, n.Data, n.Code = now, tx.Done, tx, int64(tx.Kind)
		tx.Done.HandleEvent(&c.note)
	}
}

// retry runs one read-retry step of tx after its data-out (the ECC could not decode it):
// another tR on the die (die.Die.Retry), then the data-out again (arrayDone queues it).
// The die stays tx's: no other operation starts on it between the steps.
func (c *Channel) retry(tx *Transaction, d *die.Die, now sim.Time) {
	tx.retryLeft--
	tx.Retries++
	end := d.Retry(now, tx.Addrs)
	tx.state = stArray
	c.eng.SchedulePhase(end, sim.PhaseHardware, c, tx, evArray)
}

// failedAddrs turns the die's failed planes into the transaction's failed addresses (bit i
// for addrs[i]).
func failedAddrs(planes uint64, addrs []die.Addr) uint64 {
	if planes == 0 {
		return 0
	}
	var m uint64
	for i, a := range addrs {
		if planes&(1<<uint(a.Plane)) != 0 {
			m |= 1 << uint(i)
		}
	}
	return m
}
