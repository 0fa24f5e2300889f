package firmware

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/dram"
	"github.com/fastdrain-sim/fastdrain/firmware/buffer"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Hardware is everything the firmware touches: the flash channels (with their dies), the
// controller DRAM and the NVMe controller front end.
type Hardware struct {
	Channels []*channel.Channel
	DRAM     *dram.DRAM
	Ctrl     *nvmectrl.Controller
}

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
}

// Firmware is the SSD firmware of one controller.
type Firmware struct {
	name  string
	spec  Spec
	eng   *sim.Engine
	hw    Hardware
	cores []*sim.Core
	acts  struct{ hil, evict, gc sim.Activity }

	geo        ftl.Geometry
	ftl        *ftl.FTL
	buf        *buffer.Buffer
	lbaSize    int
	pagesPerNS int64

	cmds *sim.Queue[*nvmectrl.Command] // commands no worker was free to take
	idle []*worker                     // workers waiting for a command, longest first
	// spare holds write contexts not in use: a worker hands each write it serves in events
	// to one and goes back for the next command (hilevents.go, detach).
	spare []*worker

	sched *scheduler

	// Eviction state.
	evict       evictor
	roomQ       []*worker // workers waiting for buffer room, longest first
	freeLooks   []*roomLook
	flushSig    sim.Signal
	roomWaiters int
	flushers    int
	reserved    int // buffer slots promised to writes whose data is in flight
	// The hint's prediction (hint.go): pages of hinted writes received and not yet in the
	// buffer, and pages the latest hinted write announced after itself.
	victimOut, announcedAfter int64
	fgMode                    bool
	bgInFlight                int
	dieRR                     int

	// In-flight programs: a page mapped in the FTL whose program has not completed is
	// served from DRAM with this stamp.
	pending       inFlight
	inflightBlock []uint16
	progDone      sim.Signal

	victims []buffer.Victim

	gcSig  []sim.Signal
	gcBusy []bool

	modeLog []ModeChange

	// OnGC, if set, is called after every GC victim is erased (tests run the invariant
	// checker there).
	OnGC func(f *Firmware)

	Stats Stats
}

