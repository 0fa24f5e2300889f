package ftl

import (
	"errors"
	"fmt"
)

// Config is the FTL's configuration: the firmware's `ftl` section (firmware.Spec.FTL),
// read from YAML as it is, so the file, `config show` and the code hold one type. The
// allocator and the GC victim policy are named by the names they are registered under
// (RegisterAllocator, RegisterVictimPolicy); Validate checks them against the registries.
type Config struct {
	// Allocator names the block allocator: "sequential", "skip-to-lsb", "latency-aware"
	// (FD-FTL) or one registered with RegisterAllocator.
	Allocator string `yaml:"allocator"`
	// OverProvisioning is the fraction of physical pages hidden from the host (SimpleSSD's
	// Intel-750 preset uses 0.2227, docs/sources.md §4.2).
	OverProvisioning float64 `yaml:"over_provisioning"`
	// GCVictim names the GC victim policy: "greedy", "cost-benefit" or one registered with
	// RegisterVictimPolicy.
	GCVictim string `yaml:"gc_victim"`
	// GCThreshold: GC runs on a plane while its free blocks are at or below this count.
	GCThreshold int `yaml:"gc_threshold"`
	// GCReserve: host allocations fail (and wait for GC) while a plane has this many free
	// blocks or fewer; GC itself may use them. Must be below GCThreshold.
	GCReserve int `yaml:"gc_reserve"`
	// LSBOnlyPages is the maximum LSB-only region per die, in pages (the paper's "max
	// LSB-only region", Table 1, value lost; DefaultConfig states the rule that sizes its
	// default): the pages of the die's open latency-aware
	// blocks not yet programmed, which foreground writes hold open to take LSB pages from
	// many blocks at once and background writes fill with CSB/MSB data later. A foreground
	// write opens a fresh block (whose first pages are LSB) while the region plus one block
	// stays within it; it is at least one block.
	LSBOnlyPages int `yaml:"lsb_only_pages"`
	// LSBOnlyBlocks bounds skipping, in blocks per die: the blocks holding CSB/MSB pages that
	// foreground writes skipped to reach an LSB page (when no LSB page was left within the
	// region), until GC erases them. With it reached, a foreground write finding no block at
	// an LSB page programs the next page of its oldest open block, whatever its kind, and
	// wastes nothing. 0 never skips.
	LSBOnlyBlocks int `yaml:"lsb_only_blocks"`
	// LSBOnlyReclaim (latency-aware allocator only) has GC reclaim the skip region before
	// the plane needs room: a die whose skip region holds LSBOnlyBlocks blocks, all but at
	// most one of them full, collects the full one with the fewest valid pages, so
	// foreground writes can skip again (reclaim.go). Default false: GC for room only (the
	// paper: the unused pages "can be reclaimed by garbage collection, which would not hurt
	// the total SSD capacity", a statement about capacity that names no second GC
	// trigger): on fastdrain-tlc at 30 s the reclaim keeps every foreground write on an LSB
	// page but moves about 0.8 pages for each one (WAF 1.8), and the host reads behind those
	// moves lengthen every app's p99 (docs/fidelity.md, "The skip region at 30 s"). True is
	// that sensitivity.
	LSBOnlyReclaim bool `yaml:"lsb_only_reclaim"`
	// Mapping names the mapping scheme (mapping.go): "page" (page-level, the default; empty
	// means it too) or "bast" (hybrid log-block mapping, bast.go).
	Mapping string `yaml:"mapping"`
	// LogBlocks is the BAST log-block pool, in blocks per die (used by mapping "bast" only):
	// how many logical blocks of a die can take writes between merges.
	LogBlocks int `yaml:"log_blocks"`
	// SpareBlocks is each die's spare pool, in blocks: how many bad blocks, factory and
	// grown together, the die can replace (badblock.go). When a die's bad blocks exceed it,
	// the drive goes read-only. 0 (the default) means 2 % of the die's blocks, rounded up
	// (the NAND vendors' allowance of bad blocks, initial and grown, a die), or as many as
	// the over-provisioning leaves if that is fewer (SparePool).
	SpareBlocks int `yaml:"spare_blocks"`
	// SpareThreshold is the NVMe Available Spare Threshold, in percent (0 … 100): the SMART /
	// Health log's critical warning bit 0 is set once the available spare has fallen below
	// it. Default 10, the value most drives report (smartctl's "Available Spare Threshold:
	// 10%"; some report 5 %).
	SpareThreshold int `yaml:"spare_threshold"`
	// HoldupReserve is the hold-up drain's reserve, in blocks a plane (holdup.go): free
	// blocks above the GC reserve that host streams may not open, so that the drain after a
	// power cut always finds room for the whole write buffer. GC starts above it: at
	// GCThreshold free blocks, or GCReserve + HoldupReserve + 1 if that is more. The
	// firmware sets it from the buffer's size with power-loss protection
	// (firmware.HoldupReserve); it is not read from the file. Default 0: none.
	HoldupReserve int `yaml:"-"`
	// SLCCache is the SLC cache (slccache.go); the zero value has none.
	SLCCache SLCCacheConfig `yaml:"slc_cache,omitempty"`
}

