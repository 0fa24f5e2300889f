package firmware

import (
	"errors"
	"fmt"
	"strings"

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
	Cores     int        `yaml:"cores"`     // controller cores running firmware
	CoreFreq  sim.Freq   `yaml:"core_freq"` // e.g. "400MHz" (SimpleSSD's Intel 750 preset, docs/sources.md §4.2)
	Workers   int        `yaml:"workers"`   // commands handled concurrently by the HIL
	Cycles    Cycles     `yaml:"cycles"`    // per-step CPU costs
	PageSize  int        `yaml:"page_size"` // logical page (mapping unit) in bytes: 4096; the flash page holds 1, 2 or 4 (docs/firmware.md, sub-page mapping)
	Buffer    Buffer     `yaml:"buffer"`    // write buffer
	FTL       ftl.Config `yaml:"ftl"`       // mapping, allocation, GC (checked against the flash geometry by ftl.Config.Validate)
	Scheduler Sched      `yaml:"scheduler"` // flash scheduler
	Verify    bool       `yaml:"verify"`    // check FTL invariants after every GC (slow; for tests)
	// PowerLossProtection: the DRAM buffer is capacitor-backed, so data in it is durable; a
	// Flush or an FUA write completes without waiting for flash. Enterprise and prosumer
	// NVMe SSDs of the Intel 750 class have it. Without it, Flush waits until the buffer's
	// data has been written to flash.
	PowerLossProtection bool `yaml:"power_loss_protection"`
	// PowerLoss configures sudden power loss and recovery (powerloss.go); off by default.
	PowerLoss PowerLoss `yaml:"power_loss"`
	// Policies holds registered policies' own parameters, each block under its policy's
	// name (params.go); none by default.
	Policies PolicyParams `yaml:"policies,omitempty"`
}

// Buffer configures the DRAM write buffer.
type Buffer struct {
	Policy     Policy            `yaml:"policy"` // a registered eviction policy (policy.go)
	Pages      int               `yaml:"pages"`  // capacity in logical pages (ignored by oracle, oracle-bg)
	Order      string            `yaml:"order"`  // "lru" or "fifo"
	Watermarks buffer.Watermarks `yaml:"watermarks"`
	// BackgroundPerDie bounds the pages a background eviction round sends to one idle die
	// (programs queued on it).
	BackgroundPerDie int `yaml:"background_per_die"`
	// BackgroundSet is the rule bounding background programs in flight: "idle-dies"
	// (background_per_die on every die the round may send to, the paper's "a
	// limited set of pages to the flash dies in idle"; backgroundset.go), "share"
	// (BackgroundMax and BackgroundShare below; our number, docs/firmware.md) or
	// "per-eviction" (the default: FastDrain's background paced by the buffer's own
	// evictions, as SimpleSSD 2.0's internal cache, the paper's platform, evicts: each
	// foreground eviction round owes one set of dies × background_per_die pages, one page
	// to each die idle of host work at a time; backgroundset.go, docs/firmware.md).
	BackgroundSet BackgroundSet `yaml:"background_set"`
	// BackgroundMax bounds the pages in flight from background eviction in total, under
	// the share rule only.
	BackgroundMax int `yaml:"background_max"`
	// BackgroundShare (share rule only) bounds the background programs in flight to this share of the dies
	// (at least one), under BackgroundMax: the paper's "limited set of pages" per
	// background eviction (Zhang et al., IEEE CAL 2020, §3), which it gives no number for.
	// The rationale for its default, 0.01: a host read lands on a die the applications'
	// data is striped over, so the share of reads that meet a background program is the
	// share of dies running one (docs/firmware.md measures it); at 1 % background eviction
	// alone cannot put a read into the p99 tail the paper measures, the "minimal penalty
	// of blocking applications' I/O services" its background strategy is for. 0 leaves
	// only BackgroundMax (the pre-issue-31 drain). It bounds every policy's background
	// eviction alike (fastdrain and oracle-bg), so the control differs from FD-Buf only
	// by the capacity, the hint and the idle-die rule.
	BackgroundShare float64 `yaml:"background_share"`
	// ForegroundPerDie bounds the eviction programs queued per die in foreground (and
	// vanilla on-demand) eviction.
	ForegroundPerDie int `yaml:"foreground_per_die"`
	// IdleHalfLife is the half-life of the per-die count of host reads by which FastDrain's
	// background eviction tells the dies the applications are using from those in idle
	// (activity.go): a die whose count is at least one read is busy and gets no background
	// page (Decision.IdleDies). "0" (the default) takes the mean program time of the
	// flash's pages over a block (2,561 µs for the SimpleSSD TLC timings): a count c with
	// that half-life is busy exactly when a read is expected, with probability at least one
	// half, during a background program started on the die (activity.go works it out).
	IdleHalfLife sim.Time `yaml:"idle_half_life"`
	// IssueBatch bounds the pages the evictor allocates and issues in one run-to-completion
	// step on core 0 (each charged Cycles.Allocate + Cycles.FlashIssue); the HIL's steps on
	// that core run between the steps (evict.go).
	IssueBatch int `yaml:"issue_batch"`
	// PlacementLookahead, with Flexible Data Placement, is how many dirty pages after the
	// oldest the evictor looks at when the oldest cannot go on the die it is filling (its
	// handle's reclaim unit there is full and none can be opened, fdpevict.go): it takes
	// the oldest of them whose handle can. 0 (the default) evicts strictly oldest first and
	// is left out of a configuration's listing.
	PlacementLookahead int `yaml:"placement_lookahead,omitempty"`
	// Upcall is which occupancy the level in completions reports: "predicted" (default;
	// occupancy + announced + reserved, the paper's "buffer overflow in the near-future") or
	// "current" (the occupancy alone). hint.go documents both readings of the paper.
	Upcall Upcall `yaml:"upcall"`
}

