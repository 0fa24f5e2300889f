package firmware

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/buffer"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Cycles are the controller-CPU costs of firmware steps, in core cycles. The defaults are
// order-of-magnitude estimates for an embedded ARM core running an FTL (a few hundred
// cycles per table step); they are parameters, not measurements.
type Cycles struct {
	Parse      int64 `yaml:"parse"`       // decode a command and split it
	PerPage    int64 `yaml:"per_page"`    // per 4 KiB sub-request bookkeeping
	Lookup     int64 `yaml:"lookup"`      // one mapping-table lookup
	Allocate   int64 `yaml:"allocate"`    // one page allocation and map update
	Evict      int64 `yaml:"evict"`       // one eviction decision (per round)
	Complete   int64 `yaml:"complete"`    // build a completion
	GCPerPage  int64 `yaml:"gc_per_page"` // GC bookkeeping per moved page
	FlashIssue int64 `yaml:"flash_issue"` // build and queue one flash transaction
}

// Spec is the firmware configuration.
type Spec struct {
	Cores     int      `yaml:"cores"`     // controller cores running firmware
	CoreFreq  sim.Freq `yaml:"core_freq"` // e.g. "400MHz" (SimpleSSD's Intel 750 preset, FACTS.md §4.2)
	Workers   int      `yaml:"workers"`   // commands handled concurrently by the HIL
	Cycles    Cycles   `yaml:"cycles"`    // per-step CPU costs
	PageSize  int      `yaml:"page_size"` // logical page (mapping unit) in bytes; must equal the flash page size
	Buffer    Buffer   `yaml:"buffer"`    // write buffer
	FTL       FTLSpec  `yaml:"ftl"`       // mapping, allocation, GC
	Scheduler Sched    `yaml:"scheduler"` // flash scheduler
	Verify    bool     `yaml:"verify"`    // check FTL invariants after every GC (slow; for tests)
	// PowerLossProtection: the DRAM buffer is capacitor-backed, so data in it is durable; a
	// Flush or an FUA write completes without waiting for flash. Enterprise and prosumer
	// NVMe SSDs of the Intel 750 class have it. Without it, Flush waits until the buffer's
	// data has been written to flash.
	PowerLossProtection bool `yaml:"power_loss_protection"`
}

// Buffer configures the DRAM write buffer.
type Buffer struct {
	Policy     Policy            `yaml:"policy"` // a registered eviction policy (policy.go)
	Pages      int               `yaml:"pages"`  // capacity in logical pages (ignored by oracle, oracle-bg)
	Order      string            `yaml:"order"`  // "lru" or "fifo"
	Watermarks buffer.Watermarks `yaml:"watermarks"`
	// BackgroundPerDie bounds the pages a background eviction round sends to one idle die;
	// BackgroundMax bounds the pages in flight from background eviction in total.
	BackgroundPerDie int `yaml:"background_per_die"`
	BackgroundMax    int `yaml:"background_max"`
	// ForegroundPerDie bounds the eviction programs queued per die in foreground (and
	// vanilla on-demand) eviction.
	ForegroundPerDie int `yaml:"foreground_per_die"`
	// Upcall is which occupancy the level in completions reports: "predicted" (default;
	// occupancy + announced + reserved, the paper's "buffer overflow in the near-future") or
	// "current" (the occupancy alone). hint.go documents both readings of the paper.
	Upcall Upcall `yaml:"upcall"`
}

// FTLSpec configures the FTL.
type FTLSpec struct {
	Allocator        string  `yaml:"allocator"`         // sequential, skip-to-lsb, latency-aware
	OverProvisioning float64 `yaml:"over_provisioning"` // fraction of physical pages hidden
	GCVictim         string  `yaml:"gc_victim"`         // greedy or cost-benefit
	GCThreshold      int     `yaml:"gc_threshold"`      // free blocks per plane that start GC
	GCReserve        int     `yaml:"gc_reserve"`        // free blocks per plane only GC may use
	LSBOnlyPages     int     `yaml:"lsb_only_pages"`    // latency-aware LSB-only region per die: unprogrammed pages of open blocks
	LSBOnlyBlocks    int     `yaml:"lsb_only_blocks"`   // latency-aware skip region per die: blocks holding skipped pages
}

// Sched configures the flash scheduler.
type Sched struct {
	ReadFirst  bool `yaml:"read_first"`  // reads go before programs and erases on a die
	GCWeight   int  `yaml:"gc_weight"`   // host programs per GC operation when both wait
	DieDepth   int  `yaml:"die_depth"`   // transactions per die handed to the channel at once
	MultiPlane bool `yaml:"multi_plane"` // merge programs on the same page of different planes
	// Order is the ordering of each die's queues (schedorder.go): a registered name;
	// "priority", the built-in, applies read_first and gc_weight.
	Order string `yaml:"order"`
}

