package firmware

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// PowerLoss configures sudden power loss and recovery (issue 22, item 3; docs/reliability.md,
// "Power loss and recovery").
type PowerLoss struct {
	// Enabled keeps each flash page's out-of-band record (the spare area a program writes
	// with the data: the logical page and a write sequence number), so that PowerCut and
	// Recover can be used. It costs 8 B a physical page of memory and one store a program.
	// Default false: no cut can happen, and results are byte-identical to a firmware
	// without the feature.
	Enabled bool `yaml:"enabled"`
	// Holdup is how long the hold-up capacitors power the device after a cut when
	// power_loss_protection is on: the firmware drains the dirty buffer to flash for at
	// most this long, and what is not programmed by then is lost. Default 0: no bound, the
	// drain runs to the end and its length is reported (the hold-up the workload needed).
	Holdup sim.Time `yaml:"holdup"`
	// CutAt is the simulated instant of a scripted power cut, counted from the machine's
	// build (a run's set-up included); default 0: none. A cut after the scenario has ended
	// does not happen. A seeded random instant is the caller's choice of CutAt (the tests
	// draw theirs from sim.NewRNG).
	CutAt sim.Time `yaml:"cut_at"`
	// ZoneBackupBlocks is the zone backup area's size, in blocks a die (znsbackup.go): where
	// a Flush or FUA write copies a zone's provisional pages, which it may not pad. Only
	// with a zoned namespace and word-line finality; 0 (the default) sizes it from the
	// zoned namespaces' active zones (sizeBackup), a value smaller than that is refused.
	// Left out of a dump when 0.
	ZoneBackupBlocks int `yaml:"zone_backup_blocks,omitempty"`
	// Controls turn the firmware's durability mechanisms off, for experiments that show what
	// they protect against (a campaign's control runs: docs/reliability.md). Never what a
	// drive does; both default false.
	Controls DurabilityControls `yaml:"controls"`
}

// DurabilityControls are the switches of PowerLoss.Controls.
type DurabilityControls struct {
	// UnguardedErase erases a block as soon as it holds no valid page, even while newer
	// copies of its data are still being programmed (no erase guard, eraseguard.go): a cut
	// then can lose a durable version.
	UnguardedErase bool `yaml:"unguarded_erase"`
	// NoHoldupReserve keeps no hold-up reserve with power_loss_protection (holdup.go): the
	// drain after a cut can find no room outside the GC reserve and lose acknowledged pages.
	NoHoldupReserve bool `yaml:"no_holdup_reserve"`
	// UnguardedFold erases a folded SLC block as soon as the programs of its folded copies
	// are issued, without waiting for them to complete (slcfold.go): a cut then can lose
	// data whose only complete copy was in the SLC block. Only with an SLC cache. Left out
	// of a configuration's dump when off (omitempty), so the dumps of the presets, none with
	// a control set, are unchanged.
	UnguardedFold bool `yaml:"unguarded_fold,omitempty"`
	// DurableAtDone counts a page durable when the die reports its program done, as the
	// firmware did before word-line finality (final.go): no erase guard, GC, merge or fold
	// source waits for the copy's word line, and no Flush, FUA write or hold-up drain pads
	// one. A cut that interrupts a later program of the word line (2D), or finds it latched
	// or coarse (3D), then loses durable data. Left out of a dump when off.
	DurableAtDone bool `yaml:"durable_at_done,omitempty"`
	// ReuseOpenBlock makes the firmware, mounting after a power cut (Mount), resume
	// programming a block the cut left partly written (the first of each plane, as the
	// allocator's write point) instead of closing it: a later program of the block's word
	// lines can then destroy lower pages holding data durable before the cut (2D), which a
	// second cut exposes. Left out of a dump when off.
	ReuseOpenBlock bool `yaml:"reuse_open_block,omitempty"`
	// NoReserveRestore makes the firmware, mounting after a power cut with power-loss
	// protection, admit writes into its buffer at once instead of after GC has restored the
	// GC and hold-up reserves the cut's drain used (mount.go): the next drain can then find
	// no room for what it acknowledged. Left out of a dump when off.
	NoReserveRestore bool `yaml:"no_reserve_restore,omitempty"`
}

