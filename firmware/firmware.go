package firmware

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/firmware/buffer"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/nand"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Stats are the firmware's cumulative counters.
type Stats struct {
	Commands, Reads, Writes, Flushes, Trims  int64 // commands by kind
	ReadPages, WritePages                    int64
	ReadHits, PendingHits, Unmapped          int64 // read pages served from the buffer, from in-flight programs, unmapped
	FlashReads                               int64 // host page reads that went to flash
	Stalls                                   int64 // writes that waited for buffer room
	StallTime                                sim.Time
	ForegroundEvictions, BackgroundEvictions int64 // pages
	GCRuns, GCPagesMoved                     int64
	Errors                                   int64 // commands completed with an error status

	// Engagement of FastDrain's mechanisms (issue 31; docs/firmware.md "Engagement
	// counters"), so a result shows how much each was in force, not only that it happened.
	HintedWrites int64 // write commands received carrying the victimization hint
	// HintEpisodes counts foreground episodes the hint started: the policy switched to
	// foreground (BufferView.LogSwitch) with no write or flush waiting and the occupancy plus
	// reserved slots under the high watermark, so the announced pages alone put the
	// prediction over it (BufferView.HintDecisive).
	HintEpisodes int64
	// HintActedOn counts the hinted writes the firmware made room for in advance: the one
	// whose announcement started a hint episode, and those received while one was in force.
	HintActedOn int64
	// ForegroundTime is the time the evictor spent in foreground mode: from a decision to
	// evict in the foreground (sending pages, or waiting for a die with room) to the next
	// decision that was not, or to a round that found nothing dirty; from time 0.
	ForegroundTime sim.Time
	// AboveHigh counts completions whose buffer level (the upcall) was above-high.
	AboveHigh int64
	// BackgroundIdle and BackgroundBusy count background pages sent to dies idle and busy
	// of host work by the idle-die estimate (activity.go), whatever the policy: FD-Buf
	// sends to idle dies only; Oracle-BG, the control, shows how many its rule would refuse.
	BackgroundIdle, BackgroundBusy int64
	// ReadSuspends counts host flash reads that suspended a program or erase on their die
	// (flash.die.suspend).
	ReadSuspends int64
	// ReadsBehindArray counts host flash reads that arrived at a die already running a
	// program, an erase or a GC read (handed to its channel), the reads that wait behind
	// flash work unless they suspend it; ReadsBehindBackground those of them whose die was
	// running a background eviction program.
	ReadsBehindArray, ReadsBehindBackground int64
	// Under an allocator that gives foreground writes fast pages (the latency-aware one):
	// ForegroundSlowDies counts the dies a foreground round passed over, though they had
	// room, because they had no LSB page to take without skipping; ForegroundFallbacks
	// the rounds that found no die with room and such a page and let the allocator skip
	// or take slower pages (evict.go).
	ForegroundSlowDies, ForegroundFallbacks int64
}

// Firmware is the SSD firmware of one controller.
type Firmware struct {
	name string
	spec Spec
	eng  Timers
	// The ports (ports.go): the flash, the buffer memory (memCap bytes) and the host.
	flash  FlashPort
	mem    BufferMemory
	memCap uint64
	host   HostPort
	cpu    CPU
	cores  []*sim.Core // the firmware's own cores, unless ports.CPU is set
	flows  *flows      // nil unless a timeline traces flow arrows (flows.go)

	geo        ftl.Geometry
	ftl        *ftl.FTL
	buf        *buffer.Buffer
	ns         []fwNamespace // the namespace table, NSID i+1 at index i (namespaces.go)
	units      int           // mapping units a flash page (sub-page mapping; 1 by default)
	fastPaging bool          // the allocator gives foreground writes fast pages (ftl.FTL.FastPaging)

	// The firmware's parts, each holding its own state: the host interface layer, the
	// write-buffer manager, the evictor, the flash scheduler and garbage collection.
	hil   hil
	wb    writeBuffer
	evict evictor
	sched *scheduler
	// activity is the per-die estimate of the applications' use of the dies (activity.go).
	activity hostActivity
	// bgBudget is the most background programs in flight: BackgroundMax, bounded by
	// BackgroundShare of the dies (backgroundBudget).
	bgBudget int
	// bgSet is the background pages one internal buffer eviction owes under the
	// per-eviction rule, 0 under the others (backgroundSet).
	bgSet int
	gc    collector
	// faults counts the flash faults handled (faults.go).
	faults FaultStats

	// In-flight programs: a page mapped in the FTL whose program has not completed is
	// served from DRAM with this stamp; inflightBlock counts them per block (GC waits for
	// a victim's to complete).
	pending       inFlight
	inflightBlock []uint16
	// newer counts, per block, the programs in flight of a newer copy of one of its units:
	// the block is not erased until they complete (eraseguard.go).
	newer []uint16
	// unguarded: the control firmware.power_loss.controls.unguarded_erase (no erase guard).
	unguarded bool
	// fin is word-line finality (final.go): the provisional pages of the open blocks.
	fin finality

	// fdp is Flexible Data Placement (fdp.go), nil without it.
	fdp *fdpState
	// zerase erases reset zones' blocks (znserase.go).
	zerase zoneEraser
	// zbak is the zone backup area (znsbackup.go): a ZNS Flush's provisional pages.
	zbak zoneBackup
	// pl is the power-loss state: the out-of-band records and the cut (powerloss.go).
	pl powerState
	// ro is the read-only mode the drive enters at the end of its life (readonly.go).
	ro readOnly
	// slc is the SLC cache's firmware half (slcfold.go), nil without one.
	slc *slcCache

	// OnGC, if set, is called after every GC victim is erased (tests run the invariant
	// checker there).
	OnGC func(f *Firmware)
	// OnPowerOff, if set, is called when the firmware stops after a power cut (a runner
	// stops the simulation there).
	OnPowerOff func()
	// OnErase, if set, is called when an erase is queued (GC's victim, a merge's block):
	// from then on the block's records are gone for recovery (a power-cut campaign's
	// lookahead looks there).
	OnErase func()

	Stats Stats
}