// DefaultSpec returns a firmware for a 4 KiB-page device: 4 cores at 400 MHz, 64 HIL
// workers, a vanilla LRU buffer of 131,072 pages (512 MiB, the paper's buffer), watermarks
// 0.5 / 0.8, sequential allocation with 7 % over-provisioning and greedy GC, reads first.
// The latency-aware allocator's LSB-only region is 8,192 pages per die (our choice; the
// paper's Table 1 value did not survive): 16 blocks of 512 pages, an eighth of a
// fastdrain-tlc die, so foreground writes can take the first six LSB pages of 16 blocks (96
// pages) before background writes fill any CSB/MSB page — a third of the 273 pages a drain
// of the whole 512 MiB buffer puts on each of its 480 dies. Skipping may hold 4 blocks.
// The scheduler's order is "priority", the built-in ordering (the only one before issue
// 21), which the read_first and gc_weight keys tune.
func DefaultSpec() Spec {
	return Spec{
		Cores: 4, CoreFreq: 400 * sim.MHz, Workers: 64, PageSize: 4096,
		Cycles: Cycles{Parse: 800, PerPage: 100, Lookup: 200, Allocate: 300, Evict: 400,
			Complete: 400, GCPerPage: 300, FlashIssue: 200},
		Buffer: Buffer{Policy: Vanilla, Pages: 131072, Order: "lru",
			Watermarks: buffer.Watermarks{Low: 0.5, High: 0.8}, BackgroundPerDie: 1,
			BackgroundMax: 64, ForegroundPerDie: 2},
		FTL: FTLSpec{Allocator: "sequential", OverProvisioning: 0.07, GCVictim: "greedy",
			GCThreshold: 4, GCReserve: 2, LSBOnlyPages: 8192, LSBOnlyBlocks: 4},
		Scheduler: Sched{ReadFirst: true, GCWeight: 4, DieDepth: 2, MultiPlane: true, Order: PriorityOrder},
	}
}

// Validate reports every problem with the spec, each naming its field.
func (s Spec) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if s.Cores < 1 || s.Cores > 64 {
		bad("firmware.cores: %d is not in 1 … 64", s.Cores)
	}
	if s.CoreFreq <= 0 {
		bad("firmware.core_freq: %v must be positive", s.CoreFreq)
	}
	if s.Workers < 1 || s.Workers > 65536 {
		bad("firmware.workers: %d is not in 1 … 65536", s.Workers)
	}
	if s.PageSize != 4096 {
		bad("firmware.page_size: %d; only 4096-byte mapping units are supported", s.PageSize)
	}
	for _, c := range []struct {
		name string
		v    int64
	}{{"parse", s.Cycles.Parse}, {"per_page", s.Cycles.PerPage}, {"lookup", s.Cycles.Lookup},
		{"allocate", s.Cycles.Allocate}, {"evict", s.Cycles.Evict}, {"complete", s.Cycles.Complete},
		{"gc_per_page", s.Cycles.GCPerPage}, {"flash_issue", s.Cycles.FlashIssue}} {
		if c.v < 0 {
			bad("firmware.cycles.%s: %d must not be negative", c.name, c.v)
		}
	}
	if _, err := evictionPolicies.lookup(string(s.Buffer.Policy)); err != nil {
		errs = append(errs, err)
	}
	if s.Buffer.Upcall > UpcallCurrent {
		bad("firmware.buffer.upcall: unknown reading %d", s.Buffer.Upcall)
	}
	if !s.Buffer.Policy.Unbounded() && s.Buffer.Pages < 1 {
		bad("firmware.buffer.pages: %d must be positive", s.Buffer.Pages)
	}
	if _, err := buffer.ParseOrder(s.Buffer.Order); err != nil {
		bad("firmware.buffer.order: %v", err)
	}
	if err := s.Buffer.Watermarks.Validate(); err != nil {
		bad("firmware.%v", err)
	}
	if s.Buffer.BackgroundPerDie < 1 || s.Buffer.BackgroundMax < 1 || s.Buffer.ForegroundPerDie < 1 {
		bad("firmware.buffer: background_per_die (%d), background_max (%d) and foreground_per_die (%d) must be positive",
			s.Buffer.BackgroundPerDie, s.Buffer.BackgroundMax, s.Buffer.ForegroundPerDie)
	}
	if _, err := ftl.ParseAllocator(s.FTL.Allocator); err != nil {
		bad("firmware.ftl.allocator: %v", err)
	}
	if _, err := ftl.ParseVictimPolicy(s.FTL.GCVictim); err != nil {
		bad("firmware.ftl.gc_victim: %v", err)
	}
	if _, err := schedOrders.lookup(s.Scheduler.Order); err != nil {
		errs = append(errs, err)
	}
	if s.Scheduler.GCWeight < 1 {
		bad("firmware.scheduler.gc_weight: %d must be at least 1", s.Scheduler.GCWeight)
	}
	if s.Scheduler.DieDepth < 1 || s.Scheduler.DieDepth > 64 {
		bad("firmware.scheduler.die_depth: %d is not in 1 … 64", s.Scheduler.DieDepth)
	}
	return errors.Join(errs...)
}

// ftlConfig converts the FTL section (already validated) to an ftl.Config.
func (s Spec) ftlConfig() ftl.Config {
	a, _ := ftl.ParseAllocator(s.FTL.Allocator)
	v, _ := ftl.ParseVictimPolicy(s.FTL.GCVictim)
	return ftl.Config{OverProvisioning: s.FTL.OverProvisioning, Allocator: a, Victim: v,
		GCThreshold: s.FTL.GCThreshold, GCReserve: s.FTL.GCReserve, LSBOnlyPages: s.FTL.LSBOnlyPages,
		LSBOnlyBlocks: s.FTL.LSBOnlyBlocks}
}