// validate reports the section's problems, each naming its field; plp is
// firmware.power_loss_protection.
func (p PowerLoss) validate(plp bool) []error {
	var errs []error
	if p.Holdup < 0 {
		errs = append(errs, fmt.Errorf("firmware.power_loss.holdup: %v must not be negative", p.Holdup))
	}
	if p.Holdup > 0 && !p.Enabled {
		errs = append(errs, fmt.Errorf("firmware.power_loss.holdup: %v is set but firmware.power_loss.enabled is false", p.Holdup))
	} else if p.Holdup > 0 && !plp {
		// Without the capacitors the firmware stops at the cut (PowerCut): no drain runs for
		// a hold-up to bound, and the setting would change nothing.
		errs = append(errs, fmt.Errorf("firmware.power_loss.holdup: %v is set but firmware.power_loss_protection is false: without power-loss protection nothing runs after a cut", p.Holdup))
	}
	if p.CutAt < 0 {
		errs = append(errs, fmt.Errorf("firmware.power_loss.cut_at: %v must not be negative", p.CutAt))
	}
	if p.CutAt > 0 && !p.Enabled {
		errs = append(errs, fmt.Errorf("firmware.power_loss.cut_at: %v is set but firmware.power_loss.enabled is false", p.CutAt))
	}
	if p.ZoneBackupBlocks != 0 && !p.Enabled {
		errs = append(errs, fmt.Errorf("firmware.power_loss.zone_backup_blocks: %d is set but firmware.power_loss.enabled is false (the backup serves word-line finality)", p.ZoneBackupBlocks))
	}
	if p.Controls.UnguardedErase && !p.Enabled {
		errs = append(errs, errors.New("firmware.power_loss.controls.unguarded_erase is set but firmware.power_loss.enabled is false (a control for power-cut experiments)"))
	}
	if p.Controls.UnguardedFold && !p.Enabled {
		errs = append(errs, errors.New("firmware.power_loss.controls.unguarded_fold is set but firmware.power_loss.enabled is false (a control for power-cut experiments)"))
	}
	if p.Controls.DurableAtDone && !p.Enabled {
		errs = append(errs, errors.New("firmware.power_loss.controls.durable_at_done is set but firmware.power_loss.enabled is false (a control for power-cut experiments)"))
	}
	if p.Controls.NoReserveRestore && !p.Enabled {
		errs = append(errs, errors.New("firmware.power_loss.controls.no_reserve_restore is set but firmware.power_loss.enabled is false (a control for power-cut experiments)"))
	}
	if p.Controls.ReuseOpenBlock && !p.Enabled {
		errs = append(errs, errors.New("firmware.power_loss.controls.reuse_open_block is set but firmware.power_loss.enabled is false (a control for power-cut experiments)"))
	}
	if p.Controls.NoHoldupReserve && !p.Enabled {
		errs = append(errs, errors.New("firmware.power_loss.controls.no_holdup_reserve is set but firmware.power_loss.enabled is false (a control for power-cut experiments)"))
	}
	return errs
}

// PowerLossReport is what a power cut did.
type PowerLossReport struct {
	At, Off   sim.Time // the cut, and when the firmware stopped (the drain's end, or At)
	Protected bool     // power_loss_protection was on: the dirty buffer was drained
	// At the cut: the buffer's dirty pages and the evictions whose programs were in flight.
	Dirty, Evicting int
	// Flushed counts the evictions that completed after the cut (the hold-up drain's
	// programs, and those in flight at the cut).
	Flushed int64
	// Lost counts the buffered pages not on flash at power off: still dirty, or with their
	// program interrupted.
	Lost int
	// Drained is true if the drain emptied the buffer before the hold-up ran out; Stuck is
	// true if it stopped because no die had room outside the GC reserve (GC does not run
	// after a cut).
	Drained, Stuck bool
}

// Outcome names how the firmware stopped: "stopped at the cut" (no protection), "drained",
// "stuck: no room outside the GC reserve", or "hold-up ran out".
func (r PowerLossReport) Outcome() string {
	switch {
	case r.Drained:
		return "drained"
	case r.Stuck:
		return "stuck: no room outside the GC reserve"
	case r.Protected:
		return "hold-up ran out"
	}
	return "stopped at the cut"
}

// DrainTime returns how long the firmware ran on hold-up power after the cut.
func (r PowerLossReport) DrainTime() sim.Time { return r.Off - r.At }

// powerState is the firmware's power-loss state (powerloss.go, recovery.go).
type powerState struct {
	f  *Firmware
	on powerSteps
	// oob holds, per physical mapping unit (page, with one unit a page), the out-of-band
	// record of the program that completed there: Stamp(lpn, seq), 0 for none (erased,
	// never programmed, padded, or interrupted). It stands for the flash's spare area
	// (docs/reliability.md); nil unless enabled.
	oob []uint64
	// slcHdr: per block, a block header in SLC mode on its first page (recoverymode.go).
	slcHdr slcHeaders
	seq    uint64 // the last write sequence number given out (preconditioned data has 1)
	// cut: power is gone, the HIL and GC no longer run; off: the firmware has stopped.
	cut, off bool
	report   PowerLossReport
}