// New builds the firmware on ports and registers it with the host port. Its tasks boot at
// eng's current time (eng is the timer port unless ports.Timers is set). The simulated
// hardware's ports are package hwadapter's.
func New(name string, spec Spec, eng *sim.Engine, ports Ports) (*Firmware, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	if ports.Flash == nil || ports.Memory == nil || ports.Host == nil {
		return nil, errors.New("firmware: ports need a flash port, a buffer memory and a host port")
	}
	geo, ds := ports.Flash.Geometry(), ports.Flash.Die()
	k, err := unitsPerPage(spec, ds)
	if err != nil {
		return nil, err
	}
	if geo.Channels < 1 || geo.DiesPerChannel < 1 {
		return nil, fmt.Errorf("firmware: flash port has %d channels of %d dies; it needs at least one of each", geo.Channels, geo.DiesPerChannel)
	}
	if geo.Units() != k || geo.Planes != ds.Planes || geo.BlocksPerPlane != ds.BlocksPerPlane || geo.PagesPerBlock != ds.PagesPerBlock || geo.Kind == nil ||
		geo.SLCPages != ds.SLCPages {
		return nil, errors.New("firmware: the flash port's geometry is not that of its dies (ftl.GeometryOf)")
	}
	if err := spec.Scheduler.validateCap(geo.Dies()); err != nil {
		return nil, err
	}
	memCap := ports.Memory.Capacity()
	if memCap < 2*uint64(spec.PageSize) {
		return nil, fmt.Errorf("firmware: buffer memory of %d bytes is smaller than two pages", memCap)
	}
	var tm Timers = eng
	if ports.Timers != nil {
		tm = ports.Timers
	}
	fl, err := ftl.New(geo, spec.ftlConfig(geo))
	if err != nil {
		return nil, ftlErrors(err)
	}
	if fl.Hybrid() {
		if ds.Faults {
			return nil, fmt.Errorf("firmware.ftl.mapping: %s does not handle flash faults (flash.die.faults): its merges assume every program and erase succeeds", spec.FTL.Mapping)
		}
	}
	order, _ := buffer.ParseOrder(spec.Buffer.Order)
	capPages := spec.Buffer.Pages
	if spec.Buffer.Policy.Unbounded() {
		capPages = 0
	}
	host := ports.Host
	f := &Firmware{name: name, spec: spec, eng: tm, geo: geo, ftl: fl,
		flash: ports.Flash, mem: ports.Memory, memCap: memCap, host: host,
		buf:   buffer.New(capPages, order),
		units: k,
	}
	if err := f.buildNamespaces(host.Spec().Namespaces); err != nil {
		return nil, err
	}
	if host.Spec().FDP.Enabled {
		if ds.Faults {
			return nil, errors.New("nvme.fdp.enabled: Flexible Data Placement with a fault model (flash.die.faults) is not modelled: a retired block's reclaim unit is not rebuilt")
		}
		if err := f.enableFDP(host.Spec()); err != nil {
			return nil, err
		}
	}
	if f.slc, err = newSLCCache(f, ds.Faults); err != nil {
		return nil, err
	}
	f.hil.cmds = sim.NewQueue[*hal.HostCmd](name+".cmdq", host.Spec().Slots)
	f.hil.idle = sim.NewQueue[*worker](name+".idle", spec.Workers)
	f.inflightBlock = make([]uint16, geo.Blocks())
	f.newer = make([]uint16, geo.Blocks())
	f.unguarded = spec.PowerLoss.Controls.UnguardedErase
	f.pending = newInFlight(geo)
	f.pl.f = f
	f.pl.bind()
	f.ro.f = f
	if spec.PowerLoss.Enabled {
		f.pl.oob = make([]uint64, geo.AllUnits())
		f.pl.slcHdr = newSLCHeaders(f)
		if spec.PowerLoss.CutAt > 0 {
			f.at(spec.PowerLoss.CutAt, &f.pl.on.cut)
		}
	}
	f.evict.victims = make([]buffer.Victim, 0, geo.Units()) // evictOne picks a page's worth at a time into it
	f.cpu = ports.CPU
	if f.cpu == nil {
		own := newCores(name, spec.Cores, sim.NewClock(spec.CoreFreq))
		f.cpu, f.cores = own, own.cs
	}
	half := spec.Buffer.IdleHalfLife
	if half == 0 {
		half = ds.MeanTProg
	}
	f.activity = newHostActivity(geo.Dies(), max(half, 1))
	f.fastPaging = fl.FastPaging()
	f.bgBudget = backgroundBudget(spec.Buffer, geo.Dies())
	f.bgSet = backgroundSet(spec.Buffer, geo.Dies())
	f.sched = newScheduler(f)
	f.fin.init(f)
	if err := f.scanFactoryBad(); err != nil {
		return nil, err
	}
	if err := f.initBackup(); err != nil {
		return nil, err
	}
	host.SetFirmware(f)
	// Boot: each HIL worker, then the evictor, then each die's GC task takes its first
	// step now, in that order.
	for w := 0; w < spec.Workers; w++ {
		f.at(tm.Now(), &newWorker(f, w).on.boot)
	}
	f.evict.f = f
	f.evict.bind()
	def, _ := evictionPolicies.lookup(string(spec.Buffer.Policy)) // Validate checked it
	f.evict.policy = def.New(spec)
	f.at(tm.Now(), &f.evict.on.round)
	for d := 0; d < geo.Dies(); d++ {
		t := newGCTask(f, d)
		f.gc.tasks = append(f.gc.tasks, t)
		f.at(tm.Now(), &t.on.wake)
	}
	return f, nil
}

