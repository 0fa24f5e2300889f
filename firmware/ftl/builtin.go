package ftl

// Names of the built-in allocators (docs/design.md "FTL"), values of ftl.allocator.
const (
	// Sequential keeps one write point per plane and programs pages in order whatever
	// their kind.
	Sequential = "sequential"
	// SkipToLSB is the prior work FastDrain compares with: a foreground write skips the
	// CSB/MSB pages at the write point to reach the next LSB page; skipped pages are wasted
	// until GC erases the block.
	SkipToLSB = "skip-to-lsb"
	// LatencyAware is FD-FTL: block pointers grouped by the kind of their next free page;
	// foreground writes take LSB pages across dies, background writes fill CSB/MSB pages
	// (falling back to LSB), and the LSB-only region bounds the open blocks.
	LatencyAware = "latency-aware"
)

func init() {
	RegisterAllocator(Sequential, func(s Space) Allocator { return newSequential(s, false) })
	RegisterAllocator(SkipToLSB, func(s Space) Allocator { return newSequential(s, true) })
	RegisterAllocator(LatencyAware, newLatencyAware)
}

// Names of the built-in GC victim policies, values of ftl.gc_victim.
const (
	// Greedy takes the full block with the fewest valid pages.
	Greedy = "greedy"
	// CostBenefit takes the block maximising age·(1−u)/(2u), u the valid fraction
	// (Rosenblum & Ousterhout's LFS cleaner; Kawaguchi et al. for flash).
	CostBenefit = "cost-benefit"
)

func init() {
	RegisterVictimPolicy(Greedy, func(v View) VictimPolicy { return greedy{v} })
	RegisterVictimPolicy(CostBenefit, func(v View) VictimPolicy {
		return costBenefit{View: v, pagesPerBlock: v.Geometry().PagesPerBlock * v.Geometry().Units()}
	})
}
