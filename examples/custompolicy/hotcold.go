package main

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
)

// hotColdName is the name the allocator is registered under: the value of
// firmware.ftl.allocator that selects it.
const hotColdName = "hot-cold"

// The allocator registers itself, as the built-ins do: importing this package (here, being
// the program) makes "hot-cold" a valid firmware.ftl.allocator.
func init() {
	ftl.RegisterAllocator(hotColdName, func(s ftl.Space) ftl.Allocator {
		lastHotCold = newHotCold(s)
		return lastHotCold
	})
}

// hotBlocksPerDie sets the classifier's window: a rewrite is hot if its old copy is in a
// block programmed while the device allocated its last 16 blocks' worth of pages per die
// (the latency-aware allocator's default LSB-only region is 16 blocks per die, the same
// order of "recent").
const hotBlocksPerDie = 16

// lastHotCold is the allocator the last FTL built, so that the program can report its
// counts (the example builds one machine at a time).
var lastHotCold *hotCold

// Streams of the hot/cold allocator.
const (
	cold = iota // first writes, and rewrites of data that sat still
	hot         // rewrites of data written recently
	streams
)

// hotCold separates hot data from cold: each die has two write streams, each with a write
// point per plane, and a host write goes to the hot stream when the logical page's current
// copy is in a block programmed recently — within the device's last hotBlocksPerDie
// blocks' worth of allocations per die — and to the cold stream otherwise. Pages that are rewritten soon
// then share blocks, which they invalidate together, so GC finds hot blocks nearly empty and
// cold blocks nearly full, and moves fewer pages than when both mix in one write point
// (the idea of hot/cold separation in log-structured stores and FTLs; the classifier is
// this example's, deliberately simple: it needs no memory beyond the FTL's own).
//
// It uses only the seam's public API (ftl.Space), implements ftl.Checker, and does not
// implement ftl.Preconditioner: preconditioning runs every write through Allocate.
type hotCold struct {
	ftl.Space
	planes    int
	hotWindow uint32
	wp        [streams][]ftl.BlockID // write point per stream and plane (die·Planes + plane)
	rr        []int                  // per die: the plane the next write tries first
	// Writes is the number of host writes each stream took.
	Writes [streams]int64
}

func newHotCold(s ftl.Space) *hotCold {
	g := s.Geometry()
	a := &hotCold{Space: s, planes: g.Planes, hotWindow: uint32(hotBlocksPerDie * g.Dies()), rr: make([]int, g.Dies())}
	for st := range a.wp {
		a.wp[st] = make([]ftl.BlockID, g.Dies()*g.Planes)
		for i := range a.wp[st] {
			a.wp[st][i] = ftl.NoBlock
		}
	}
	return a
}

// stream returns the stream of a host write of lpn.
func (a *hotCold) stream(lpn int64) int {
	old := a.Lookup(lpn)
	if old == ftl.NoUnit {
		return cold
	}
	if a.Clock()-a.Written(a.Geometry().BlockOf(a.Geometry().PageOf(old))) < a.hotWindow {
		return hot
	}
	return cold
}

// Allocate implements ftl.Allocator: the next page of the stream's write point on the
// die's next plane (round robin over planes, as the sequential allocator does, so the
// flash scheduler can still merge multi-plane programs).
func (a *hotCold) Allocate(lpn int64, die int, _ ftl.Purpose) (ftl.PPN, error) {
	st := a.stream(lpn)
	wp := a.wp[st]
	for try := 0; try < a.planes; try++ {
		plane := (a.rr[die] + try) % a.planes
		pi := die*a.planes + plane
		if b := wp[pi]; b == ftl.NoBlock || a.IsFull(b) {
			nb, ok := a.OpenBlock(die, plane)
			if !ok {
				wp[pi] = ftl.NoBlock
				continue
			}
			wp[pi] = nb
		}
		a.rr[die] = (plane + 1) % a.planes
		a.Writes[st]++
		return a.Take(wp[pi]), nil
	}
	return ftl.NoPage, ftl.ErrNoSpace
}

// Erased implements ftl.Allocator: a write point that GC erased is dropped.
func (a *hotCold) Erased(b ftl.BlockID) {
	die, plane, _ := a.Geometry().BlockAddr(b)
	pi := die*a.planes + plane
	for st := range a.wp {
		if a.wp[st][pi] == b {
			a.wp[st][pi] = ftl.NoBlock
		}
	}
}

// Check implements ftl.Checker: every write point is an open or full block of its own
// plane, and the two streams never share a block.
func (a *hotCold) Check() error {
	var errs []error
	for pi := range a.wp[cold] {
		for st := range a.wp {
			b := a.wp[st][pi]
			if b == ftl.NoBlock {
				continue
			}
			die, plane, _ := a.Geometry().BlockAddr(b)
			if die*a.planes+plane != pi || !(a.IsOpen(b) || a.IsFull(b)) {
				errs = append(errs, fmt.Errorf("hot-cold: stream %d's write point on plane %d is block %d, not an open or full block of that plane", st, pi, b))
			}
		}
		if b := a.wp[hot][pi]; b != ftl.NoBlock && b == a.wp[cold][pi] {
			errs = append(errs, fmt.Errorf("hot-cold: both streams write block %d", b))
		}
	}
	return errors.Join(errs...)
}
