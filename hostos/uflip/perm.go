package uflip

import (
	"math/bits"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Perm is a keyed pseudo-random permutation of [0, n) computed on demand, so a device-sized
// "random order without replacement" needs no table: a four-round Feistel network over the
// smallest even number of bits that covers n, with cycle walking back into [0, n). It is
// plain data and At never allocates.
type Perm struct {
	n    uint64
	half uint
	mask uint64
	keys [4]uint64
}

// NewPerm returns a permutation of [0, n) keyed from rng.
func NewPerm(n uint64, rng *sim.RNG) Perm {
	b := uint(bits.Len64(n - 1))
	if n <= 1 {
		b = 0
	}
	half := max((b+1)/2, 1)
	p := Perm{n: n, half: half, mask: 1<<half - 1}
	for i := range p.keys {
		p.keys[i] = rng.Uint64()
	}
	return p
}

// Len returns n.
func (p Perm) Len() uint64 { return p.n }

// At returns the i-th element of the permutation (0 ≤ i < n).
func (p Perm) At(i uint64) uint64 {
	if i >= p.n {
		panic("uflip: Perm.At index out of range")
	}
	x := i
	for {
		x = p.round(x)
		if x < p.n {
			return x
		}
	}
}

// round applies the Feistel network once over the 2·half-bit domain (a bijection there;
// walking its cycle from a value below n reaches another value below n).
func (p Perm) round(x uint64) uint64 {
	l, r := x>>p.half, x&p.mask
	for _, k := range p.keys {
		l, r = r, l^(mix64(r^k)&p.mask)
	}
	return l<<p.half | r
}

// mix64 is the SplitMix64 finalizer, a fast well-mixing 64-bit hash.
func mix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