// Sched configures the flash scheduler.
type Sched struct {
	ReadFirst  bool `yaml:"read_first"`  // reads go before programs and erases on a die
	GCWeight   int  `yaml:"gc_weight"`   // host programs per GC operation when both wait
	DieDepth   int  `yaml:"die_depth"`   // transactions per die handed to the channel at once
	MultiPlane bool `yaml:"multi_plane"` // merge programs on the same page of different planes
	// FoldShare is the fraction of a die's time (0 … 1, exclusive) an SLC cache's fold gets
	// while fold operations and host programs both wait for the die (foldshare.go), and it
	// turns on the fold's own scheduling: a fold senses each SLC page once for all the units
	// it moves from it. 0, the default, schedules a fold as GC (gc_weight host programs per
	// fold operation, one read a unit) and is left out of a configuration's listing. It
	// needs read_first, under which a die's programs and GC operations run one at a time,
	// so the time each spends in the channel is the die's.
	FoldShare float64 `yaml:"fold_share,omitempty"`
	// Order is the ordering of each die's queues (schedorder.go): a registered name;
	// "priority", the built-in, applies read_first and gc_weight.
	Order string `yaml:"order"`
	// PowerCap bounds the NAND array's power with programs and erases running ("10W"; 0,
	// the default, is off): only as many dies hold a program or erase in their channel as
	// keep DiePower each plus StandbyPower for every other die within it (powercap.go,
	// docs/energy.md). Host and GC reads are not limited.
	PowerCap Power `yaml:"power_cap"`
	// DiePower and StandbyPower are the array power of one programming or erasing die,
	// max(ICC2, ICC3) × VCC, and of an idle one, ISB × VCC, as the energy model charges
	// them; the platform sets them from its energy section (they are not keys).
	DiePower     Power `yaml:"-"`
	StandbyPower Power `yaml:"-"`
}

