package ftl

import "github.com/fastdrain-sim/fastdrain/internal/enum"

// Allocator places host writes: the FTL asks it for the page of every host write (a
// buffer eviction) and binds the logical page there. It is the block manager's policy half;
// the FTL keeps the mechanism (free lists, block states, the maps) and hands the allocator
// a Space to open blocks and take pages with. One Allocator serves one FTL; it is built by
// the constructor registered under its name (RegisterAllocator) when the FTL is.
//
// An allocator may also implement Preconditioner (a closed form of its background writes on
// a fresh FTL, for fast preconditioning) and Checker (invariants of its own state, run by
// FTL.Check).
type Allocator interface {
	// Allocate returns the page to program for a host write of lpn on die, for purpose
	// Foreground or Background (never GC), consumed from the Space with Take. When no block
	// can be opened outside the GC reserve it returns ErrNoSpace; the firmware then waits for
	// GC and asks again.
	Allocate(lpn int64, die int, purpose Purpose) (PPN, error)
	// Erased tells the allocator that GC erased block b (which held no valid page), or
	// that b was retired to the bad-block table (ftl.Retire): any
	// write point or open-block list entry naming b must go (b is free again, or never to be
	// used).
	Erased(b BlockID)
}

// VictimPolicy chooses which block GC cleans. It only reads the FTL (through a View); the
// firmware's GC relocates the victim's valid pages and erases it.
type VictimPolicy interface {
	// Victim returns the block of plane (die, plane) to clean among the plane's reclaimable
	// blocks (View.Reclaimable: full, with at least one invalid or wasted page), or false
	// when there is none.
	Victim(die, plane int) (BlockID, bool)
}

// Layout is a closed form of where a fresh FTL's background writes land on one die, as
// fast preconditioning computes it (see Preconditioner). Dies take writes in turn
// (Geometry.InterleavedDie); j counts one die's writes from 0, P is the planes per die, B
// the pages per block, and each plane's blocks are opened in free-list order (block 0,
// 1, … of a fresh plane).
type Layout uint8

// Layouts.
const (
	// PlaneStriped: write j goes to plane j mod P as that plane's (j div P)-th page, a block
	// filled before the next is opened (round robin over planes, page by page: the
	// sequential and skip-to-lsb allocators).
	PlaneStriped Layout = iota
	// BlockFilled: write j is page j mod B of the die's (j div B)-th block, which is on
	// plane (j div B) mod P (one block filled at a time, blocks round robin over planes: the
	// latency-aware allocator).
	BlockFilled
)

// Preconditioner is an optional capability of an Allocator: on a fresh FTL its background
// writes follow a Layout, so FTL.Precondition can write the map, reverse map and block
// states in closed form instead of allocating page by page. An allocator without it is
// preconditioned through Allocate, one background write at a time, with the same result a
// run of those writes would give (slower on a large device, never wrong).
type Preconditioner interface {
	// PreconditionLayout returns the layout of the allocator's background writes on a
	// fresh FTL.
	PreconditionLayout() Layout
	// Preconditioned brings the allocator's state on die to where Allocate would have left
	// it after writes background writes in its layout: the FTL has already opened, written
	// and (where complete) filled those writes' blocks; last[p] is the last block opened on
	// plane p, NoBlock if none. last is reused after the call.
	Preconditioned(die int, writes int64, last []BlockID)
}

// FastPager is an optional capability of an Allocator that gives foreground writes fast
// (LSB) pages: whether a foreground write on die would get one now without skipping any
// page. The firmware then sends foreground writes to the dies that have one, across all
// dies, and only when no die it could send to has one lets the allocator skip or place them
// on slower pages (the FastDrain paper's latency-aware FTL selects LSB pages "from
// different lists in the LSB group", its lists indexed by die).
type FastPager interface {
	HasFastPage(die int) bool
}

// Checker is an optional capability of an Allocator or VictimPolicy: the invariants of its
// own state (write points, open lists, bounds), which FTL.Check reports with its own.
type Checker interface {
	// Check returns every broken invariant, or nil.
	Check() error
}

var (
	allocators = enum.NewRegistry[func(Space) Allocator]("allocator")
	victims    = enum.NewRegistry[func(View) VictimPolicy]("gc victim policy")
)

// RegisterAllocator makes an allocator available under name (the value of the
// configuration's ftl.allocator): newAllocator builds one for an FTL, given the Space it
// allocates from. Call it from an init function; a name registered twice panics.
func RegisterAllocator(name string, newAllocator func(s Space) Allocator) {
	allocators.Register(name, newAllocator)
}

// RegisterVictimPolicy makes a GC victim policy available under name (the value of
// ftl.gc_victim): newPolicy builds one for an FTL, given a read-only View of it. Call it
// from an init function; a name registered twice panics.
func RegisterVictimPolicy(name string, newPolicy func(v View) VictimPolicy) {
	victims.Register(name, newPolicy)
}

// Allocators returns the registered allocator names, sorted.
func Allocators() []string { return allocators.Names() }

// VictimPolicies returns the registered GC victim policy names, sorted.
func VictimPolicies() []string { return victims.Names() }

// NoBlock is the block number of no block: a write point with nothing open, or a Victim
// that found none.
const NoBlock = BlockID(0xFFFFFFFF)
