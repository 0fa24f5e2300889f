package ftl

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// Policies registered by the tests, as a program outside the package would register its own.
func init() {
	RegisterAllocator("plane-zero", func(s Space) Allocator { return newPlaneZero(s) })
	RegisterAllocator("plane-zero-checked", func(s Space) Allocator { return checkedPlaneZero{newPlaneZero(s)} })
	RegisterVictimPolicy("most-valid", func(v View) VictimPolicy { return mostValid{v} })
	RegisterVictimPolicy("bad-victim", func(v View) VictimPolicy { return badVictim{v} })
}

// planeZero fills one block at a time per die, always on the lowest-numbered plane with a
// block to open: a placement neither closed-form layout describes. It does not implement
// Preconditioner.
type planeZero struct {
	Space
	open []BlockID // per die
}

func newPlaneZero(s Space) *planeZero {
	a := &planeZero{Space: s, open: make([]BlockID, s.Geometry().Dies())}
	for d := range a.open {
		a.open[d] = NoBlock
	}
	return a
}

func (a *planeZero) Allocate(_ int64, die int, _ Purpose) (PPN, error) {
	if b := a.open[die]; b == NoBlock || a.IsFull(b) {
		a.open[die] = NoBlock
		for p := 0; p < a.Geometry().Planes && a.open[die] == NoBlock; p++ {
			if nb, ok := a.OpenBlock(die, p); ok {
				a.open[die] = nb
			}
		}
		if a.open[die] == NoBlock {
			return NoPage, ErrNoSpace
		}
	}
	return a.Take(a.open[die]), nil
}

func (a *planeZero) Erased(b BlockID) {
	for d := range a.open {
		if a.open[d] == b {
			a.open[d] = NoBlock
		}
	}
}

// checkedPlaneZero is planeZero with an invariant that always fails.
type checkedPlaneZero struct{ *planeZero }

func (checkedPlaneZero) Check() error { return errors.New("plane-zero: test invariant broken") }

// mostValid takes the reclaimable block with the most valid pages (the worst choice).
type mostValid struct{ View }

func (p mostValid) Victim(die, plane int) (BlockID, bool) {
	first, n := p.PlaneBlocks(die, plane)
	best := NoBlock
	for b := first; b < first+BlockID(n); b++ {
		if p.Reclaimable(b) && (best == NoBlock || p.ValidCount(b) > p.ValidCount(best)) {
			best = b
		}
	}
	return best, best != NoBlock
}

// badVictim names the plane's third block whatever its state.
type badVictim struct{ View }

func (p badVictim) Victim(die, plane int) (BlockID, bool) {
	first, _ := p.PlaneBlocks(die, plane)
	return first + 2, true
}

// TestUnknownPolicyNames: a name no one registered is an error under its field, listing
// every registered name sorted (the built-ins and this test's).
func TestUnknownPolicyNames(t *testing.T) {
	c := DefaultConfig()
	c.Allocator, c.GCVictim = "lsb-first", "lru"
	c.LSBOnlyPages = 32 // two of small()'s blocks
	require.EqualError(t, c.Validate(small()),
		`ftl.allocator: unknown allocator "lsb-first" (known: latency-aware, plane-zero, plane-zero-checked, sequential, skip-to-lsb, slc-foreground)`+"\n"+
			`ftl.gc_victim: unknown gc victim policy "lru" (known: bad-victim, cost-benefit, greedy, most-valid)`)
	_, err := New(small(), c)
	require.ErrorContains(t, err, "ftl.allocator: unknown allocator")
	require.Equal(t, []string{"latency-aware", "plane-zero", "plane-zero-checked", "sequential", "skip-to-lsb", "slc-foreground"}, Allocators())
	require.Equal(t, []string{"bad-victim", "cost-benefit", "greedy", "most-valid"}, VictimPolicies())
}

// TestPreconditionWithoutCapability: an allocator without Preconditioner is preconditioned
// through its own Allocate (before issue 21 it was silently given the sequential closed
// form). small() is 2 dies (one per channel) × 2 planes × 8 blocks × 16 pages; newFTL
// hides 25 %, leaving 384 logical pages. Filling a quarter writes lpn 0 … 95 in order;
// write k goes to die k mod 2 (InterleavedDie on 2 channels of 1 die) as its j = k div 2-th
// write, which plane-zero puts on plane 0, block j div 16 (free-list order: 0, 1, 2),
// page j mod 16. So lpn k is at PPN ((2·(k mod 2) + 0)·8 + j div 16)·16 + j mod 16:
// lpn 0 → 0, lpn 1 → 256, lpn 2 → 1 (the sequential layout would have put it on plane 1,
// PPN 128), lpn 33 → die 1, j 16, block 1: 272; lpn 95 → die 1, j 47: (16 + 2)·16 + 15 = 303.
func TestPreconditionWithoutCapability(t *testing.T) {
	f := newFTL(t, small(), func(c *Config) { c.Allocator = "plane-zero" })
	_, ok := f.alloc.(Preconditioner)
	require.False(t, ok)
	require.NoError(t, f.Precondition(0.25, 0, false, 5))
	for lpn, want := range map[int64]Unit{0: 0, 1: 256, 2: 1, 33: 272, 95: 303} {
		require.Equal(t, want, f.Lookup(lpn), "lpn %d", lpn)
	}
	for k := int64(0); k < 96; k++ {
		d, j := k%2, k/2
		want := Unit(((2*d+0)*8+j/16)*16 + j%16)
		require.Equal(t, want, f.Lookup(k), "lpn %d", k)
	}
	require.Equal(t, NoUnit, f.Lookup(96))
	// Blocks 0–2 of plane 0 of each die are full (48 = 3 × 16 writes); plane 1 is untouched.
	for _, b := range []BlockID{0, 1, 2, 16, 17, 18} {
		require.Equal(t, 16, f.NextPage(b), "block %d", b)
	}
	require.Equal(t, 0, f.NextPage(3))
	require.Equal(t, 8, f.FreeBlocks(0, 1))
	require.Equal(t, 5, f.FreeBlocks(0, 0))
	_, ok = f.PreconditionOwner(0)
	require.False(t, ok, "the general path keeps no closed form")
	require.Equal(t, Stats{}, f.Stats, "statistics reset")
	require.NoError(t, f.Check())
}