// DefaultSpec returns a firmware for a 4 KiB-page device: 4 cores at 400 MHz, 64 HIL
// workers, a vanilla LRU buffer of 131,072 pages (512 MiB, the paper's buffer), watermarks
// 0.5 / 0.8, FastDrain's background eviction paced by the buffer's own evictions
// (background_set per-eviction, one page to each idle die per eviction, as SimpleSSD 2.0's
// internal cache evicts; BackgroundSetPerEviction), the FTL of ftl.DefaultConfig
// (sequential allocation with 7 % over-provisioning and greedy GC), reads first. The scheduler's order is "priority", the
// built-in ordering (the only one before issue 21), which the read_first and gc_weight keys
// tune. No power cap: the model's dies all program at once if the work is there, as the
// FastDrain paper's simulator does; real drives' budgets are a sensitivity (docs/energy.md).
func DefaultSpec() Spec {
	return Spec{
		Cores: 4, CoreFreq: 400 * sim.MHz, Workers: 64, PageSize: 4096,
		Cycles: Cycles{Parse: 800, PerPage: 100, Lookup: 200, Allocate: 300, Evict: 400,
			Complete: 400, GCPerPage: 300, FlashIssue: 200},
		Buffer: Buffer{Policy: Vanilla, Pages: 131072, Order: "lru",
			Watermarks: buffer.Watermarks{Low: 0.5, High: 0.8}, BackgroundPerDie: 1,
			BackgroundSet: BackgroundSetPerEviction, BackgroundMax: 64, BackgroundShare: 0.01,
			ForegroundPerDie: 2, IssueBatch: 4},
		FTL:       ftl.DefaultConfig(),
		Scheduler: Sched{ReadFirst: true, GCWeight: 4, DieDepth: 2, MultiPlane: true, Order: PriorityOrder},
	}
}

// Validate reports every problem with the spec, each naming its field. The FTL section
// needs the flash geometry and is checked by ftl.Config.Validate: platforms' validation
// calls it with the configured array, New with the hardware's.
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
	if s.Buffer.BackgroundSet > BackgroundSetPerEviction {
		bad("firmware.buffer.background_set: unknown rule %d (idle-dies, share or per-eviction)", s.Buffer.BackgroundSet)
	}
	if !(s.Buffer.BackgroundShare >= 0 && s.Buffer.BackgroundShare <= 1) {
		bad("firmware.buffer.background_share: %v is not in 0 … 1 (a share of the dies; 0 is no bound but background_max)", s.Buffer.BackgroundShare)
	}
	if s.Buffer.IdleHalfLife < 0 {
		bad("firmware.buffer.idle_half_life: %v must not be negative (0 takes the flash's mean program time)", s.Buffer.IdleHalfLife)
	}
	if s.Buffer.PlacementLookahead < 0 {
		bad("firmware.buffer.placement_lookahead: %d must not be negative (0 evicts oldest first)", s.Buffer.PlacementLookahead)
	}
	if s.Buffer.IssueBatch < 1 {
		bad("firmware.buffer.issue_batch: %d must be at least 1", s.Buffer.IssueBatch)
	}
	errs = append(errs, s.PowerLoss.validate(s.PowerLossProtection)...)
	if _, err := schedOrders.lookup(s.Scheduler.Order); err != nil {
		errs = append(errs, err)
	}
	if s.Scheduler.GCWeight < 1 {
		bad("firmware.scheduler.gc_weight: %d must be at least 1", s.Scheduler.GCWeight)
	}
	if fs := s.Scheduler.FoldShare; !(fs >= 0 && fs < 1) {
		bad("firmware.scheduler.fold_share: %v is not a fraction of the die's time in 0 … 1 (1 excluded: the host would never program while a fold waits)", fs)
	} else if fs > 0 && !s.Scheduler.ReadFirst {
		bad("firmware.scheduler.fold_share: %v needs firmware.scheduler.read_first (the shares are of the die's time, which only one program or GC operation at a time measures)", fs)
	}
	if s.Scheduler.DieDepth < 1 || s.Scheduler.DieDepth > 64 {
		bad("firmware.scheduler.die_depth: %d is not in 1 … 64", s.Scheduler.DieDepth)
	}
	if err := s.Scheduler.validateCap(0); err != nil {
		errs = append(errs, err)
	}
	if err := s.validateParams(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// ValidateFTL reports every problem with the FTL section for an array of geometry g (a
// zero Geometry checks the section alone), each naming its field as
// "firmware.ftl.<key>".
func (s Spec) ValidateFTL(g ftl.Geometry) error {
	if err := s.ftlConfig(g).Validate(g); err != nil {
		return ftlErrors(err)
	}
	return nil
}

// ftlErrors names the FTL's errors by their path in the firmware section: ftl.Config and
// ftl.New call their fields "ftl.<key>", which the firmware's file holds at
// "firmware.ftl.<key>".
func ftlErrors(err error) error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var errs []error
		for _, e := range j.Unwrap() {
			errs = append(errs, ftlErrors(e))
		}
		return errors.Join(errs...)
	}
	if strings.HasPrefix(err.Error(), "ftl.") {
		return fmt.Errorf("firmware.%w", err)
	}
	return err
}
