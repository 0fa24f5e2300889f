package powercut

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Workload is the checker's host workload: Procs processes, each on its own share of the
// logical pages (so no two commands in flight touch one page), issuing through the host's
// raw block device (O_DIRECT) random writes and reads of 1 … MaxPages pages and flushes,
// in the proportions 6 : 3 : 1; one write in FUAEvery carries Force Unit Access (0: none).
// A command goes to the first HotFraction of the process's share with probability
// HotShare (0: uniform over the share). Every write's pages carry fresh versions
// (firmware.Stamp), every read is checked at once against the last acknowledged write.
// Deallocates are left out: trims are not journaled (firmware.Recover), so a trimmed page
// may map to its last copy again after a cut.
type Workload struct {
	Procs, MaxPages, FUAEvery int
	HotShare, HotFraction     float64
	// Zoned runs the workload on a zoned namespace 1 (zoned.go): each process writes its
	// own zones at their write pointers and resets the full ones; HotShare is not used.
	Zoned bool
	// Burst and Idle, both positive or both 0 (the default: no pause), make the host write
	// in bursts: every process issues commands only in the first Burst of each Burst + Idle
	// from the machine's build, and a command due in the idle part waits for the next
	// burst. A client drive folds its SLC cache when the host is idle (firmware/slcfold.go),
	// so the idle parts are where folds run, and the "fold" schedules' cuts land.
	Burst, Idle sim.Time
}

// pause waits, in an idle part of the workload's bursts, for the next burst.
func (w Workload) pause(p *sim.Proc) {
	if w.Burst <= 0 {
		return
	}
	period := w.Burst + w.Idle
	if at := p.Now() % period; at >= w.Burst {
		p.Sleep(period - at)
	}
}

// DefaultWorkload is 8 processes of 1–8-page commands, one write in 8 with FUA, 80 % of
// them on a hot 5 % of each process's pages. The skew is what makes durable data
// vulnerable: GC's victims are then the blocks the hot pages were just rewritten out of,
// so the newer copies of their data are often still being programmed when the victim is
// erased (in a uniform workload a victim's pages were superseded long before).
func DefaultWorkload() Workload {
	return Workload{Procs: 8, MaxPages: 8, FUAEvery: 8, HotShare: 0.8, HotFraction: 0.05}
}

// validate reports the workload's problems.
func (w Workload) validate() error {
	var errs []error
	if w.Procs < 1 {
		errs = append(errs, fmt.Errorf("powercut: %d host processes; want at least 1", w.Procs))
	}
	if w.MaxPages < 1 {
		errs = append(errs, fmt.Errorf("powercut: commands of at most %d pages; want at least 1", w.MaxPages))
	}
	if w.FUAEvery < 0 {
		errs = append(errs, fmt.Errorf("powercut: one write in %d with FUA must not be negative (0: none)", w.FUAEvery))
	}
	if w.HotShare < 0 || w.HotShare > 1 || w.HotFraction < 0 || w.HotFraction > 1 || w.HotShare > 0 && w.HotFraction == 0 {
		errs = append(errs, fmt.Errorf("powercut: %v of the commands on a hot %v of the pages: want fractions in [0, 1], a hot part when a share goes to it", w.HotShare, w.HotFraction))
	}
	if w.Burst < 0 || w.Idle < 0 || (w.Burst > 0) != (w.Idle > 0) {
		errs = append(errs, fmt.Errorf("powercut: bursts of %v with %v idle between: want both positive, or both 0 (no pause)", w.Burst, w.Idle))
	}
	return errors.Join(errs...)
}

// Plan is where one cut goes: the schedule, the seed of its instants, and the span the
// schedule is armed in: at a seeded instant of [From, From+Window), after which the
// schedule's condition is waited for, at most Patience (the schedule's own if 0; then the
// cut is made anyway, its condition not met).
type Plan struct {
	Schedule         Schedule
	Seed             uint64
	From, Window     sim.Time
	Patience         sim.Time
	SimulateRecovery bool // time the recovery scan on simulated dies (firmware.RecoverOn), not closed form
	// Cycles is the power cycles of the cut (at least the schedule's Schedule.Cycles; 0:
	// one): after each cut but the last the flash is recovered and checked, the machine
	// powered on again with its firmware mounted on what it recovered
	// (platforms.PowerOn), and the host writes again (its page cache empty, new versions),
	// the next cut armed the same way on the new machine's clock.
	Cycles int
}