// hostFloor returns the free blocks a plane keeps from host streams: the GC reserve and
// the hold-up reserve.
func (c Config) hostFloor() int { return c.GCReserve + c.HoldupReserve }

// gcAt returns the free blocks at or below which a plane needs GC: the threshold, raised
// if need be to one block above the host streams' floor (so GC runs before host writes
// wait for it, as GCThreshold > GCReserve ensures without a hold-up reserve).
func (c Config) gcAt() int { return max(c.GCThreshold, c.hostFloor()+1) }

// GCStart returns the free blocks at or below which a plane needs GC: GCThreshold, or one
// block above the GC and hold-up reserves if that is more.
func (c Config) GCStart() int { return c.gcAt() }

// reserveNote names the hold-up reserve in an error about the thresholds, "" without one.
func (c Config) reserveNote() string {
	if c.HoldupReserve == 0 {
		return ""
	}
	return fmt.Sprintf(" (with the hold-up reserve of %d blocks a plane kept for the power-loss drain of the write buffer, GC starts at %d free blocks)", c.HoldupReserve, c.gcAt())
}

// mapping returns the configured mapping scheme's name, "page" when none is named.
func (c Config) mapping() string {
	if c.Mapping == "" {
		return PageMapping
	}
	return c.Mapping
}

// DefaultConfig returns the FTL of a 4 KiB-page device, the firmware's default
// (firmware.DefaultSpec): sequential allocation, greedy GC, 7 % over-provisioning (the
// share a drive sold in decimal gigabytes hides when built from binary gibibytes of flash,
// 1 − 10⁹/2³⁰), GC when a plane is down to 4 free blocks with 2 held in reserve (GC needs
// one block to move pages into and one spare while the victim's erase is in flight). The
// latency-aware allocator's LSB-only region is 8,192 pages per die: no source gives it (the
// paper's Table 1 row "Max LSB-only region" lost its value; SimpleSSD, its platform, has no
// such parameter, and the prior work it cites for skipping to LSB pages, Grupp et al., MICRO
// 2009, states none that we found), so it is sized by a stated rule: the region holds one
// foreground episode on the heads of fresh blocks, where a 2D-TLC
// block's pages 0–5 are LSB with nothing to skip (SimpleSSD's shadow order, die.Spec.PageType).
// On the paper's platform (fastdrain-tlc: 131,072-page buffer, watermarks 0.6 / 0.9, 480
// dies) an episode drains high to low, 0.3 × 131,072 / 480 = 82 pages a die, plus the host's
// writes during it (Ungzip's ~34,000 pages/s for the ~50 ms an LSB drain takes: 4 a die),
// 86 pages: ⌈86 / 6⌉ = 15 blocks, and 16 blocks (8,192 pages, 96 head LSB pages) is that
// with one block spare (82 × 558 µs = 46 ms for the drain at one LSB program a die at a
// time). The paper bounds the region "to keep high effective SSD capacity": at most two
// thirds of it (its CSB/MSB pages) can be left unusable until GC, 5,461 pages, within
// fastdrain-tlc's over-provisioning of 0.2227 (14,595 of a die's 65,536 pages); Validate
// keeps GC's blocks free of it. Skipping may hold 4 blocks per die here; a preset sizes its
// own skip region from its geometry and over-provisioning (fastdrain-tlc: 19, the blocks
// whose worst-case waste fits its over-provisioning beside the region's and GC's blocks,
// platforms/presets/fastdrain-tlc.yaml). Mapping is
// page-level; BAST's pool, if chosen, is 8 log blocks per die: uFLIP found 4–8 concurrent
// sequential partitions cheap on its devices and more degrade (docs/sources.md §12), the behaviour of a
// log-block FTL with that many log blocks (one per open partition), and 8 of the 512
// blocks of a fastdrain-small die is 1.6 %, within the few per cent of spare blocks hybrid
// FTLs of that era kept as log blocks.
func DefaultConfig() Config {
	return Config{Allocator: Sequential, OverProvisioning: 0.07, GCVictim: Greedy,
		GCThreshold: 4, GCReserve: 2, LSBOnlyPages: 8192, LSBOnlyBlocks: 4,
		Mapping: PageMapping, LogBlocks: 8, SpareThreshold: 10}
}