// TestPreconditionWithoutCapabilityRandom: random order and overwrites through the general
// path leave a consistent FTL: n = ⌊0.4·384⌋ = 153 logical pages mapped, each to a page
// that names it, m = ⌊0.5·153⌋ = 76 of them overwritten, so 153 + 76 = 229 pages
// programmed and 229 − 153 = 76 invalid.
func TestPreconditionWithoutCapabilityRandom(t *testing.T) {
	f := newFTL(t, small(), func(c *Config) { c.Allocator = "plane-zero" })
	require.NoError(t, f.Precondition(0.4, 0.5, true, 9))
	mapped := 0
	for lpn := int64(0); lpn < f.LogicalPages(); lpn++ {
		if p := f.Lookup(lpn); p != NoUnit {
			mapped++
			owner, ok := f.Owner(p)
			require.True(t, ok)
			require.Equal(t, lpn, owner)
		}
	}
	require.Equal(t, 153, mapped)
	programmed, valid := 0, 0
	for b := 0; b < small().Blocks(); b++ {
		programmed += f.NextPage(BlockID(b))
		valid += f.ValidCount(BlockID(b))
	}
	require.Equal(t, 229, programmed)
	require.Equal(t, 153, valid)
	require.NoError(t, f.Check())
}

// TestVictimPolicySeam: oneplane() is one plane of 8 blocks of 20 pages. Sequential writes
// of lpn 0 … 59 fill blocks 0, 1 and 2; trimming lpn 0 … 4 leaves block 0 with 15 valid
// pages, trimming 20 … 29 block 1 with 10, and block 2 keeps all 20 (not reclaimable).
// Greedy takes block 1, the registered most-valid policy block 0, and a policy naming
// block 2 is refused.
func TestVictimPolicySeam(t *testing.T) {
	fill := func(victim string) *FTL {
		f := newFTL(t, oneplane(), func(c *Config) { c.GCVictim = victim })
		for lpn := int64(0); lpn < 60; lpn++ {
			_, err := f.WriteHost(lpn, 0, Background)
			require.NoError(t, err)
		}
		for _, r := range [][2]int64{{0, 5}, {20, 30}} {
			for lpn := r[0]; lpn < r[1]; lpn++ {
				f.Trim(lpn)
			}
		}
		return f
	}
	for _, c := range []struct {
		policy string
		want   BlockID
	}{{Greedy, 1}, {"most-valid", 0}} {
		f := fill(c.policy)
		v, ok := f.PickVictim(0, 0)
		require.True(t, ok)
		require.Equal(t, c.want, v, c.policy)
		require.Equal(t, int64(1), f.Stats.GCVictims)
	}
	f := fill("bad-victim")
	require.PanicsWithValue(t, `ftl: gc victim policy "bad-victim" picked block 2, not a reclaimable block of die 0 plane 0`,
		func() { f.PickVictim(0, 0) })
}

// TestErasedDropsWritePoint: on oneplane(), lpn 0 … 19 fill block 0, the sequential
// allocator's write point. Trimmed and erased, block 0 goes to the tail of the free list
// (FIFO: 1, 2, …, 7, 0), and the allocator, told by Erased, opens block 1 for the next
// write: PPN 1·20 + 0 = 20. Had it kept block 0 as its write point, it would have taken a
// page of a free block.
func TestErasedDropsWritePoint(t *testing.T) {
	f := newFTL(t, oneplane(), nil)
	for lpn := int64(0); lpn < 20; lpn++ {
		_, err := f.WriteHost(lpn, 0, Background)
		require.NoError(t, err)
		f.Trim(lpn)
	}
	f.Erase(0)
	p, err := f.WriteHost(0, 0, Background)
	require.NoError(t, err)
	require.Equal(t, PPN(20), p)
	require.NoError(t, f.Check())
}

// TestSpaceRefusesBlocksNotOpen: Take and Skip on a free block are programming errors.
func TestSpaceRefusesBlocksNotOpen(t *testing.T) {
	f := newFTL(t, oneplane(), nil)
	s := Space{View{f}}
	require.PanicsWithValue(t, `ftl: allocator "sequential" tried to take a page of block 5, which is not open`, func() { s.Take(5) })
	require.PanicsWithValue(t, `ftl: allocator "sequential" tried to skip a page of block 5, which is not open`, func() { s.Skip(5) })
}

// TestCheckerCapability: an allocator's own invariants are part of FTL.Check.
func TestCheckerCapability(t *testing.T) {
	f := newFTL(t, small(), func(c *Config) { c.Allocator = "plane-zero-checked" })
	require.EqualError(t, f.Check(), "plane-zero: test invariant broken")
	f = newFTL(t, small(), func(c *Config) { c.Allocator = "plane-zero" })
	require.NoError(t, f.Check())
}
