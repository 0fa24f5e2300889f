package platforms

import (
	"fmt"
	"io"
	"strings"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/energy"
	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/hwadapter"
	"github.com/fastdrain-sim/fastdrain/internal/sysmem"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Limits bounds what a configuration may ask of the machine that simulates it.
type Limits struct {
	// Memory is the most memory a run may need, by the resource guard's estimate
	// (MemoryEstimate); a configuration that needs more is refused before anything is
	// built. 0, the default, means the machine's memory: its physical memory or its cgroup
	// limit, whichever is lower (internal/sysmem). Set it higher to run into swap, lower to
	// leave room for other work.
	Memory sim.Size `yaml:"memory"`
	// StallTimeout is how long host commands may be outstanding with none completing
	// before the run stops with a stall report (stall.go): a time with its unit, e.g.
	// 500ms; DefaultStallTimeout by default (0, in a Config built in Go, means it too).
	StallTimeout sim.Time `yaml:"stall_timeout"`
}

// programBytes is the memory a run holds besides the parts EstimateMemory works out: the
// program and the Go runtime before any machine exists (a package's test binary holds
// 13.3–14.5 MB), the small structures of a built machine no part counts (the host block
// layer's tags and request pools, the controller's command slots, the engine, the
// runtime's metadata) and the records and buffers of a short run. Measured on the tiny
// preset, whose counted parts are 3.1 MB: 20.9 MB for a test process that builds it and
// writes 8 MiB (TestMemoryEstimateMatchesRSS), 22.4 MB for its default 10 s run
// (`fastdrain run --preset tiny`, whose energy trace the peak counts apart); 17 MiB is
// what puts both within a few per cent.
const programBytes = 17 << 20

// RunDuration is the simulated run the estimate's peak is for: the run command's default
// (--duration 10s). What a run records in time (the energy trace) grows with it.
const RunDuration = 10 * sim.Second

// RunScenario is the scenario of the run the estimate's peak is for: the run command's
// default (--scenario), with every application's default configuration (apps.DefaultSpec).
const RunScenario = "apache-u+ungzip"

// runBytesPerPage is what a run holds for each 4 KiB page its applications may move through
// the page cache (apps.Spec.IOBytesBound over RunDuration), beyond the parts counted apart:
// the files' page tables (a frame index a file page, grown by appending, the outgrown
// arrays included), the applications' latency series, the histograms and samplers of the
// requests (16–24 B a request, a request 8 pages for Ungzip's 32 KiB writes), the page
// cache's and block layer's request records and the engine's events of each I/O, which Go
// collects only when the heap has doubled since its last collection (the models' large
// tables count in the heap, so on the larger presets little of it is collected before the
// run ends). Measured, not derived (issue 38, `/usr/bin/time -v` of `fastdrain run
// --preset P --no-files`, Maximum resident set size): fastdrain-tlc-8x, whose array keeps
// up with the scenario's bound (Ungzip at 145 of its 160 MB/s), held 79.0 MB against
// 50.5 MB of the other parts, 54 B for each of the bound's 530,226 pages; the slower
// arrays move fewer pages than the bound (fastdrain-small 86,375: its full buffer stalls
// Ungzip) and held 1–9 MB more than their other parts. A constant from 30 to 36 B puts
// every preset within 20 % both in the command and in TestMemoryPeakMatchesRunRSS's child
// process (a test binary, 3–4 MB more: 82.7 MB for fastdrain-tlc-8x); 34 B is near the
// middle.
const runBytesPerPage = 34

// MemoryPart is one line of a memory estimate: what it is for and its bytes in memory once
// the machine is built and at the peak of a run.
type MemoryPart struct {
	What        string
	Build, Peak int64
}

// MemoryEstimate is the memory a configuration needs: its parts, and their sums once built
// and at the peak of a run; Heap is what the parts' structures take on the Go heap at
// build, written or not (tables of zeros take heap but not memory), and WriteBytes what a
// run adds for each flash page it programs on a block not programmed before.
type MemoryEstimate struct {
	Parts             []MemoryPart
	Build, Peak, Heap int64
	WriteBytes        int64
}

// WriteText prints the estimate part by part for people (fastdrain config validate
// --memory): each part's bytes at build and at the peak, the totals, and what a run adds
// per flash page of pageSize bytes it programs.
func (e MemoryEstimate) WriteText(w io.Writer, pageSize int) error {
	fmt.Fprintf(w, "%-90s %14s %14s\n", "estimated memory", "build (B)", "peak (B)")
	for _, p := range e.Parts {
		fmt.Fprintf(w, "%-90s %14d %14d\n", p.What, p.Build, p.Peak)
	}
	fmt.Fprintf(w, "%-90s %14d %14d\n", "total", e.Build, e.Peak)
	perGiB := float64(e.WriteBytes) * float64(1<<30) / float64(pageSize) / (1 << 20)
	_, err := fmt.Fprintf(w, "a run adds up to %d B for each flash page it programs on a block not programmed before (%.1f MiB for each GiB written)\n",
		e.WriteBytes, perGiB)
	return err
}

// EstimateMemory works out the memory c needs, counting what is written, not only what is
// allocated: the operating system gives a page of a zeroed allocation memory only when it
// is first written, and the large tables of the models (the FTL's maps, the out-of-band
// records of power-loss recovery, the dies' stamps) are zeros until the run writes them.
// At build: every model's structures for its geometry (die.MemoryBytes, firmware.MemoryBytes,
// nvmedrv.Spec.MemoryBytes) with the tables as preconditioning leaves them
// (firmware.ResidentBytes; the stamps of preconditioned blocks only where preconditioning
// stores them, die.MemoryBytes), and the program itself (programBytes). At the peak of a
// run: the page cache at its full size (pagecache.Spec.MemoryBytes) and an unbounded buffer
// holding every logical page. What a run's flash writes add grows with what it writes:
// WriteBytes a page, which a run of seconds on a large array keeps small and a run that
// rewrites the whole device brings to WriteBytes × its pages. c must be valid apart from
// the guard itself.
func (c Config) EstimateMemory() MemoryEstimate {
	f := c.Flash
	dies := int64(f.Dies())
	ds := c.DieSpec()
	dpc := f.Ways * f.DiesPerPackage
	fds := hwadapter.DieSpec(ds)
	db, _ := die.MemoryBytes(ds)
	fb, fp := firmware.MemoryBytes(c.Firmware, fds, f.Channels, dpc)
	fr := firmware.ResidentBytes(c.Firmware, fds, f.Channels, dpc, c.Precondition.Fill, c.Precondition.Overwrite)
	geo := ftl.GeometryOf(f.Channels, dpc, fds)
	// The blocks preconditioning fills, spread evenly over the dies.
	_, written := ftl.PreconditionWrites(geo, c.Firmware.FTL, c.Precondition.Fill, c.Precondition.Overwrite)
	pages := (written + int64(geo.Units()) - 1) / int64(geo.Units())
	blocks := min((pages+int64(geo.PagesPerBlock)-1)/int64(geo.PagesPerBlock), int64(geo.Blocks()))
	dieRes := dies * die.ResidentBytes(ds, (blocks+dies-1)/dies)
	if blocks > 0 && !ftl.PreconditionClosedForm(geo, c.Firmware.FTL, ds.Faults.FactoryBad > 0) {
		// Preconditioned through the allocator: the filled blocks' stamps are stored.
		dieRes += blocks * int64(geo.PagesPerBlock) * int64(ds.StampsPerPage()) * 8
	}
	logical := geo.AllUnits() - int64(float64(geo.AllUnits())*c.Firmware.FTL.OverProvisioning)
	host := c.Host.PageCache.MemoryBytes(logical)
	drv := c.Host.Driver.MemoryBytes(c.NVMe, c.Host.PageCache.CPU.Cores)
	run := dies * die.RunBytes(ds)
	trace := energy.TraceBytes(c.Energy, RunDuration)
	ioPages := runIOPages(logical * int64(c.Firmware.PageSize))
	e := MemoryEstimate{Parts: []MemoryPart{
		{"program, Go runtime and small structures", programBytes, programBytes},
		{fmt.Sprintf("flash dies (%d × %d planes × %d blocks × %d pages)", dies, f.Die.Planes, f.Die.BlocksPerPlane, f.Die.PagesPerBlock),
			dieRes, dieRes + run},
		{fmt.Sprintf("firmware (FTL maps of %d logical and %d physical pages as preconditioned, buffer, per-die state)", logical, geo.Pages()),
			fr, fr + fp - fb},
		{fmt.Sprintf("host page cache (%v of memory)", c.Host.PageCache.Memory), 0, host},
		{"host NVMe driver (queues, command slots, DMA buffer address space)", drv, drv},
		{fmt.Sprintf("energy trace (%v of run at %v a bucket)", RunDuration, c.Energy.Resolution), 0, trace},
		{fmt.Sprintf("run records (%d pages of I/O by %s in %v at most, %d B a page)", ioPages, RunScenario, RunDuration, runBytesPerPage),
			0, ioPages * runBytesPerPage},
	}}
	for _, p := range e.Parts {
		e.Build += p.Build
		e.Peak += p.Peak
	}
	e.Heap = dies*db + fb + drv
	e.WriteBytes = firmware.WriteBytes(c.Firmware, fds, f.Channels, dpc)
	return e
}

// CheckMemory is the resource guard: it refuses c if its estimated peak memory
// (EstimateMemory) exceeds limits.memory, or the machine's memory when that is 0, with the
// estimate, its largest parts and the limit in the error. Load and Build call it after
// Validate, so run, compare, sweep and config validate all refuse such a configuration
// before allocating it.
func (c Config) CheckMemory() error {
	limit, from := int64(c.Limits.Memory), "limits.memory"
	if limit == 0 {
		n, src, err := sysmem.Limit()
		if err != nil {
			return fmt.Errorf("limits.memory: 0 means the machine's memory, which cannot be read here (%v); set limits.memory", err)
		}
		limit, from = n, "the machine's memory, "+src+"; set limits.memory to change it"
	}
	e := c.EstimateMemory()
	if e.Peak <= limit {
		return nil
	}
	var parts []string
	for _, p := range e.Parts {
		if p.Peak >= e.Peak/100 {
			parts = append(parts, fmt.Sprintf("%s %s", p.What, bytesString(p.Peak)))
		}
	}
	return fmt.Errorf("limits.memory: the configuration needs an estimated %s of memory at its peak (%s at build): %s; the limit is %s (%s), and a run adds %d B for each flash page it writes. Make the flash array smaller (flash.channels, flash.ways, flash.dies_per_package, flash.die.blocks_per_plane, flash.die.pages_per_block) or raise limits.memory",
		bytesString(e.Peak), bytesString(e.Build), strings.Join(parts, "; "), bytesString(limit), from, e.WriteBytes)
}

// bytesString formats n bytes in the largest binary unit at or below it, to one decimal
// ("412.3 GiB", "7.0 MiB", "512 B").
func bytesString(n int64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	v, u := float64(n)/1024, 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	return fmt.Sprintf("%.1f %s", v, units[u])
}

// runIOPages bounds the 4 KiB pages the run the peak is for moves through the page cache
// (RunScenario, its applications' defaults, RunDuration: apps.Spec.IOBytesBound) on a
// device of capacity bytes; none when the scenario's data sets do not fit it (the run is
// refused before it starts: apps.Spec.CheckFits).
func runIOPages(capacity int64) int64 {
	sc, err := apps.LookupScenario(RunScenario)
	if err != nil {
		panic(fmt.Sprintf("platforms: the run's default scenario: %v", err))
	}
	spec := apps.DefaultSpec()
	if spec.CheckFits(sc, capacity) != nil {
		return 0
	}
	return spec.IOBytesBound(sc, RunDuration) / 4096
}