// spareAllowance is the default spare pool, in per cent of a die's blocks: the bad blocks,
// initial and grown together, NAND vendors allow a die (Samsung's NAND reliability FAQ: up
// to 2 %; an ONFI die states its own in the parameter page's "bad blocks maximum per LUN",
// e.g. 80 of 4,096 blocks, 2 %, in Micron's MT29F datasheets). Drive firmware budgets
// spares per die (LUN) because that is what the vendor guarantees, and because GC moves
// data within a die: a die that has lost more blocks than that cannot be relied on, whatever
// the other dies have left.
const spareAllowance = 2

// spareRoom returns the most spare blocks a die of g can hold: its blocks beyond its share
// of the logical space (rounded up to whole blocks) and the free blocks GC keeps on each of
// its planes (gc_threshold, and one more being filled). Beyond that, a die that lost its
// spares could not hold its data and still collect garbage. Negative if the
// over-provisioning leaves nothing.
func (c Config) spareRoom(g Geometry) int {
	perBlock := int64(g.PagesPerBlock) * int64(g.Units())
	share := (c.logicalPages(g) + int64(g.Dies())*perBlock - 1) / (int64(g.Dies()) * perBlock)
	return g.Planes*g.BlocksPerPlane - int(share) - g.Planes*(c.GCThreshold+1)
}

// SparePool returns each die's spare pool under c on geometry g, in blocks: SpareBlocks if
// set, else 2 % of the die's blocks rounded up (spareAllowance), or the room the
// over-provisioning leaves (spareRoom) if that is less, and never below 0.
func (c Config) SparePool(g Geometry) int {
	if c.SpareBlocks > 0 {
		return c.SpareBlocks
	}
	perDie := g.Planes * g.BlocksPerPlane
	return max(0, min((perDie*spareAllowance+99)/100, c.spareRoom(g)))
}

// regionBlocks returns the most blocks the LSB-only region can hold open per die.
func (c Config) regionBlocks(g Geometry) int {
	if g.PagesPerBlock <= 0 {
		return 1
	}
	return max(1, c.LSBOnlyPages/g.PagesPerBlock)
}