// ModeChange records a switch of the fastdrain policy between background and foreground
// eviction, with the occupancy and predicted occupancy (pages) that caused it.
type ModeChange struct {
	At         sim.Time
	Foreground bool
	Occupancy  int
	Predicted  int64
}

// ModeLog returns the fastdrain policy's mode switches so far (the first 10,000).
func (f *Firmware) ModeLog() []ModeChange { return f.evict.modeLog }

// at arms a timer: step h (a *step, or a task of one step) runs at t (not before now),
// after the steps already due then.
func (f *Firmware) at(t sim.Time, h sim.Handler) {
	f.eng.SchedulePhase(t, sim.PhaseProcess, h, nil, 0)
}

// Name returns the firmware's name.
func (f *Firmware) Name() string { return f.name }

// Spec returns the configuration.
func (f *Firmware) Spec() Spec { return f.spec }

// FTL returns the flash translation layer (for statistics and invariant checks).
func (f *Firmware) FTL() *ftl.FTL { return f.ftl }

// Buffer returns the write-buffer bookkeeping (for statistics).
func (f *Firmware) Buffer() *buffer.Buffer { return f.buf }

// Cores returns the controller cores: the firmware's own, or none if Ports.CPU was given.
func (f *Firmware) Cores() []*sim.Core { return f.cores }

// LogicalPages returns the number of 4 KiB logical pages of namespace 1, the host's first
// device: with no namespaces configured, every logical page the FTL exports.
func (f *Firmware) LogicalPages() int64 { return f.ns[0].pages }

// Level returns the buffer level reported in completions now: that of the predicted
// occupancy, or of the current one under upcall "current" (hint.go).
func (f *Firmware) Level() bufferlevel.Level {
	occ := int64(f.buf.Occupancy())
	if f.spec.Buffer.Upcall == UpcallPredicted {
		occ = f.predicted()
	}
	return f.spec.Buffer.Watermarks.LevelOf(int(occ), f.buf.Capacity())
}

