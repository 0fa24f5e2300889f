package powercut

import (
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Schedule is a named way of choosing a cut's instant: armed at a seeded instant, the cut
// comes at the first instant from then on at which its condition holds (watched every
// Poll, and by the lookahead at every erase the firmware queues), or at once for "random".
type Schedule struct {
	Name, Doc string
	// Patience is how long the condition is waited for once armed, unless the plan says
	// (Plan.Patience): long enough to meet it in most cuts of the default workload.
	Patience sim.Time
	// cond reports whether the schedule's condition holds now; nil: none ("random").
	cond func(r *cutRun) bool
	// onErase: the condition is also looked at whenever the firmware queues an erase.
	onErase bool
	// SLC: the schedule's condition is about the SLC cache (slcfold.go); a campaign cuts it
	// only on machines with one (Options.Schedules is filtered per target by ParseOptions).
	SLC bool
	// Cycles is how many power cycles a cut of the schedule runs at least (Plan.Cycles): run,
	// cut, recover, mount, run again … (0: one). After a mount the cut waits for remount
	// instead of cond, if set.
	Cycles  int
	remount func(r *cutRun) bool
	// remountWindow: after a mount, a schedule with a remount condition is armed at a
	// seeded instant of [0, remountWindow) from the power-on (the riskiest programs come
	// first: the host's first writes), not the plan's window.
	remountWindow sim.Time
}

// Poll is how often a schedule's condition is looked at once armed: well under the
// shortest flash operation it waits for (an LSB program, 558 µs on the presets' TLC), so a
// cut lands anywhere inside the operation, not only at its start.
const Poll = 5 * sim.Microsecond

// The schedules, in the order tables list them.
var schedules = []Schedule{
	{Name: "random", Doc: "at the seeded instant itself"},
	{Name: "gc-erase", Doc: "while a block erase (a GC victim's, a merge's) is on a die", Patience: 100 * sim.Millisecond,
		cond: func(r *cutRun) bool { return r.fw.FlashWork().Erases > 0 }},
	{Name: "fg-evict", Doc: "while a foreground eviction's program, or a Flush's finality pad, is on a die", Patience: 100 * sim.Millisecond,
		cond: func(r *cutRun) bool { w := r.fw.FlashWork(); return w.Foreground+w.Pads > 0 }},
	{Name: "flush", Doc: "while a Flush (or an FUA write's flush) waits for the flash (none reach the firmware with power-loss protection: the host sees no volatile cache)", Patience: 100 * sim.Millisecond,
		cond: func(r *cutRun) bool { return r.fw.FlashWork().Flushes > 0 }},
	{Name: "relocation", Doc: "while a program of a relocated page (GC, a merge's copy) is on a die", Patience: 100 * sim.Millisecond,
		cond: func(r *cutRun) bool { return r.fw.FlashWork().Relocations > 0 }},
	{Name: "lookahead", Doc: "when recovery would lose a durable version: without power-loss protection, the checker recovers the flash as it is (firmware.RecoverNow) whenever the firmware queues an erase or writes become durable; with it, when the hold-up drain could not place every dirty page (firmware.DrainShort)",
		Patience: sim.Second, cond: lookahead, onErase: true},
	{Name: "word-line", Doc: "while a program runs whose interruption would destroy a page holding its logical page's last durable version: on 2D a CSB or MSB program over the durable lower pages of its word line, on one-shot a word line's program, on two-pass a coarse pass with the fine pass of the word line below (platforms.Machine.RunningLoss)",
		Patience: 300 * sim.Millisecond, cond: wordLine},
	{Name: "two-cut", Doc: "across power cycles: a cut at the seeded instant, recovery, the firmware mounted on what it recovered (firmware.Firmware.Mount) and the host writing again, then a second cut, armed in the first 20 ms after the power-on, while a program runs that would destroy a page written before the mount, holding its logical page's durable version (a firmware that resumed a block the first cut left partly written: the control reuse_open_block), or else while GC erases a block written before the mount",
		Patience: 300 * sim.Millisecond, Cycles: 2, remount: remountRisk, remountWindow: 20 * sim.Millisecond},
	// The SLC cache's exposed points (machines with one only): mid-fold, the fold's erase,
	// and the cache full with host writes going to native blocks.
	{Name: "fold", Doc: "while a fold's program (a page moved out of an SLC block to a native one) is on a die", Patience: 300 * sim.Millisecond, SLC: true,
		cond: func(r *cutRun) bool { return r.fw.FlashWork().Folds > 0 }},
	{Name: "fold-erase", Doc: "while the erase of a folded SLC block is queued or on a die", Patience: 300 * sim.Millisecond, SLC: true,
		cond: func(r *cutRun) bool { return r.fw.FlashWork().FoldErases > 0 }},
	{Name: "slc-full", Doc: "while the SLC cache is full and a host page's program goes directly to a native block", Patience: 300 * sim.Millisecond, SLC: true,
		cond: func(r *cutRun) bool {
			w := r.fw.FlashWork()
			return r.fw.FTL().SLCDirect() && w.Foreground+w.Background > 0
		}},
}

// zonedSchedules are the schedules only a zoned workload meets (Workload.Zoned): a
// campaign's targets have no zoned namespace, so they are not among Schedules.
var zonedSchedules = []Schedule{
	{Name: "zone-backup", Doc: "while a zone backup's program (a copy of a zone's provisional page, for a Flush or an FUA write: firmware/znsbackup.go) is queued or on a die",
		Patience: 300 * sim.Millisecond, cond: func(r *cutRun) bool { return r.fw.FlashWork().Backups > 0 }},
}

// ZonedSchedules returns the schedules for a zoned workload only (zoned.go).
func ZonedSchedules() []Schedule { return append([]Schedule(nil), zonedSchedules...) }

// Schedules returns the named schedules, in table order.
func Schedules() []Schedule { return append([]Schedule(nil), schedules...) }

// ScheduleNames returns the schedules' names, in table order.
func ScheduleNames() []string {
	var ns []string
	for _, s := range schedules {
		ns = append(ns, s.Name)
	}
	return ns
}

// LookupSchedule returns the schedule called name, or an error listing the names.
func LookupSchedule(name string) (Schedule, error) {
	for _, s := range schedules {
		if s.Name == name {
			return s, nil
		}
	}
	return Schedule{}, fmt.Errorf("powercut: no schedule named %q (have: %s)", name, strings.Join(ScheduleNames(), ", "))
}

// lookahead is the "lookahead" schedule's condition: a cut now would lose a durable
// version.
func lookahead(r *cutRun) bool {
	if r.plp() {
		return r.fw.DrainShort()
	}
	rec, err := r.fw.RecoverNow()
	if err != nil {
		return false
	}
	return r.chk.wouldLose(rec.Map, r.readUnit)
}

// wordLine is the "word-line" schedule's condition: a cut now would destroy, with a
// running program, the copy of a logical page's last durable version that recovery would
// read. The dies' pages at risk (platforms.Machine.RunningLoss) are read as recovery would.
// With power-loss protection the condition is that one of them holds a durable (there:
// acknowledged) version: only an aim, since the running program ends on hold-up power.
// Without it, the flash is then recovered as it is now (firmware.RecoverNow) to see whether
// that copy is the one the map would take (a GC copy being programmed while its source
// still holds the version is no loss); a scan that found none is not repeated while the
// pages at risk and the durable writes stay the same (a program lasts hundreds of polls).
func wordLine(r *cutRun) bool {
	g := r.fw.FTL().Geometry()
	var risk map[int64]ftl.Unit // logical page → its durable copy at risk
	var sig [3]int64            // the pages at risk and the durable writes, for the cache
	for _, pg := range r.m.RunningLoss() {
		sig[0], sig[1] = sig[0]+int64(pg), sig[1]+1
		for s := range g.Units() {
			u := g.UnitOf(pg, s)
			lpn, v, ok := firmware.StampParts(r.readUnit(u))
			if ok && lpn >= 0 && lpn < r.pages && v == r.chk.durableVersion(lpn) {
				if risk == nil {
					risk = map[int64]ftl.Unit{}
				}
				risk[lpn] = u
			}
		}
	}
	if risk == nil {
		return false
	}
	if r.plp() {
		return true
	}
	sig[2] = r.chk.durable + r.chk.acks<<32
	if r.watch.safe == sig {
		return false
	}
	rec, err := r.fw.RecoverNow()
	if err != nil {
		return false
	}
	for lpn, u := range risk { // any order: the answer is whether one matches
		if rec.Map[lpn] == u {
			return true
		}
	}
	r.watch.safe = sig
	return false
}

// remountRisk is the "two-cut" schedule's condition after a mount: a program is running
// whose interruption would destroy a page written before the mount that holds its logical
// page's durable version, the copy a recovery now would map (firmware.RecoverNow, as
// wordLine; with power-loss protection only an aim) (only a firmware that programs a block the mount found partly
// written does that: the control reuse_open_block); or, if the mount resumed no block, an
// erase of a block written before the mount is on a die (GC redoing its work on the map
// recovery rebuilt: the block's valid pages were relocated first).
func remountRisk(r *cutRun) bool {
	g := r.fw.FTL().Geometry()
	var risk []ftl.Unit // the durable copies at risk
	var sig [3]int64    // the pages at risk and the durable writes, for the cache (wordLine)
	for _, pg := range r.m.RunningLoss() {
		b := g.BlockOf(pg)
		if !r.premount(b) || int(pg-g.FirstPage(b)) >= r.mount.next[b] {
			continue
		}
		sig[0], sig[1] = sig[0]+int64(pg), sig[1]+1
		for s := range g.Units() {
			u := g.UnitOf(pg, s)
			lpn, v, ok := firmware.StampParts(r.readUnit(u))
			if ok && lpn >= 0 && lpn < r.pages && v == r.chk.durableVersion(lpn) {
				risk = append(risk, u)
			}
		}
	}
	if len(risk) > 0 {
		if r.plp() {
			return true // only an aim: the running program ends on hold-up power
		}
		sig[2] = r.chk.durable + r.chk.acks<<32
		if r.watch.safe == sig {
			return false // a scan found none at risk, and nothing has changed since
		}
		if rec, err := r.fw.RecoverNow(); err == nil {
			for _, u := range risk { // the copy a recovery now would map
				lpn, _, _ := firmware.StampParts(r.readUnit(u))
				if rec.Map[lpn] == u {
					return true
				}
			}
		}
		r.watch.safe = sig
	}
	if r.mount.resumed > 0 {
		return false
	}
	for _, b := range r.m.RunningErases() {
		if r.premount(b) { // the FTL counts the erase when it completes
			return true
		}
	}
	return false
}

// premount reports whether block b holds what it held at the last mount: written before
// it, not erased since.
func (r *cutRun) premount(b ftl.BlockID) bool {
	return r.mount.next[b] > 0 && r.fw.FTL().EraseCount(b) == r.mount.erases[b]
}

// plp reports whether the run's device has power-loss protection.
func (r *cutRun) plp() bool { return r.chk.plp }

// watcher waits, once armed, for the schedule's condition and cuts.
type watcher struct {
	r        *cutRun
	deadline sim.Time
	armed    bool
	// safe is the word-line schedule's last scan that found no loss (wordLine), and the
	// two-cut schedule's after a mount (remountRisk).
	safe [3]int64
}

// arm is the seeded instant: cut now if the condition holds (or there is none), else watch.
func (w *watcher) arm() {
	r := w.r
	if r.cond() == nil {
		r.cut(true)
		return
	}
	w.armed = true
	if w.erases() {
		r.fw.OnErase = func() { r.m.Eng.At(r.m.Eng.Now(), w.look) }
		r.m.Eng.At(w.deadline, w.look)
	}
	w.look()
}

// look cuts if the condition holds or the patience has run out, else looks again a Poll
// later (a PhaseDefault event: it runs between the firmware's steps, never inside one).
func (w *watcher) look() {
	r := w.r
	if r.dead {
		return
	}
	now := r.m.Eng.Now()
	if r.cond()(r) {
		r.cut(true)
		return
	}
	if now >= w.deadline {
		r.cut(false)
		return
	}
	if w.erases() {
		return // the next look comes with an erase, or at the deadline (arm)
	}
	r.m.Eng.At(min(now+Poll, w.deadline), w.look)
}

// erases reports whether the condition is looked at only when it can change: the
// lookahead without protection, where a durable version can be lost only when an erase is
// queued or a write becomes durable (a Flush completes, an FUA write is acknowledged), and
// the host's process looks then (durable).
func (w *watcher) erases() bool {
	return w.r.plan.Schedule.onErase && !w.r.plp() && (w.r.cycle == 0 || w.r.plan.Schedule.remount == nil)
}

// cond returns the condition the running cycle's cut waits for: after a mount the
// schedule's remount condition if it has one, else its own (nil: none, cut at once).
func (r *cutRun) cond() func(*cutRun) bool {
	if s := r.plan.Schedule; r.cycle > 0 && s.remount != nil {
		return s.remount
	}
	return r.plan.Schedule.cond
}

// durable is called by a host process when writes have just become durable: the lookahead
// looks at once.
func (w *watcher) durable() {
	if w.armed && w.erases() && !w.r.dead {
		w.r.m.Eng.At(w.r.m.Eng.Now(), w.look)
	}
}
