package ftl

import (
	"errors"
	"fmt"
)

// AllocatorKind selects how pages are placed in blocks.
type AllocatorKind uint8

// Allocators (DESIGN.md "FTL").
const (
	// Sequential keeps one write point per plane and programs pages in order whatever
	// their kind.
	Sequential AllocatorKind = iota
	// SkipToLSB is the prior work FastDrain compares with: a foreground write skips the
	// CSB/MSB pages at the write point to reach the next LSB page; skipped pages are wasted
	// until GC erases the block.
	SkipToLSB
	// LatencyAware is FD-FTL: block pointers grouped by the kind of their next free page;
	// foreground writes take LSB pages across dies, background writes fill CSB/MSB pages
	// (falling back to LSB), and a cap on open blocks bounds the LSB-only region.
	LatencyAware
)

// String returns the configuration name of the allocator.
func (k AllocatorKind) String() string {
	switch k {
	case Sequential:
		return "sequential"
	case SkipToLSB:
		return "skip-to-lsb"
	case LatencyAware:
		return "latency-aware"
	}
	return fmt.Sprintf("AllocatorKind(%d)", uint8(k))
}

// ParseAllocator parses "sequential", "skip-to-lsb" or "latency-aware".
func ParseAllocator(s string) (AllocatorKind, error) {
	for k := Sequential; k <= LatencyAware; k++ {
		if k.String() == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("allocator %q: want sequential, skip-to-lsb or latency-aware", s)
}

// VictimPolicy selects GC victims.
type VictimPolicy uint8

// Victim policies.
const (
	// Greedy takes the full block with the fewest valid pages.
	Greedy VictimPolicy = iota
	// CostBenefit takes the block maximising age·(1−u)/(2u), u the valid fraction
	// (Rosenblum & Ousterhout's LFS cleaner; Kawaguchi et al. for flash).
	CostBenefit
)

// String returns the configuration name of the policy.
func (v VictimPolicy) String() string {
	if v == CostBenefit {
		return "cost-benefit"
	}
	return "greedy"
}

// ParseVictimPolicy parses "greedy" or "cost-benefit".
func ParseVictimPolicy(s string) (VictimPolicy, error) {
	switch s {
	case "greedy":
		return Greedy, nil
	case "cost-benefit":
		return CostBenefit, nil
	}
	return 0, fmt.Errorf("gc victim policy %q: want greedy or cost-benefit", s)
}

// Config is the FTL's policy configuration.
type Config struct {
	// OverProvisioning is the fraction of physical pages hidden from the host (SimpleSSD's
	// Intel-750 preset uses 0.2227, FACTS.md §4.2).
	OverProvisioning float64
	Allocator        AllocatorKind
	Victim           VictimPolicy
	// GCThreshold: GC runs on a plane while its free blocks are at or below this count.
	GCThreshold int
	// GCReserve: host allocations fail (and wait for GC) while a plane has this many free
	// blocks or fewer; GC itself may use them. Must be below GCThreshold.
	GCReserve int
	// LSBOnlyPages is the maximum LSB-only region per die, in pages (the paper's "max
	// LSB-only region", Table 1, value lost): the pages of the die's open latency-aware
	// blocks not yet programmed, which foreground writes hold open to take LSB pages from
	// many blocks at once and background writes fill with CSB/MSB data later. A foreground
	// write opens a fresh block (whose first pages are LSB) while the region plus one block
	// stays within it; it is at least one block.
	LSBOnlyPages int
	// LSBOnlyBlocks bounds skipping, in blocks per die: the blocks holding CSB/MSB pages that
	// foreground writes skipped to reach an LSB page (when no LSB page was left within the
	// region), until GC erases them. With it reached, a foreground write finding no block at
	// an LSB page programs the next page of its oldest open block, whatever its kind, and
	// wastes nothing. 0 never skips.
	LSBOnlyBlocks int
}

// DefaultConfig returns sequential allocation, greedy GC, 7 % over-provisioning, GC when a
// plane is down to 4 free blocks with 2 held in reserve, an LSB-only region of 2,048 pages
// and a skip region of 4 blocks per die.
func DefaultConfig() Config {
	return Config{OverProvisioning: 0.07, Allocator: Sequential, Victim: Greedy,
		GCThreshold: 4, GCReserve: 2, LSBOnlyPages: 2048, LSBOnlyBlocks: 4}
}

// regionBlocks returns the most blocks the LSB-only region can hold open per die.
func (c Config) regionBlocks(g Geometry) int {
	if g.PagesPerBlock <= 0 {
		return 1
	}
	return max(1, c.LSBOnlyPages/g.PagesPerBlock)
}

// Validate reports every problem with the configuration for geometry g.
func (c Config) Validate(g Geometry) error {
	var errs []error
	if !(c.OverProvisioning > 0 && c.OverProvisioning < 1) {
		errs = append(errs, fmt.Errorf("ftl.over_provisioning: %v must be between 0 and 1 (exclusive)", c.OverProvisioning))
	}
	if c.Allocator > LatencyAware {
		errs = append(errs, fmt.Errorf("ftl.allocator: unknown kind %d", c.Allocator))
	}
	if c.Victim > CostBenefit {
		errs = append(errs, fmt.Errorf("ftl.gc_victim: unknown policy %d", c.Victim))
	}
	if c.GCReserve < 1 {
		errs = append(errs, fmt.Errorf("ftl.gc_reserve: %d must be at least 1 (GC needs a block to move pages into)", c.GCReserve))
	}
	if c.GCThreshold <= c.GCReserve {
		errs = append(errs, fmt.Errorf("ftl.gc_threshold: %d must exceed gc_reserve (%d)", c.GCThreshold, c.GCReserve))
	}
	if g.BlocksPerPlane > 0 && c.GCThreshold >= g.BlocksPerPlane {
		errs = append(errs, fmt.Errorf("ftl.gc_threshold: %d must be below the %d blocks of a plane", c.GCThreshold, g.BlocksPerPlane))
	}
	if g.PagesPerBlock > 0 && c.LSBOnlyPages < g.PagesPerBlock {
		errs = append(errs, fmt.Errorf("ftl.lsb_only_pages: %d must hold at least one block (%d pages)", c.LSBOnlyPages, g.PagesPerBlock))
	}
	if c.LSBOnlyBlocks < 0 {
		errs = append(errs, fmt.Errorf("ftl.lsb_only_blocks: %d must not be negative", c.LSBOnlyBlocks))
	}
	if g.BlocksPerPlane > 0 && g.Planes > 0 && c.regionBlocks(g) > g.Planes*(g.BlocksPerPlane-c.GCThreshold-1) {
		errs = append(errs, fmt.Errorf("ftl.lsb_only_pages: %d (%d blocks) leaves no room for GC in a die of %d×%d blocks",
			c.LSBOnlyPages, c.regionBlocks(g), g.Planes, g.BlocksPerPlane))
	}
	return errors.Join(errs...)
}