// prefetchPages bounds the pages of one command whose cache lines prefetch asks for.
const prefetchPages = 32

// prefetch asks the CPU to bring the buffer-index cells of a read's or write's pages (the
// first prefetchPages of them), and a read's mapping-table entries, into the cache: they
// are used when the command's steps run, after other events, so the cache misses overlap
// with those and with each other (wall-clock only; a multi-page command, such as a
// write-back of 128 KiB, otherwise misses on every page's cell in turn). A write's mapping
// entries are used only when its pages are evicted (evictOne prefetches them).
func (f *Firmware) prefetch(cmd *hal.HostCmd) {
	if cmd.Admin {
		return
	}
	op := cmd.Op
	if op != nvme.OpRead && op != nvme.OpWrite {
		return
	}
	ns := f.nsOf(cmd)
	if ns == nil {
		return
	}
	ps := int64(f.spec.PageSize)
	off := int64(cmd.SLBA) * int64(ns.lbaSize)
	first := ns.base + off/ps
	last := min(ns.base+(off+int64(cmd.Blocks)*int64(ns.lbaSize)-1)/ps, first+prefetchPages-1)
	for lpn := first; lpn <= last; lpn++ {
		f.buf.PrefetchIndex(lpn)
	}
	if op == nvme.OpRead {
		// Sixteen 4-byte entries share a 64-byte line: one prefetch per line.
		for lpn := first; lpn <= last; lpn++ {
			if lpn == first || lpn%16 == 0 {
				f.ftl.PrefetchMapping(lpn)
			}
		}
	}
}

// core returns the core for a task index (worker or die).
func (f *Firmware) core(i int) int { return i % f.cpu.Cores() }

// addr converts a PPN to the die address used by the channel.
func (f *Firmware) addr(p ftl.PPN) (g int, a nand.Addr) {
	x := f.geo.Addr(p)
	return x.Die, nand.Addr{Plane: x.Plane, Block: x.Block, Page: x.Page}
}

// dramAddr is where a logical page's data sits in controller DRAM (the buffer region).
func (f *Firmware) dramAddr(lpn int64) uint64 {
	capBytes := f.memCap
	return (uint64(lpn) * uint64(f.spec.PageSize)) % (capBytes - uint64(f.spec.PageSize)) &^ 63
}

// dramMove charges a data move of n bytes of the buffer region starting at logical page
// lpn's slot, split where the region wraps, starting at t; it returns when it is done.
func (f *Firmware) dramMove(t sim.Time, lpn int64, n int, write bool) sim.Time {
	capBytes := f.memCap - uint64(f.spec.PageSize)
	done := t
	for n > 0 {
		a := f.dramAddr(lpn)
		k := int(min(uint64(n), capBytes-a))
		done = max(done, f.mem.Access(t, a, k, write))
		n -= k
		lpn += int64((k + f.spec.PageSize - 1) / f.spec.PageSize)
	}
	return done
}

// Precondition fills the device as ftl.Precondition does and brings every die to the same
// state (pages programmed with their stamps) without simulating the writes. Stamps are
// version 1 of each logical page. Call it before the simulation starts.
//
// When the FTL preconditioned in closed form, the dies keep no stamps for the filled pages:
// each die asks the FTL which logical page preconditioning wrote to a page when it is read
// (die.FillFrom), so preconditioning costs no memory per page. Otherwise every filled page's
// stamp is stored, with staleStamp (a value no Stamp returns) for pages holding superseded
// data.
func (f *Firmware) Precondition(fill, overwrite float64, random bool, seed uint64) error {
	img, ok := f.flash.(FlashImage)
	if !ok {
		return fmt.Errorf("firmware %s: the flash port cannot be preconditioned (it is not a FlashImage)", f.name)
	}
	if err := f.zonedPrecondition(fill); err != nil {
		return err
	}
	if err := f.ftl.Precondition(fill, overwrite, random, seed); err != nil {
		return err
	}
	f.finalPrecondition()
	g := f.geo
	var srcs []preStamps // one per die, made when the FTL took the closed form
	for b := 0; b < g.Blocks(); b++ {
		n := f.ftl.NextPage(ftl.BlockID(b))
		if n == 0 {
			continue
		}
		dieIdx, plane, blk := g.BlockAddr(ftl.BlockID(b))
		first := g.FirstPage(ftl.BlockID(b))
		if _, ok := f.ftl.PreconditionOwner(first); ok {
			if srcs == nil {
				srcs = make([]preStamps, g.Dies())
			}
			src := &srcs[dieIdx]
			src.f, src.die = f, dieIdx
			img.FillFrom(dieIdx, plane, blk, n, src)
			f.pl.preconditioned(f, ftl.BlockID(b), n)
			continue
		}
		u0 := f.geo.UnitOf(first, 0)
		img.Fill(dieIdx, plane, blk, n, func(i int) uint64 { // i: the page's unit (FlashImage.Fill)
			if lpn, ok := f.ftl.Owner(u0 + ftl.Unit(i)); ok {
				return Stamp(lpn, 1)
			}
			return staleStamp // superseded data: any value but a live page's stamp
		})
		f.pl.preconditioned(f, ftl.BlockID(b), n)
	}
	f.fdpPrecondition()
	return nil
}