// cycles returns the power cycles of plan.
func (plan Plan) cycles() int { return max(1, plan.Cycles, plan.Schedule.Cycles) }

// Cut is what one power cut did and what the checker found.
type Cut struct {
	Target   string // the campaign target's label ("" from RunCut)
	Schedule string
	Seed     uint64
	// Armed is the seeded instant the schedule was armed at, At the cut; Met is true if the
	// schedule's condition held at the cut (always for "random").
	Armed, At sim.Time
	Met       bool
	Report    firmware.PowerLossReport
	// RecoveryTime is the recovery scan's length (closed form, or simulated with
	// Plan.SimulateRecovery).
	RecoveryTime sim.Time
	// Writes counts the acknowledged write commands; Pages the logical pages checked after
	// recovery; GCMoved the pages GC moved before the cut; FlashLost the flash pages the
	// dies lost at power-off (platforms.Machine.CutFlash: running programs, latched word
	// lines, word lines whose fine pass had not run, corrupted lower pages).
	Writes, Pages, GCMoved, FlashLost int64
	// DurableLoss counts logical pages recovered older than their last durable version;
	// Volatile those older than their last acknowledged one only (legal without power-loss
	// protection); Stale the reads during the run that did not return the last
	// acknowledged version plus the pages that read, after recovery, data never written
	// there.
	DurableLoss, Volatile, Stale int64
	// First describes the first durable loss or stale read, "" if none.
	First string
	// ReadOnly is set when the drive went read-only before the cut (its spare pool used up
	// under flash faults): from the first write or flush it failed with Attempted Write to
	// Read Only Range the processes issue reads only; the failed writes are never
	// acknowledged (checker.failedWrite).
	ReadOnly bool
	// Zoned workloads (zoned.go): the zone resets acknowledged before the cut, and the
	// zones whose rebuilt write pointer is not where the specification allows.
	ZoneResets, ZoneErrors int64
	// Cycles counts the power cycles run (Plan.Cycles): the counts above are their sums,
	// Armed, At and Met the last cut's, Report the last cut's unless an earlier drain was
	// stuck. Closed and Abandoned count the blocks the mounts closed and the pages they
	// abandoned in them (ftl.MountReport).
	Cycles            int
	Closed, Abandoned int64
}

// Lost reports whether the cut lost durable data, read stale data or left the drain stuck.
func (c *Cut) Lost() bool {
	return c.DurableLoss > 0 || c.Stale > 0 || c.Report.Stuck || c.ZoneErrors > 0
}

