package firmware

import (
	"github.com/fastdrain-sim/fastdrain/firmware/buffer"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nand"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// evictor is the buffer manager: it decides, by policy, when to write buffered pages to
// flash, to which dies, and whether in the foreground (urgent: LSB pages under the
// latency-aware allocator) or the background. It works in rounds, one after the other
// while a round sends pages, and otherwise waits to be notified. A round is a decision
// (one run-to-completion step, charged Cycles.Evict on core 0) followed by the issue of its
// programs in steps of at most Buffer.IssueBatch pages (each charged per page on core 0),
// so the HIL's steps that share the core run between them, as a firmware main loop serves
// its host queues between flash requests. Between issue steps the decision is looked at
// again (a state check, inside the round's Evict charge): a round whose mode has changed
// ends, and the next is decided afresh.
type evictor struct {
	f          *Firmware
	on         evictorSteps
	policy     EvictionPolicy
	view       BufferView // shown to the policy (kept here so it is not allocated per round)
	waiting    bool
	retrying   bool // a retry the policy asked for is armed
	bgInFlight int  // background programs in flight
	// bgOwed is the background pages the latest internal buffer eviction still owes to the
	// dies idle of host work under the per-eviction rule (backgroundset.go); 0 otherwise.
	bgOwed  int
	dieRR   int // the die a round starts at, round robin
	victims []buffer.Victim
	modeLog []ModeChange
	// The round in progress, between its issue steps: its mode, the pages it may still send
	// (Decision.Pages), and where in its visit of the dies the next step goes on (the pass
	// and the place in the scheduler's interleaved order; start is the round's first place).
	mode         EvictMode
	left         int
	start        int
	pass, cursor int
	batchFull    bool // the last issue step sent a whole batch
	midVisit     bool // the step stopped inside a foreground visit to the die at cursor
	visitRoom    int  // the programs that visit may still send
	// extraUnits counts the units a round's programs carried beyond one each (sub-page
	// mapping), charged Cycles.Allocate each with the round's issue.
	extraUnits int64
	// idleDies is the round's Decision.IdleDies: a background round sends only to dies idle
	// of host work (activity.go).
	idleDies bool
	// A foreground round under an allocator that gives fast pages (ftl.FastPager) first
	// sends only to dies with an LSB page to take without skipping (fastOnly), across all
	// dies; a round that could send nothing that way although a die with room lacked one
	// (sawSlow) visits the dies again letting the allocator skip or take slower pages.
	// roundSent counts the round's pages over its issue steps.
	fastOnly, sawSlow bool
	roundSent         int
	// The evictor's mode for Stats.ForegroundTime: whether its last decision was
	// foreground, and since when.
	fgOn    bool
	fgSince sim.Time
	// hintEp: the policy's foreground mode in force was started by the hint (LogSwitch),
	// for Stats.HintActedOn.
	hintEp bool
}

// evictorSteps are the evictor's steps.
type evictorSteps struct {
	round   step // start a round
	decided step // the round's decision has been computed
	issued  step // an issue step's allocations and issues have been computed
	retry   step // the policy's retry time has come
}

// bind binds the evictor's steps; none runs once the firmware has stopped.
func (ev *evictor) bind() {
	off := &ev.f.pl.off
	ev.on = evictorSteps{
		round:   newStep("evictor", "round", off, ev.round),
		decided: newStep("evictor", "decided", off, ev.decided),
		issued:  newStep("evictor", "issued", off, ev.issued),
		retry:   newStep("evictor", "retry", off, ev.retry),
	}
}

// noLimit is a round's page budget when its decision sets none.
const noLimit = int(^uint(0) >> 1)

// notify starts a round if the evictor is waiting (a signal's Notify).
func (ev *evictor) notify() {
	if ev.waiting {
		ev.waiting = false
		ev.f.at(ev.f.eng.Now(), &ev.on.round)
	}
}

// retry is the policy's retry time: the evictor looks again.
func (ev *evictor) retry() {
	ev.retrying = false
	ev.notify()
}

// compute charges n cycles of eviction work on core 0 and arms step then for when it
// ends; it reports false, having charged nothing, if n ≤ 0 (the caller goes on at once).
func (ev *evictor) compute(n int64, then *step) bool {
	f := ev.f
	if n <= 0 {
		return false
	}
	f.compute(0, WorkEvict, n, then)
	return true
}

// round starts a round: unless there is nothing to do, it computes the decision.
func (ev *evictor) round() {
	f := ev.f
	if f.buf.Dirty() == 0 {
		ev.setMode(EvictIdle)
		ev.waiting = true
		if f.pl.cut {
			f.drainIdle()
		}
		return
	}
	if d := ev.decide(); d.Mode == EvictIdle {
		ev.wait(d) // nothing to do until notified (an on-demand policy: until a write waits)
		return
	}
	if !ev.compute(f.spec.Cycles.Evict, &ev.on.decided) {
		ev.decided()
	}
}

// decided begins the round's issue, or waits if the round sends nothing.
func (ev *evictor) decided() {
	f := ev.f
	d := ev.decide() // the state may have moved while the decision was computed
	if d.Mode == EvictIdle {
		ev.wait(d) // the write it was for found room meanwhile
		return
	}
	ev.setMode(d.Mode)
	ev.mode, ev.left, ev.idleDies = d.Mode, d.Pages, d.IdleDies
	if ev.left <= 0 {
		ev.left = noLimit
	}
	ev.start, ev.pass, ev.cursor, ev.midVisit = ev.dieRR, 0, ev.dieRR, false
	ev.fastOnly = d.Mode == EvictForeground && f.fastPaging && !f.pl.cut
	ev.sawSlow, ev.roundSent = false, 0
	ev.dieRR = (ev.dieRR + 1) % f.geo.Dies()
	if n := ev.step(); n == 0 {
		ev.wait(d)
	}
}

// step issues up to IssueBatch of the round's pages and charges their work; it returns how
// many it sent. When their work is charged, issued goes on with the round.
func (ev *evictor) step() int {
	f := ev.f
	n := f.evictRound(ev.mode, min(ev.left, f.spec.Buffer.IssueBatch))
	if n == 0 {
		return 0
	}
	ev.roundSent += n
	ev.evicted(ev.mode)
	if ev.left != noLimit {
		ev.left -= n
	}
	c := int64(n)*(f.spec.Cycles.Allocate+f.spec.Cycles.FlashIssue) + ev.extraUnits*f.spec.Cycles.Allocate
	ev.extraUnits = 0
	ev.batchFull = n == f.spec.Buffer.IssueBatch
	if !ev.compute(c, &ev.on.issued) {
		ev.issued()
	}
	return n
}

// issued goes on after an issue step: a step that filled its batch is followed by the
// round's next step while the round's mode holds and it may send more; otherwise (the
// round sent all it could, or its mode changed) a new round is decided, as a round that
// sent pages is followed by another.
func (ev *evictor) issued() {
	if ev.batchFull && ev.left > 0 && ev.pass < 2 {
		if d := ev.decide(); d.Mode == ev.mode && ev.step() > 0 {
			return
		}
	}
	ev.round()
}

// wait makes the evictor wait to be notified, and arms the policy's retry if it asked for
// one (one is armed at a time: a later one waits for it).
func (ev *evictor) wait(d Decision) {
	ev.setMode(d.Mode) // a foreground round that found no die with room is still foreground
	ev.waiting = true
	if ev.f.pl.cut {
		ev.f.drainIdle()
		return
	}
	if now := ev.f.eng.Now(); d.Retry > now && !ev.retrying {
		ev.retrying = true
		ev.f.at(d.Retry, &ev.on.retry)
	}
}

// setMode records the mode of the evictor's latest decision for Stats.ForegroundTime: the
// time from a decision to evict in the foreground (sending pages or waiting for a die with
// room) to the next decision that is not, or to a round that finds nothing dirty.
func (ev *evictor) setMode(m EvictMode) {
	fg := m == EvictForeground
	if fg == ev.fgOn {
		return
	}
	f := ev.f
	now := f.eng.Now()
	ev.fgOn = fg
	if fg {
		ev.fgSince = now
	} else {
		f.Stats.ForegroundTime += now - ev.fgSince
	}
}

// StatsAt returns the counters as of now: Stats with a foreground episode still in force
// counted up to now.
func (f *Firmware) StatsAt(now sim.Time) Stats {
	s := f.Stats
	if ev := &f.evict; ev.fgOn && now > ev.fgSince {
		s.ForegroundTime += now - ev.fgSince
	}
	return s
}

// decide shows the policy the buffer and returns its decision.
func (ev *evictor) decide() Decision {
	f := ev.f
	if f.pl.cut {
		return Decision{Mode: EvictForeground} // the hold-up drain: everything, to every die
	}
	v := &ev.view
	occ := f.buf.Occupancy()
	// Every field, one by one: a composite literal would be built on the stack and copied.
	v.Now, v.Capacity, v.Occupancy, v.Dirty = f.eng.Now(), f.buf.Capacity(), occ, f.buf.Dirty()
	v.Reserved, v.Announced, v.Watermarks = f.wb.reserved, f.announced(), f.spec.Buffer.Watermarks
	v.RoomWaits, v.Flushes, v.ev = f.wb.roomWaiters, f.wb.flushers, ev
	v.Evictions = f.Stats.ForegroundEvictions + f.Stats.BackgroundEvictions
	v.Predicted = int64(occ) + v.Announced + int64(v.Reserved)
	d := ev.policy.Decide(v)
	if ev.paced(d) {
		return Decision{Mode: EvictIdle, Retry: d.Retry} // no eviction owes a set (per-eviction)
	}
	return d
}

// evictRound issues up to limit pages of the round in progress in mode and returns how many
// it sent. A round visits, in channel-first interleaved order from its round-robin start
// (ev.start), the dies in the scheduler's open set for the mode: foreground fills each up to
// ForegroundPerDie programs queued; background sends one page to each, up to the background
// budget in flight (bgBudget). A call that stops at limit leaves the round's place (ev.pass, ev.cursor) where
// the next call goes on: at the die it was filling (foreground) or the one after it
// (background), so the round's issue steps together send what one uninterrupted round would.
func (f *Firmware) evictRound(mode EvictMode, limit int) int {
	ev := &f.evict
	fg := mode == EvictForeground
	dies := f.geo.Dies()
	open := f.sched.bgOpen
	if fg {
		open = f.sched.fgOpen
	}
	issued := 0
again:
	for ; ev.pass < 2; ev.pass, ev.cursor = ev.pass+1, 0 {
		hi := dies // from the start to the end, then round to the start
		if ev.pass == 1 {
			hi = ev.start
		}
		for p := open.Next(ev.cursor, hi); p < hi && f.buf.Dirty() > 0; p = open.Next(p+1, hi) {
			if issued == limit {
				ev.cursor = p
				return issued
			}
			g := int(f.sched.order[p])
			if fg {
				// A visit fills the die to ForegroundPerDie programs queued. A visit cut by
				// the step's limit goes on with the room the die had at the cut, although
				// the die may have taken queued programs into its channel since: the round
				// sends what it would have sent uninterrupted.
				resumed := ev.midVisit && p == ev.cursor
				room := ev.visitRoom
				ev.midVisit = false
				for (resumed && room > 0) || (!resumed && f.sched.queuedPrograms(g) < f.spec.Buffer.ForegroundPerDie) {
					if f.buf.Dirty() == 0 {
						break
					}
					if ev.fastOnly && !f.ftl.HasFastPage(g) {
						// No LSB page on this die without skipping: leave it to another die's.
						ev.sawSlow = true
						f.Stats.ForegroundSlowDies++
						break
					}
					if issued == limit {
						if !resumed {
							room = f.spec.Buffer.ForegroundPerDie - f.sched.queuedPrograms(g)
						}
						ev.cursor, ev.midVisit, ev.visitRoom = p, true, room
						return issued
					}
					if !f.evictOne(g, ftl.Foreground) {
						break
					}
					issued++
					room--
				}
				continue
			}
			if ev.bgInFlight >= f.bgBudget || (ev.idleDies && ev.owesNone()) {
				ev.pass = 2 // the round is done (its budget, or the owed set, spent)
				return issued
			}
			// Background: one page to an open die (bgOpen: no host reads on it and fewer than
			// BackgroundPerDie programs queued), a little at a time; under the idle-die rule
			// only to a die the applications are not using (activity.go).
			if ev.idleDies && f.activity.busy(g, f.eng.Now()) {
				continue
			}
			if f.evictOne(g, ftl.Background) {
				issued++
			}
		}
		if f.buf.Dirty() == 0 {
			ev.pass = 2
			return issued
		}
	}
	if fg && ev.fastOnly && ev.sawSlow && ev.roundSent+issued == 0 {
		// No die with room had a fast page: visit them again, the allocator skipping to an
		// LSB page or taking a slower one within its bounds (ftl.Stats.LSBAfterSkip,
		// FGBounded), so foreground eviction never stalls for want of LSB pages.
		f.Stats.ForegroundFallbacks++
		ev.fastOnly = false
		ev.pass, ev.cursor, ev.midVisit = 0, ev.start, false
		goto again
	}
	return issued
}

// evictOne allocates a flash page on die g for the oldest dirty page and queues its program
// once the data has been read out of DRAM. It reports false when the die has no space
// outside the GC reserve (its GC is woken). Under a hybrid mapping scheme the page goes to
// its home die (ftl.HomeDie) instead, unless that die already has the round's per-die bound
// of programs queued; false then also means its logical block waits for a merge. With
// several units a page it packs them (evictUnits).
func (f *Firmware) evictOne(g int, purpose ftl.Purpose) bool {
	if f.ro.on && !f.pl.cut {
		return false // read-only: nothing more is programmed, but a cut's drain (readonly.go)
	}
	if f.units > 1 {
		return f.evictUnits(g, purpose)
	}
	lpn, ok := f.buf.Oldest()
	if !ok {
		return false
	}
	if f.ftl.Hybrid() { // the page's die is the mapping scheme's (ftl.HomeDie)
		h := f.ftl.HomeDie(lpn)
		limit := f.spec.Buffer.ForegroundPerDie
		if purpose == ftl.Background {
			limit = f.spec.Buffer.BackgroundPerDie
		}
		if h != g && f.sched.queuedPrograms(h) >= limit {
			return false
		}
		g = h
	}
	old := f.ftl.Lookup(lpn)
	ppn, err := f.placeHost(lpn, g, purpose)
	var v buffer.Victim
	switch {
	case err == nil:
		v = f.buf.PickVictims(1, f.evict.victims[:0])[0]
	case f.fdp != nil:
		// Flexible Data Placement: the page's reclaim unit has no room on g; a younger
		// page of another handle may (fdpevict.go).
		var ok bool
		if v, old, ppn, ok = f.placeYounger(lpn, g, purpose); !ok {
			f.gc.tasks[g].notify()
			return false
		}
		lpn = v.LPN
	default:
		f.gc.tasks[g].notify()
		return false
	}
	// Wall-clock only, a pipeline: the next victim's mapping entry was brought into the
	// cache at the previous eviction, so what its write updates can be fetched now; the one
	// after's mapping entry is fetched now (and the buffer entry of the one after that).
	if lpn1, lpn2, n := f.buf.NextVictims(); n > 0 {
		f.ftl.PrefetchRebind(lpn1)
		if n > 1 {
			f.ftl.PrefetchMapping(lpn2)
		}
	}
	op := f.sched.get(opEvict, g)
	op.ppn, op.stamp, op.victim = ppn, v.Version, v
	if f.flows != nil {
		op.flow = f.flows.evicted(v)
	}
	if f.pl.oob != nil {
		f.pl.seq++
		op.oob[0] = Stamp(lpn, f.pl.seq)
	}
	if purpose == ftl.Background {
		op.bg = true
		f.evict.bgInFlight++
		f.evict.spent()
		f.Stats.BackgroundEvictions++
		f.countBackground(g, 1)
	} else {
		f.Stats.ForegroundEvictions++
	}
	f.pending.put(ftl.Unit(ppn), v.Version)
	f.inflightBlock[f.geo.BlockOf(ppn)]++
	f.cover(op, old)
	if f.ftl.NeedsGC(g, f.geo.Addr(ppn).Plane) {
		f.gc.tasks[g].notify()
	}
	// The page leaves DRAM for the channel; the program is queued when it has.
	t := f.mem.Access(f.eng.Now(), f.dramAddr(lpn), f.spec.PageSize, false)
	f.sched.arrive(t, op)
	return true
}

// evictUnits is evictOne with sub-page mapping (k = UnitsPerPage units a flash page): it
// packs the k oldest dirty pages into one flash page on die g, slot i holding the i-th
// oldest, and queues its program once all of their data has been read out of DRAM. With
// fewer than k dirty it programs a padded page only when it must (mustPad), the empty slots
// counted in the FTL's Stats.Padded; otherwise it waits for more writes (false). A page is
// never read-modify-written: the units of a page are always written together, so no slot
// is ever partly valid.
func (f *Firmware) evictUnits(g int, purpose ftl.Purpose) bool {
	k := f.units
	var lpns [ftl.MaxUnitsPerPage]int64
	n := f.buf.OldestN(lpns[:k])
	if n == 0 || (n < k && !f.mustPad()) {
		return false
	}
	var olds [ftl.MaxUnitsPerPage]ftl.Unit
	for i, lpn := range lpns[:n] {
		olds[i] = f.ftl.Lookup(lpn)
	}
	ppn, err := f.placeUnits(lpns[:n], g, purpose)
	if err != nil {
		f.gc.tasks[g].notify()
		return false
	}
	vs := f.buf.PickVictims(n, f.evict.victims[:0])
	op := f.sched.get(opEvict, g)
	op.ppn, op.units = ppn, uint8(n)
	now := f.eng.Now()
	t := now
	u := f.geo.UnitOf(ppn, 0)
	for i := 0; i < k; i++ {
		if i >= n {
			op.ustamps[i], op.oob[i] = nand.ErasedStamp, 0 // a padded slot: programmed with no data
			continue
		}
		v := vs[i]
		op.victims[i], op.ustamps[i] = v, v.Version
		f.cover(op, olds[i])
		if f.pl.oob != nil {
			f.pl.seq++
			op.oob[i] = Stamp(v.LPN, f.pl.seq)
		}
		f.pending.put(u+ftl.Unit(i), v.Version)
		// Each unit leaves its own place in DRAM for the channel.
		t = max(t, f.mem.Access(now, f.dramAddr(v.LPN), f.spec.PageSize, false))
	}
	op.stamp, op.victim = op.ustamps[0], vs[0]
	if purpose == ftl.Background {
		op.bg = true
		f.evict.bgInFlight++
		f.evict.spent()
		f.Stats.BackgroundEvictions += int64(n)
		f.countBackground(g, int64(n))
	} else {
		f.Stats.ForegroundEvictions += int64(n)
	}
	f.evict.extraUnits += int64(n - 1)
	f.inflightBlock[f.geo.BlockOf(ppn)]++
	if f.ftl.NeedsGC(g, f.geo.Addr(ppn).Plane) {
		f.gc.tasks[g].notify()
	}
	f.sched.arrive(t, op)
	return true
}

// mustPad reports whether a page must be programmed with fewer units than it holds: data
// is waited for (a Flush or an FUA write), a write waits for buffer room, or the hold-up
// drain after a power cut is writing out everything.
func (f *Firmware) mustPad() bool {
	return f.pl.cut || f.wb.flushers > 0 || f.wb.roomWaiters > 0
}

// countBackground counts n background pages sent to die g as sent to an idle or a busy die
// (Stats.BackgroundIdle, BackgroundBusy), by the idle-die estimate at now.
func (f *Firmware) countBackground(g int, n int64) {
	if f.activity.busy(g, f.eng.Now()) {
		f.Stats.BackgroundBusy += n
	} else {
		f.Stats.BackgroundIdle += n
	}
}