// preStamps gives one die's preconditioned pages their stamps on demand: version 1 of the
// logical page preconditioning wrote there (superseded copies included: they hold the same
// version of the same page).
type preStamps struct {
	f   *Firmware
	die int
}

// FillStamp implements nand.StampSource.
func (s *preStamps) FillStamp(plane, block, page int) uint64 {
	p := s.f.geo.PPN(ftl.Addr{Die: s.die, Plane: plane, Block: block, Page: page})
	lpn, ok := s.f.ftl.PreconditionOwner(p)
	if !ok && s.f.ftl.Padded(p) {
		return nand.ErasedStamp // a finality pad of preconditioning (finalPrecondition): no data
	}
	if !ok {
		panic(fmt.Sprintf("firmware %s: die %d plane %d block %d page %d was not preconditioned", s.f.name, s.die, plane, block, page))
	}
	return Stamp(lpn, 1)
}

// StampVersionBits is how many bits of a Stamp hold the version: the low 32, with the
// logical page in the high 32. Logical pages fit, since the FTL's physical page numbers are
// 32-bit (ftl.Geometry.Validate refuses 2³² − 3 pages or more), and 2³² − 1 versions do not
// wrap in any run this simulator can make: at the whole stack's ~10 µs of wall time per
// simulated page write it would take 12 hours of writes alone (docs/performance.md).
const StampVersionBits = 32

// MaxStampVersion is the largest version a Stamp can carry: 2³² − 1.
const MaxStampVersion = 1<<StampVersionBits - 1

// staleStamp is the stamp preconditioning gives a page holding superseded data: logical
// page 0, version 0, which no Stamp carries (versions start at 1).
const staleStamp uint64 = 0

// Stamp is the out-of-band stamp of version v of logical page lpn: lpn in the high 32
// bits, v in the low 32 (StampVersionBits). The host writes the same value in the first
// eight bytes of the page (see package doc), so reads can be checked end to end. Versions
// start at 1, so no stamp is 0, the value an unmapped (never written or trimmed) page reads
// as; the stamp of a page is never confused with another page's or version's. lpn outside
// [0, 2³²) or v outside [1, MaxStampVersion] is the caller's bug (a version counter run past
// its width would otherwise wrap silently) and panics, naming the value.
func Stamp(lpn int64, v uint64) uint64 {
	if lpn < 0 || lpn >= 1<<32 {
		panic(fmt.Sprintf("firmware.Stamp: logical page %d outside [0, 2^32)", lpn))
	}
	if v == 0 || v > MaxStampVersion {
		panic(fmt.Sprintf("firmware.Stamp: version %d of logical page %d outside [1, %d] (a version counter wrapped or started at 0)",
			v, lpn, uint64(MaxStampVersion)))
	}
	return uint64(lpn)<<StampVersionBits | v
}

// StampParts splits a stamp made by Stamp into its logical page and version; ok is false
// for a value no Stamp returns (0, the unmapped value, among them).
func StampParts(s uint64) (lpn int64, v uint64, ok bool) {
	lpn, v = int64(s>>StampVersionBits), s&MaxStampVersion
	return lpn, v, v != 0
}

// Track adds the firmware's time series to s: buffer occupancy, dirty pages, pages being
// evicted and free blocks are sampled at the sampler's interval.
func (f *Firmware) Track(s *sim.Sampler) {
	s.Track(f.name+".buffer.occupancy", func() int64 { return int64(f.buf.Occupancy()) })
	s.Track(f.name+".buffer.dirty", func() int64 { return int64(f.buf.Dirty()) })
	s.Track(f.name+".buffer.evicting", func() int64 { return int64(f.buf.Evicting()) })
	s.Track(f.name+".ftl.free_blocks", func() int64 {
		n := 0
		for d := 0; d < f.geo.Dies(); d++ {
			for p := 0; p < f.geo.Planes; p++ {
				n += f.ftl.FreeBlocks(d, p)
			}
		}
		return int64(n)
	})
}