// Validate reports every problem with the configuration for geometry g, each naming its
// field as "ftl.<key>" (the firmware's section; platforms prefixes "firmware."). Checks
// that need the geometry are skipped for a zero one, so Validate(Geometry{}) checks the
// configuration alone.
func (c Config) Validate(g Geometry) error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if _, err := allocators.Lookup(c.Allocator); err != nil {
		bad("ftl.allocator: %v", err)
	}
	if _, err := victims.Lookup(c.GCVictim); err != nil {
		bad("ftl.gc_victim: %v", err)
	}
	if _, err := mappings.Lookup(c.mapping()); err != nil {
		bad("ftl.mapping: %v", err)
	} else if c.mapping() == BASTMapping {
		errs = append(errs, c.validateBAST(g)...)
	}
	opOK := c.OverProvisioning > 0 && c.OverProvisioning < 1
	if !opOK {
		bad("ftl.over_provisioning: %v must be between 0 and 1 (exclusive)", c.OverProvisioning)
	}
	if c.GCReserve < 1 {
		bad("ftl.gc_reserve: %d must be at least 1 (GC needs a block to move pages into)", c.GCReserve)
	}
	if c.GCThreshold <= c.GCReserve {
		bad("ftl.gc_threshold: %d must exceed gc_reserve (%d)", c.GCThreshold, c.GCReserve)
	}
	if c.HoldupReserve < 0 {
		bad("ftl: hold-up reserve of %d blocks a plane must not be negative", c.HoldupReserve)
	}
	if g.BlocksPerPlane > 0 && (c.GCThreshold >= g.BlocksPerPlane || c.gcAt() >= g.BlocksPerPlane) {
		bad("ftl.gc_threshold: %d%s must be below the %d blocks of a plane", c.GCThreshold, c.reserveNote(), g.BlocksPerPlane)
	}
	if g.PagesPerBlock > 0 && c.LSBOnlyPages < g.PagesPerBlock {
		bad("ftl.lsb_only_pages: %d must hold at least one block (%d pages)", c.LSBOnlyPages, g.PagesPerBlock)
	}
	if c.LSBOnlyBlocks < 0 {
		bad("ftl.lsb_only_blocks: %d must not be negative", c.LSBOnlyBlocks)
	}
	if g.BlocksPerPlane > 0 && g.Planes > 0 && c.regionBlocks(g) > g.Planes*(g.BlocksPerPlane-c.gcAt()-1) {
		bad("ftl.lsb_only_pages: %d (%d blocks) leaves no room for GC in a die of %d×%d blocks",
			c.LSBOnlyPages, c.regionBlocks(g), g.Planes, g.BlocksPerPlane)
	}
	if c.SpareBlocks < 0 {
		bad("ftl.spare_blocks: %d must not be negative (0 means the default: 2 %% of a die's blocks)", c.SpareBlocks)
	} else if opOK && c.SpareBlocks > 0 && g.Pages() > 0 && c.SpareBlocks > c.spareRoom(g) {
		bad("ftl.spare_blocks: %d spare blocks a die leave too few for the die's share of the logical space and GC: a die of %d blocks can spare at most %d at over_provisioning %v and gc_threshold %d",
			c.SpareBlocks, g.Planes*g.BlocksPerPlane, max(0, c.spareRoom(g)), c.OverProvisioning, c.GCThreshold)
	}
	errs = append(errs, c.SLCCache.validate(c, g)...)
	if c.SpareThreshold < 0 || c.SpareThreshold > 100 {
		bad("ftl.spare_threshold: %d is not a percentage in 0 … 100", c.SpareThreshold)
	}
	if opOK && g.Pages() > 0 {
		if logical := c.logicalPages(g); logical < 1 || logical > int64(maxLPN) {
			what := "physical ones"
			if g.Units() > 1 {
				what = "physical mapping units"
			}
			bad("ftl.over_provisioning: %v leaves %d logical pages of the %d %s; want 1 … %d",
				c.OverProvisioning, logical, g.AllUnits(), what, int64(maxLPN))
		}
	}
	return errors.Join(errs...)
}

// LogicalPages returns the logical pages (mapping units) an FTL of this configuration
// exports over geometry g (FTL.LogicalPages once built).
func (c Config) LogicalPages(g Geometry) int64 { return c.logicalPages(g) }

// logicalPages returns the logical pages (mapping units) exported over geometry g.
func (c Config) logicalPages(g Geometry) int64 {
	return int64(float64(g.AllUnits()) * (1 - c.OverProvisioning))
}