// RunCut builds the machine of c (with firmware.power_loss.enabled, no scripted cut, and
// host I/O queues at most hostQueueDepth deep), runs workload w on it, cuts the power where plan says, lets the firmware stop (drain, with
// power-loss protection), recovers the mapping from flash and checks every logical page
// through it; with several power cycles (Plan.Cycles) it powers the machine on again on
// what it recovered and does it all again.
func RunCut(c platforms.Config, w Workload, plan Plan) (*Cut, error) {
	if err := w.validate(); err != nil {
		return nil, err
	}
	if plan.Window <= 0 || plan.From < 0 || plan.Patience < 0 {
		return nil, fmt.Errorf("powercut: cuts in [%v, %v + %v) with patience %v: want a positive window from a non-negative instant", plan.From, plan.From, plan.Window, plan.Patience)
	}
	if plan.Cycles < 0 {
		return nil, fmt.Errorf("powercut: %d power cycles; want at least 1 (0: the schedule's own)", plan.Cycles)
	}
	if plan.cycles() > 1 && w.Zoned {
		return nil, fmt.Errorf("powercut: %d power cycles of a zoned workload: mounting zoned namespaces after a cut is not modelled", plan.cycles())
	}
	c.Firmware.PowerLoss.Enabled = true
	c.Firmware.PowerLoss.CutAt = 0
	c.Host.Driver.QueueDepth = min(c.Host.Driver.QueueDepth, max(hostQueueDepth, w.Procs+1))
	m, err := platforms.Build(c)
	if err != nil {
		return nil, err
	}
	fw := m.SSD.FW
	fw.OnPowerOff = m.Eng.Stop
	ps := int64(c.Firmware.PageSize)
	pages := fw.LogicalPages()
	raw, err := hostos.NewRawDevice(m.Host, pages*ps)
	if err != nil {
		return nil, err
	}
	if pages < int64(w.Procs*w.MaxPages) {
		return nil, fmt.Errorf("powercut: %d logical pages cannot hold %d processes' commands of %d pages", pages, w.Procs, w.MaxPages)
	}
	r := &cutRun{m: m, fw: fw, raw: raw, w: w, plan: plan, ps: ps, pages: pages, version: 1, // 1 is preconditioning's
		chk: newChecker(pages, int64(c.Precondition.Fill*float64(pages)), c.Firmware.PowerLossProtection),
		out: &Cut{Schedule: plan.Schedule.Name, Seed: plan.Seed}}
	defer func() { r.m.Eng.Close() }() // the last machine powered on
	if w.Zoned {
		zs := raw.Zones()
		if len(zs) == 0 {
			return nil, errors.New("powercut: the zoned workload needs namespace 1 of type zoned (nvme.namespaces)")
		}
		r.zonePages, r.zoneCap = raw.ZoneBytes()/ps, zs[0].Cap/ps
		r.zones = make([]zoneRecord, len(zs))
		if len(zs) < w.Procs {
			return nil, fmt.Errorf("powercut: %d zones cannot give each of %d processes one", len(zs), w.Procs)
		}
	}
	for {
		r.start()
		r.m.Eng.Run()
		if err := r.m.Stall(); err != nil {
			return nil, fmt.Errorf("powercut: schedule %s, seed %d: %w", plan.Schedule.Name, plan.Seed, err)
		}
		if !r.fw.PoweredOff() {
			return nil, fmt.Errorf("powercut: the firmware did not stop after the cut at %v (schedule %s, seed %d)", r.out.At, plan.Schedule.Name, plan.Seed)
		}
		lost, err := r.m.CutFlash()
		if err != nil {
			return nil, err
		}
		r.out.FlashLost += int64(len(lost))
		rec, err := r.finish(c)
		if err != nil {
			return nil, err
		}
		if r.out.Cycles++; r.out.Cycles == plan.cycles() {
			return r.out, nil
		}
		if err := r.powerOn(c, rec); err != nil {
			return nil, fmt.Errorf("powercut: schedule %s, seed %d, power-on after cut %d: %w", plan.Schedule.Name, plan.Seed, r.out.Cycles, err)
		}
	}
}

// hostQueueDepth bounds the host's NVMe queues: the workload never has more commands
// outstanding than processes (each waits for its own; a command of MaxPages pages is one
// request), so deeper queues change nothing but the build, whose per-slot DMA buffers of
// the default 1,024 entries take most of a cut's time on the tiny preset (56 ms of 60 to
// build, against 4 ms at 64 entries; measured on a loaded 2-core machine).
const hostQueueDepth = 64

// cutRun is one run of RunCut.
type cutRun struct {
	m       *platforms.Machine
	fw      *firmware.Firmware
	raw     *hostos.RawDevice
	w       Workload
	plan    Plan
	ps      int64
	pages   int64
	chk     *checker
	out     *Cut
	version uint64
	dead    bool // the power is cut: the processes stop issuing
	failure error
	watch   *watcher
	// A zoned workload's zones (zoned.go): their size and capacity in pages, and each one's
	// record.
	zonePages, zoneCap int64
	zones              []zoneRecord
	// cycle is the power cycle running (0: the first), mount what the last mount found.
	cycle int
	mount mountState
	// foreign counts the pages recovered holding data never written there, over the cycles.
	foreign int64
}

// mountState is what the last mount found (powerOn): per block the write pointer (0:
// erased) and P/E count then, and the blocks the firmware resumed (the control
// reuse_open_block).
type mountState struct {
	next, erases []int
	resumed      int
}

// powerOn powers the machine on again after a cut and its check (finish), on rec, the
// recovery: the checker takes what the recovered map reads as each page's only version
// (checker.rebase), and the host, firmware and dies are those of the new machine
// (platforms.PowerOn), the old one closed.
func (r *cutRun) powerOn(c platforms.Config, rec *firmware.Recovery) error {
	old := r.fw.FTL()
	g := old.Geometry()
	ms := mountState{next: make([]int, g.Blocks()), erases: make([]int, g.Blocks())}
	for b := range g.Blocks() {
		d, plane, blk := g.BlockAddr(ftl.BlockID(b))
		dd := r.m.SSD.Channels[g.Channel(d)].Die(d % g.DiesPerChannel)
		ms.next[b], ms.erases[b] = dd.NextPage(plane, blk), old.EraseCount(ftl.BlockID(b)) // the flash's write pointer, as Mount's
	}
	for lpn := range r.pages {
		r.chk.rebase(lpn, r.readUnit(rec.Map[lpn])) // before the dies move to the new machine
	}
	m, rep, err := platforms.PowerOn(c, r.m, rec)
	if err != nil {
		return err
	}
	r.m.Eng.Close()
	ms.resumed = rep.Resumed
	r.out.Closed += int64(rep.Closed)
	r.out.Abandoned += rep.Abandoned
	r.m, r.fw, r.mount = m, m.SSD.FW, ms
	r.fw.OnPowerOff = m.Eng.Stop
	if r.raw, err = hostos.NewRawDevice(m.Host, r.pages*r.ps); err != nil {
		return err
	}
	r.dead, r.watch = false, nil
	r.cycle++
	return nil
}

