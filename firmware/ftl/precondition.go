package ftl

import (
	"fmt"
	"math/bits"
)

// Precondition fills the device without simulating any I/O: the first fill·LogicalPages
// logical pages are written once, in order (random false) or in a pseudo-random order
// without replacement (random true), then overwrite·(that many) of them are written again
// in pseudo-random order, which leaves that many invalid pages for GC to find. Pages are
// placed by the configured allocator as background writes, interleaved across dies, exactly
// as the running firmware would place them; statistics are reset afterwards. The caller
// brings the flash dies to the same state (see NextPage / CheckProgrammed).
func (f *FTL) Precondition(fill, overwrite float64, random bool, seed uint64) error {
	if fill < 0 || fill > 1 {
		return fmt.Errorf("precondition.fill: %v must be between 0 and 1", fill)
	}
	if overwrite < 0 {
		return fmt.Errorf("precondition.overwrite: %v must not be negative", overwrite)
	}
	n := int64(fill * float64(len(f.l2p)))
	m := int64(overwrite * float64(n))
	reserve := int64(f.cfg.GCThreshold+f.cfg.LSBOpenBlocks+1) * int64(f.g.Dies()*f.g.Planes) * int64(f.g.PagesPerBlock)
	if n+m > f.g.Pages()-reserve {
		return fmt.Errorf("precondition: %d writes (fill %v, overwrite %v) need more than the %d pages outside the GC reserve",
			n+m, fill, overwrite, f.g.Pages()-reserve)
	}
	die := 0
	write := func(lpn int64) error {
		_, err := f.WriteHost(lpn, f.g.InterleavedDie(die), Background)
		die++
		return err
	}
	order := newPermutation(n, seed)
	for i := int64(0); i < n; i++ {
		lpn := i
		if random {
			lpn = order.at(i)
		}
		if err := write(lpn); err != nil {
			return fmt.Errorf("precondition: %w", err)
		}
	}
	over := newPermutation(n, seed^0x9E3779B97F4A7C15)
	for i := int64(0); i < m; i++ {
		if err := write(over.at(i % n)); err != nil {
			return fmt.Errorf("precondition: %w", err)
		}
	}
	f.Stats = Stats{WastedNow: f.Stats.WastedNow}
	return nil
}

// permutation is a cheap bijection of [0, n): i ↦ (a·i + c) mod n with a coprime to n. It
// gives "random order without replacement" with O(1) memory, which matters for a device of
// a hundred million pages.
type permutation struct {
	n, a, c int64
}

func newPermutation(n int64, seed uint64) permutation {
	if n <= 1 {
		return permutation{n: max(n, 1), a: 1}
	}
	a := int64(seed%uint64(n)) | 1
	for gcd(a, n) != 1 {
		a = (a + 2) % n
		if a == 0 {
			a = 1
		}
	}
	return permutation{n: n, a: a, c: int64((seed >> 17) % uint64(n))}
}

func (p permutation) at(i int64) int64 {
	// (a·i + c) mod n in 128-bit arithmetic, so no overflow for any n.
	hi, lo := bits.Mul64(uint64(p.a), uint64(i))
	lo, carry := bits.Add64(lo, uint64(p.c), 0)
	return int64(bits.Rem64(hi+carry, lo, uint64(p.n)))
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