// New builds the firmware on hw and registers it with the controller. It starts its
// processes on eng.
func New(name string, spec Spec, eng *sim.Engine, hw Hardware) (*Firmware, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	if len(hw.Channels) == 0 || hw.DRAM == nil || hw.Ctrl == nil {
		return nil, errors.New("firmware: hardware needs channels, a DRAM and a controller")
	}
	cs := hw.Channels[0].Spec()
	ds := cs.Die
	if ds.PageSize != spec.PageSize {
		return nil, fmt.Errorf("firmware.page_size: %d differs from the flash page size %d (sub-page mapping is not supported)",
			spec.PageSize, ds.PageSize)
	}
	for i, ch := range hw.Channels {
		if ch.Spec().Dies != cs.Dies || ch.Spec().Die != ds {
			return nil, fmt.Errorf("firmware: channel %d differs from channel 0; all channels must be alike", i)
		}
	}
	geo := ftl.Geometry{Channels: len(hw.Channels), DiesPerChannel: cs.Dies, Planes: ds.Planes,
		BlocksPerPlane: ds.BlocksPerPlane, PagesPerBlock: ds.PagesPerBlock,
		Kind: ds.PageType}
	fl, err := ftl.New(geo, spec.ftlConfig())
	if err != nil {
		return nil, err
	}
	order, _ := buffer.ParseOrder(spec.Buffer.Order)
	capPages := spec.Buffer.Pages
	if spec.Buffer.Policy.Unbounded() {
		capPages = 0
	}
	f := &Firmware{name: name, spec: spec, eng: eng, hw: hw, geo: geo, ftl: fl,
		buf:     buffer.New(capPages, order),
		lbaSize: hw.Ctrl.Spec().LBASize,
		cmds:    sim.NewQueue[*nvmectrl.Command](name+".cmdq", hw.Ctrl.Spec().MaxCommands),
	}
	f.pagesPerNS = fl.LogicalPages()
	f.inflightBlock = make([]uint16, geo.Blocks())
	f.pending = newInFlight(geo)
	f.victims = make([]buffer.Victim, 0, 1) // evictOne picks one at a time into it
	clk := sim.NewClock(spec.CoreFreq)
	for i := 0; i < spec.Cores; i++ {
		c := sim.NewCore(fmt.Sprintf("%s.core[%d]", name, i), clk)
		f.acts.hil = c.Res.Activity("hil")
		f.acts.evict = c.Res.Activity("evict")
		f.acts.gc = c.Res.Activity("gc")
		f.cores = append(f.cores, c)
	}
	f.sched = newScheduler(f)
	f.gcSig = make([]sim.Signal, geo.Dies())
	f.gcBusy = make([]bool, geo.Dies())
	hw.Ctrl.SetFirmware(f)
	for w := 0; w < spec.Workers; w++ {
		wk := newWorker(f, w)
		eng.Spawn(fmt.Sprintf("%s.hil[%d]", name, w), wk.run)
	}
	f.evict.f = f
	// Its first round where a process spawned now would start.
	eng.SchedulePhase(eng.Now(), sim.PhaseProcess, &f.evict, nil, evRound)
	for d := 0; d < geo.Dies(); d++ {
		eng.Spawn(fmt.Sprintf("%s.gc[%d]", name, d), f.gcLoop(d))
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
func (f *Firmware) ModeLog() []ModeChange { return f.modeLog }

// Name returns the firmware's name.
func (f *Firmware) Name() string { return f.name }

// Spec returns the configuration.
func (f *Firmware) Spec() Spec { return f.spec }

// FTL returns the flash translation layer (for statistics and invariant checks).
func (f *Firmware) FTL() *ftl.FTL { return f.ftl }

// Buffer returns the write-buffer bookkeeping (for statistics).
func (f *Firmware) Buffer() *buffer.Buffer { return f.buf }

// Cores returns the controller cores.
func (f *Firmware) Cores() []*sim.Core { return f.cores }

// LogicalPages returns the number of 4 KiB logical pages exported to the host.
func (f *Firmware) LogicalPages() int64 { return f.pagesPerNS }

// Level returns the buffer level reported in completions now: that of the predicted
// occupancy, or of the current one under upcall "current" (hint.go).
func (f *Firmware) Level() nvmectrl.BufferLevel {
	occ := int64(f.buf.Occupancy())
	if f.spec.Buffer.Upcall == UpcallPredicted {
		occ = f.predicted()
	}
	return nvmectrl.BufferLevel(f.spec.Buffer.Watermarks.LevelOf(int(occ), f.buf.Capacity()))
}

// Submit implements nvmectrl.Firmware: the command goes to the worker that has been idle
// longest, or joins the HIL's queue if every worker is busy. A worker handed a command
// here has its first step (parsing, and a read's lookups) booked on its core at once and
// takes the command when that step ends (wkStart): reads and whole-page writes are served
// in events, without a process switch (hilevents.go), the others by its process.
func (f *Firmware) Submit(now sim.Time, cmd *nvmectrl.Command) {
	f.prefetch(cmd)
	if len(f.idle) > 0 {
		wk := f.idle[0]
		copy(f.idle, f.idle[1:])
		f.idle[len(f.idle)-1] = nil
		f.idle = f.idle[:len(f.idle)-1]
		// Scheduled where the idle process's wake-up would be (Signal.NotifyAt).
		wk.next = cmd
		f.eng.SchedulePhase(max(now, wk.core.Book(now, f.acts.hil, wk.front(cmd))), sim.PhaseProcess, wk, nil, wkStart)
		return
	}
	if !f.cmds.TrySend(cmd) {
		panic(fmt.Sprintf("firmware %s at %v: command queue full (more commands than max_commands)", f.name, now))
	}
}

// prefetchPages bounds the pages of one command whose cache lines prefetch asks for.
const prefetchPages = 32

// prefetch asks the CPU to bring the buffer-index cells of a read's or write's pages (the
// first prefetchPages of them), and a read's mapping-table entries, into the cache: they
// are used when the command's steps run, after other events, so the cache misses overlap
// with those and with each other (wall-clock only; a multi-page command, such as a
// write-back of 128 KiB, otherwise misses on every page's cell in turn). A write's mapping
// entries are used only when its pages are evicted (evictOne prefetches them).
func (f *Firmware) prefetch(cmd *nvmectrl.Command) {
	if cmd.IsAdmin() {
		return
	}
	op := cmd.SQE.Opcode()
	if op != nvmectrl.OpRead && op != nvmectrl.OpWrite {
		return
	}
	ps := int64(f.spec.PageSize)
	off := int64(cmd.SQE.SLBA()) * int64(f.lbaSize)
	first := off / ps
	last := min((off+int64(cmd.SQE.Blocks())*int64(f.lbaSize)-1)/ps, first+prefetchPages-1)
	for lpn := first; lpn <= last; lpn++ {
		f.buf.PrefetchIndex(lpn)
	}
	if op == nvmectrl.OpRead {
		// Sixteen 4-byte entries share a 64-byte line: one prefetch per line.
		for lpn := first; lpn <= last; lpn++ {
			if lpn == first || lpn%16 == 0 {
				f.ftl.PrefetchMapping(lpn)
			}
		}
	}
}

// core returns the core for a process index.
func (f *Firmware) core(i int) *sim.Core { return f.cores[i%len(f.cores)] }

// dieOf returns the channel and the die index on it of global die g.
func (f *Firmware) dieOf(g int) (*channel.Channel, int) {
	return f.hw.Channels[g/f.geo.DiesPerChannel], g % f.geo.DiesPerChannel
}

// addr converts a PPN to the die address used by the channel.
func (f *Firmware) addr(p ftl.PPN) (g int, a die.Addr) {
	x := f.geo.Addr(p)
	return x.Die, die.Addr{Plane: x.Plane, Block: x.Block, Page: x.Page}
}

// dramAddr is where a logical page's data sits in controller DRAM (the buffer region).
func (f *Firmware) dramAddr(lpn int64) uint64 {
	capBytes := uint64(f.hw.DRAM.Spec().Capacity)
	return (uint64(lpn) * uint64(f.spec.PageSize)) % (capBytes - uint64(f.spec.PageSize)) &^ 63
}

// dramMove charges a data move of n bytes of the buffer region starting at logical page
// lpn's slot, split where the region wraps, starting at t; it returns when it is done.
func (f *Firmware) dramMove(t sim.Time, lpn int64, n int, write bool) sim.Time {
	capBytes := uint64(f.hw.DRAM.Spec().Capacity) - uint64(f.spec.PageSize)
	done := t
	for n > 0 {
		a := f.dramAddr(lpn)
		k := int(min(uint64(n), capBytes-a))
		done = max(done, f.hw.DRAM.Access(t, a, k, write))
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
	if err := f.ftl.Precondition(fill, overwrite, random, seed); err != nil {
		return err
	}
	g := f.geo
	var srcs []preStamps // one per die, made when the FTL took the closed form
	for b := 0; b < g.Blocks(); b++ {
		n := f.ftl.NextPage(ftl.BlockID(b))
		if n == 0 {
			continue
		}
		dieIdx, plane, blk := g.BlockAddr(ftl.BlockID(b))
		ch, d := f.dieOf(dieIdx)
		first := g.FirstPage(ftl.BlockID(b))
		if _, ok := f.ftl.PreconditionOwner(first); ok {
			if srcs == nil {
				srcs = make([]preStamps, g.Dies())
			}
			src := &srcs[dieIdx]
			src.f, src.die = f, dieIdx
			ch.Die(d).FillFrom(plane, blk, n, src)
			continue
		}
		ch.Die(d).Fill(plane, blk, n, func(page int) uint64 {
			if lpn, ok := f.ftl.Owner(first + ftl.PPN(page)); ok {
				return Stamp(lpn, 1)
			}
			return staleStamp // superseded data: any value but a live page's stamp
		})
	}
	return nil
}

// preStamps gives one die's preconditioned pages their stamps on demand: version 1 of the
// logical page preconditioning wrote there (superseded copies included: they hold the same
// version of the same page).
type preStamps struct {
	f   *Firmware
	die int
}

// FillStamp implements die.StampSource.
func (s *preStamps) FillStamp(plane, block, page int) uint64 {
	p := s.f.geo.PPN(ftl.Addr{Die: s.die, Plane: plane, Block: block, Page: page})
	lpn, ok := s.f.ftl.PreconditionOwner(p)
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