// rngName returns the name of the seeded stream name of the cycle running: the first
// cycle's are the names alone (the streams of a single cut, unchanged).
func (r *cutRun) rngName(name string) string {
	if r.cycle == 0 {
		return name
	}
	return fmt.Sprintf("%s.cycle[%d]", name, r.cycle)
}

// start spawns the host processes and arms the cut.
func (r *cutRun) start() {
	if r.w.Zoned {
		n := int64(len(r.zones)) / int64(r.w.Procs)
		for k := 0; k < r.w.Procs; k++ {
			rng := sim.NewRNG(r.plan.Seed, fmt.Sprintf("powercut.host[%d]", k))
			lo := int64(k) * n
			r.m.Eng.Spawn(fmt.Sprintf("powercut.host[%d]", k), func(p *sim.Proc) { r.hostZoned(p, rng, lo, n) })
		}
		r.arm()
		return
	}
	part := r.pages / int64(r.w.Procs)
	for k := 0; k < r.w.Procs; k++ {
		rng := sim.NewRNG(r.plan.Seed, r.rngName(fmt.Sprintf("powercut.host[%d]", k)))
		lo := int64(k) * part
		r.m.Eng.Spawn(fmt.Sprintf("powercut.host[%d]", k), func(p *sim.Proc) { r.host(p, rng, lo, part) })
	}
	r.arm()
}

// arm arms the cut.
func (r *cutRun) arm() {
	rng := sim.NewRNG(r.plan.Seed, r.rngName("powercut.cut"))
	r.out.Armed = r.plan.From + sim.Time(rng.Int64N(int64(r.plan.Window)))
	if s := r.plan.Schedule; r.cycle > 0 && s.remount != nil {
		r.out.Armed = sim.Time(rng.Int64N(int64(s.remountWindow)))
	}
	patience := r.plan.Patience
	if patience == 0 {
		patience = r.plan.Schedule.Patience
	}
	r.watch = &watcher{r: r, deadline: r.out.Armed + patience}
	r.m.Eng.At(r.out.Armed, r.watch.arm)
}

// host is one host process: commands on pages [lo, lo+n) until the power is cut.
func (r *cutRun) host(p *sim.Proc, rng *sim.RNG, lo, n int64) {
	buf := make([]uint64, r.w.MaxPages)
	for !r.dead && r.failure == nil {
		if r.w.pause(p); r.dead {
			return
		}
		k := 1 + rng.IntN(r.w.MaxPages)
		span := n
		if r.w.HotShare > 0 && rng.Float64() < r.w.HotShare {
			span = max(int64(k), int64(float64(n)*r.w.HotFraction))
		}
		lpn := lo + rng.Int64N(span-int64(k)+1)
		off, size := lpn*r.ps, int64(k)*r.ps
		switch op := rng.IntN(10); {
		case op < 6:
			fua := r.w.FUAEvery > 0 && rng.IntN(r.w.FUAEvery) == 0
			if r.out.ReadOnly {
				continue // the drive takes no more writes
			}
			for i := range k {
				r.version++
				buf[i] = firmware.Stamp(lpn+int64(i), r.version)
				r.chk.issue(lpn+int64(i), r.version, fua)
			}
			r.raw.SetFUA(fua)
			if _, err := r.raw.DoData(p, uflip.OpWrite, off, size, buf[:k]); err != nil {
				if !r.readOnly(err) {
					r.failure = err
					return
				}
				for i := range k {
					_, v, _ := firmware.StampParts(buf[i])
					r.chk.failedWrite(lpn+int64(i), v)
				}
				continue
			}
			r.chk.ackCommand()
			r.out.Writes++
			for i := range k {
				_, v, _ := firmware.StampParts(buf[i])
				r.chk.acked(lpn+int64(i), v)
			}
			if fua {
				r.watch.durable()
			}
		case op < 9:
			if _, err := r.raw.DoData(p, uflip.OpRead, off, size, buf[:k]); err != nil {
				if !r.unreadable(err, lpn, int64(k)) {
					r.failure = err
					return
				}
				continue
			}
			for i := range k {
				r.chk.read(lpn+int64(i), buf[i])
			}
		default:
			if r.out.ReadOnly {
				continue
			}
			upTo := r.chk.flushSubmitted()
			if _, err := r.raw.DoData(p, uflip.OpFlush, 0, 0, nil); err != nil {
				if r.readOnly(err) {
					continue // not flushed: nothing more is durable
				}
				r.failure = err
				return
			}
			r.chk.flushed(upTo)
			r.watch.durable()
		}
	}
}