// powerSteps are the power-loss steps.
type powerSteps struct {
	deadline step // the hold-up's end: the firmware stops
	cut      step // the scripted cut (firmware.power_loss.cut_at)
}

// bind binds the power-loss steps.
func (p *powerState) bind() {
	p.on = powerSteps{
		deadline: newStep("powerState", "holdup-end", nil, p.f.powerOff),
		cut:      newStep("powerState", "cut", nil, func() { _ = p.f.PowerCut() }), // New checked that the records are kept
	}
}

// PowerCut cuts the device's power now. The firmware takes no more commands and posts no
// more completions; garbage collection stops, and the host reads and GC operations queued
// for the dies and not yet handed to a channel are dropped, leaving the dies to the drain
// (those on a channel complete; a GC copy's original stays on flash until an erase, and
// GC erases only blocks without valid data). Without power_loss_protection the
// firmware stops at once: dirty and in-flight buffered data is lost. With it, the evictor
// drains the dirty buffer in the foreground to every die (real programs on the modelled
// dies and channels) until it is empty, until no die has room (GC no longer runs), or until
// firmware.power_loss.holdup has passed. Report gives the outcome; Recover rebuilds the
// mapping afterwards. It is an error if firmware.power_loss.enabled is off (nothing would
// be recoverable); a second cut does nothing.
func (f *Firmware) PowerCut() error {
	p := &f.pl
	if p.oob == nil {
		return fmt.Errorf("firmware %s: a power cut needs firmware.power_loss.enabled", f.name)
	}
	if p.cut {
		return nil
	}
	now := f.eng.Now()
	p.cut = true
	p.report = PowerLossReport{At: now, Off: now, Protected: f.spec.PowerLossProtection,
		Dirty: f.buf.Dirty(), Evicting: f.buf.Evicting()}
	if !f.spec.PowerLossProtection {
		f.powerOff()
		return nil
	}
	f.sched.dropOnCut()
	if h := f.spec.PowerLoss.Holdup; h > 0 {
		f.at(now+h, &p.on.deadline)
	}
	if f.buf.Occupancy() == 0 {
		f.drainIdle() // nothing to drain
		return nil
	}
	f.evict.notify() // a waiting evictor starts the drain (one in a round goes on with it)
	return nil
}

// PowerLossReport returns what the last power cut did (the zero report if none happened).
func (f *Firmware) PowerLossReport() PowerLossReport { return f.pl.report }

// PoweredOff reports whether the firmware has stopped after a power cut.
func (f *Firmware) PoweredOff() bool { return f.pl.off }

// drainIdle is called after a cut when the evictor has nothing to send: the firmware stops
// once no eviction is in flight (the buffer is clean, or no die has room for the rest).
func (f *Firmware) drainIdle() {
	if f.pl.off || f.buf.Evicting() > 0 || f.fin.drainWait {
		return
	}
	if f.fin.pads > 0 || f.zbak.inflight > 0 || f.fin.page != nil && f.drainPads() {
		// A pad in flight (a GC erase's, from before the cut) would destroy its word line's
		// lower pages if the power went during it; and the latched or coarse word lines are
		// padded (final.go): padDone ends the drain.
		f.fin.drainWait = true
		return // the latched or coarse word lines are padded first (final.go): padDone ends it
	}
	if f.buf.Dirty() == 0 {
		f.pl.report.Drained = true
	} else {
		f.pl.report.Stuck = true
	}
	f.powerOff()
}

// powerOff stops the firmware: no step of it runs again, and no completion is applied.
func (f *Firmware) powerOff() {
	p := &f.pl
	if p.off {
		return
	}
	p.off = true
	p.report.Off = f.eng.Now()
	p.report.Lost = f.buf.Occupancy()
	if f.OnPowerOff != nil {
		f.OnPowerOff()
	}
}

// recordProgram notes the out-of-band records of a completed program: one a mapping unit
// of its page (a padded slot's is 0, none).
func (p *powerState) recordProgram(op *flashOp) {
	p.noteHeader(op)
	if k := p.f.units; k > 1 {
		copy(p.oob[int64(op.ppn)*int64(k):int64(op.ppn+1)*int64(k)], op.oob[:k])
		return
	}
	p.oob[op.ppn] = op.oob[0]
}

