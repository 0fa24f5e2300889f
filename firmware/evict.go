package firmware

import (
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// evictor is the buffer manager's process: it decides, by policy, when to write buffered
// pages to flash, to which dies, and whether in the foreground (urgent: LSB pages under the
// latency-aware allocator) or the background.
func (f *Firmware) evictor(p *sim.Proc) {
	for {
		if f.evictRound(p) == 0 {
			p.Wait(&f.evictSig)
		}
	}
}

// foreground decides the eviction mode for this round.
func (f *Firmware) foreground() bool {
	urgent := f.roomWaiters > 0 || f.flushers > 0
	switch f.spec.Buffer.Policy {
	case FastDrain:
		capP := float64(f.buf.Capacity())
		occ := float64(f.buf.Occupancy())
		predicted := occ + float64(f.announced) + float64(f.reserved)
		wm := f.spec.Buffer.Watermarks
		// Foreground while the announced victimization is predicted to overflow the
		// buffer, and from then on until the occupancy is back under the low watermark.
		fg := predicted >= wm.High*capP || (f.fgMode && occ >= wm.Low*capP)
		if fg != f.fgMode {
			f.fgMode = fg
			f.logMode(int64(predicted))
		}
		return f.fgMode || urgent
	case Oracle:
		return f.flushers > 0
	default:
		return urgent
	}
}

// evictRound issues one round of evictions and returns how many pages it sent.
func (f *Firmware) evictRound(p *sim.Proc) int {
	if f.buf.Dirty() == 0 {
		return 0
	}
	fg := f.foreground()
	if !fg && f.spec.Buffer.Policy == Vanilla {
		return 0 // vanilla evicts on demand only
	}
	core := f.core(0)
	p.Compute(core, f.acts.evict, f.spec.Cycles.Evict)
	fg = f.foreground() // the state may have moved while the decision was computed
	dies := f.geo.Dies()
	issued := 0
	for k := 0; k < dies && f.buf.Dirty() > 0; k++ {
		g := f.geo.InterleavedDie(f.dieRR + k)
		if fg {
			for f.sched.queuedPrograms(g) < f.spec.Buffer.ForegroundPerDie && f.buf.Dirty() > 0 {
				if !f.evictOne(g, ftl.Foreground) {
					break
				}
				issued++
			}
			continue
		}
		if f.bgInFlight >= f.spec.Buffer.BackgroundMax {
			break
		}
		// Background: only dies the applications' reads are not using, a little at a time.
		if f.sched.readsWaiting(g) || f.sched.queuedPrograms(g) >= f.spec.Buffer.BackgroundPerDie {
			continue
		}
		if f.evictOne(g, ftl.Background) {
			issued++
		}
	}
	f.dieRR = (f.dieRR + 1) % dies
	if issued > 0 {
		p.Compute(core, f.acts.evict, int64(issued)*(f.spec.Cycles.Allocate+f.spec.Cycles.FlashIssue))
	}
	return issued
}

// evictOne allocates a flash page on die g for the oldest dirty page and queues its program
// once the data has been read out of DRAM. It reports false when the die has no space
// outside the GC reserve (its GC is woken).
func (f *Firmware) evictOne(g int, purpose ftl.Purpose) bool {
	lpn, ok := f.buf.Oldest()
	if !ok {
		return false
	}
	ppn, err := f.ftl.WriteHost(lpn, g, purpose)
	if err != nil {
		f.gcSig[g].Notify()
		return false
	}
	v := f.buf.PickVictims(1, f.victims[:0])[0]
	op := f.sched.get(opEvict, g)
	op.ppn, op.stamp, op.victim = ppn, v.Version, v
	if purpose == ftl.Background {
		op.bg = true
		f.bgInFlight++
		f.Stats.BackgroundEvictions++
	} else {
		f.Stats.ForegroundEvictions++
	}
	f.pending[ppn] = v.Version
	f.inflightBlock[f.geo.BlockOf(ppn)]++
	if f.ftl.NeedsGC(g, f.geo.Addr(ppn).Plane) {
		f.gcSig[g].Notify()
	}
	// The page leaves DRAM for the channel; the program is queued when it has.
	t := f.hw.DRAM.Access(f.eng.Now(), f.dramAddr(lpn), f.spec.PageSize, false)
	f.sched.arrive(t, op)
	return true
}

func (f *Firmware) logMode(predicted int64) {
	if len(f.modeLog) < 10000 {
		f.modeLog = append(f.modeLog, ModeChange{At: f.eng.Now(), Foreground: f.fgMode,
			Occupancy: f.buf.Occupancy(), Predicted: predicted})
	}
}