// readOnly reports whether err, the failure of a write or flush, is the drive's refusal in
// read-only mode (the firmware is in it: it completes writes and flushes with Attempted
// Write to Read Only Range), and if so records that the drive is read-only.
func (r *cutRun) readOnly(err error) bool {
	if err == nil || !r.fw.ReadOnly() {
		return false
	}
	r.out.ReadOnly = true
	return true
}

// unreadable reports whether err, the failure of a read of pages [lpn, lpn+n), is the
// drive's Unrecovered Read Error (block status BLK_STS_MEDIUM: the die could not decode a
// page, e.g. a two-pass word line read before its fine pass, die/unfinished.go), and if
// so counts the read as stale: the drive did not return the last acknowledged version.
func (r *cutRun) unreadable(err error, lpn, n int64) bool {
	var e *blk.IOError
	if !errors.As(err, &e) || e.Status != blk.StatusMedium {
		return false
	}
	r.chk.unreadable(lpn, n, err)
	return true
}

// cut cuts the power now; met says whether the schedule's condition holds.
func (r *cutRun) cut(met bool) {
	if r.dead {
		return
	}
	r.dead = true
	r.out.At, r.out.Met = r.m.Eng.Now(), met
	if err := r.fw.PowerCut(); err != nil {
		r.failure = err
		r.m.Eng.Stop()
	}
}

// readUnit returns the data word flash holds at mapping unit u of the machine (its page,
// with one unit a page), 0 for ftl.NoUnit.
func (r *cutRun) readUnit(u ftl.Unit) uint64 {
	if u == ftl.NoUnit {
		return 0
	}
	g := r.fw.FTL().Geometry()
	a := g.Addr(g.PageOf(u))
	ch := r.m.SSD.Channels[g.Channel(a.Die)]
	d := ch.Die(a.Die % g.DiesPerChannel)
	return d.SlotStamp(die.Addr{Plane: a.Plane, Block: a.Block, Page: a.Page}, g.SlotOf(u))
}

// finish recovers the map from flash and checks every logical page through it, adding
// what it found to the cut's counts, and returns the recovery.
func (r *cutRun) finish(c platforms.Config) (*firmware.Recovery, error) {
	if r.failure != nil {
		return nil, fmt.Errorf("powercut: schedule %s, seed %d: %w", r.plan.Schedule.Name, r.plan.Seed, r.failure)
	}
	fw := r.fw
	out := r.out
	if !out.Report.Stuck {
		out.Report = fw.PowerLossReport()
	}
	out.GCMoved += fw.Stats.GCPagesMoved
	var rec *firmware.Recovery
	var err error
	if r.plan.SimulateRecovery {
		eng, flash, perr := platforms.PowerOnFlash(c)
		if perr != nil {
			return nil, perr
		}
		rec, err = fw.RecoverOn(eng, flash)
		eng.Close()
	} else {
		rec, err = fw.Recover()
	}
	if err != nil {
		return nil, err
	}
	out.RecoveryTime = max(out.RecoveryTime, rec.Time)
	var v verdict
	for lpn := range r.pages {
		r.chk.judge(&v, lpn, r.readUnit(rec.Map[lpn]))
	}
	out.Pages += v.checked
	out.DurableLoss += v.durableLoss
	out.Volatile += v.volatile
	r.foreign += v.foreign
	out.Stale = r.chk.stale + r.foreign
	if out.First == "" {
		out.First = r.chk.first
	}
	if out.First == "" {
		out.First = v.first
	}
	if r.w.Zoned {
		if err := r.checkZones(rec); err != nil {
			return nil, err
		}
	}
	return rec, nil
}