// eraseIssued forgets the records of block b's pages when its erase is queued: an erase
// the cut interrupts leaves the block's contents undefined, and GC erases only a block
// holding no valid page.
func (p *powerState) eraseIssued(f *Firmware, b ftl.BlockID) {
	first := int64(f.geo.FirstPage(b)) * int64(f.units)
	clear(p.oob[first : first+int64(f.geo.PagesPerBlock*f.units)])
	if p.slcHdr != nil {
		p.slcHdr.Put(int(b), false) // the header goes with the block's contents
	}
}

// preconditioned gives the records of block b's first n pages, just filled by
// Precondition, to the pages holding a logical page's data: version 1, sequence number 1
// (a superseded copy holds the same data as the live one, and either may be recovered).
// Pages holding superseded data of unknown owner keep no record: a newer copy of their
// logical page is on flash.
func (p *powerState) preconditioned(f *Firmware, b ftl.BlockID, n int) {
	if p.oob == nil {
		return
	}
	p.seq = max(p.seq, 1)
	first := f.geo.FirstPage(b)
	for i := 0; i < n; i++ {
		pg := first + ftl.PPN(i)
		if lpn, ok := f.ftl.PreconditionOwner(pg); ok { // the closed form: one unit a page
			p.oob[pg] = Stamp(lpn, 1)
			continue
		}
		for s := 0; s < f.units; s++ {
			u := f.geo.UnitOf(pg, s)
			if lpn, ok := f.ftl.Owner(u); ok {
				p.oob[u] = Stamp(lpn, 1)
			}
		}
	}
}

// dropOnCut drops the host reads and GC operations queued for every die and not yet on a
// channel: after a cut, nothing will use their results. A failed eviction's re-program
// (faults.go) waits in the GC queue too, but it is not GC's: it carries a buffered page
// the drain must place, and its eviction stays in flight until it completes, so it is
// kept, in order (dropping it left the page evicting for ever, and the drain, which ends
// only once no eviction is in flight, never ended). A finality pad is kept too (final.go:
// the drain waits for it). On a one-shot or two-pass die, which loads a word line's pages
// in order and passes none over, a GC program is kept as well: a later program of its block
// (a kept pad, the drain's page dumped there, the drain's end's pad) would otherwise skip
// its page; a page-by-page die passes it over.
func (s *scheduler) dropOnCut() {
	for g := range s.dies {
		q := &s.dies[g]
		for q.reads.n > 0 {
			s.put(q.reads.pop())
		}
		var kept opList
		for q.gc.n > 0 {
			if op := q.gc.pop(); op.kind == opEvict || op.kind == opPad || op.kind == opBackup || op.kind == opGCProgram && !s.f.fin.passOver {
				kept.push(op)
			} else {
				s.put(op)
			}
		}
		q.gc = kept
		if kept.n > 0 {
			s.dispatch(g) // the die may be idle now that the GC operations ahead are gone
			continue
		}
		s.refresh(g)
	}
}

// VolatileWriteCache reports whether the DRAM buffer is a volatile write cache in NVMe's
// sense, for the controller's Identify Controller VWC bit (hal.HostReports): only
// without power_loss_protection. With it, data in the buffer reaches flash on power loss,
// so the cache is not volatile, Flush has nothing to do (it completes at once, hil.go) and
// FUA writes complete as any other; a host that reads VWC 0 sends neither.
func (f *Firmware) VolatileWriteCache() bool { return !f.spec.PowerLossProtection }

// FlashLost forgets the out-of-band records of pages the dies lost at the power cut: the
// flash's side of the cut (die.Die.Cut, which the machine applies at power-off:
// platforms.Machine.CutFlash). A page's spare area is programmed with its data, so a page
// the cut destroyed — its program running, on one-shot and two-pass parts its word line
// only latched in the page registers or its fine pass not run, on page-by-page parts a
// lower page of the interrupted program's word line — holds no record, and recovery finds
// an older copy of its logical page or none. It is an error before the firmware stopped.
func (f *Firmware) FlashLost(pages []ftl.PPN) error {
	p := &f.pl
	if !p.off {
		return fmt.Errorf("firmware %s: FlashLost before the firmware stopped after a power cut", f.name)
	}
	k := int64(f.units)
	for _, pg := range pages {
		clear(p.oob[int64(pg)*k : int64(pg+1)*k])
	}
	return nil
}
