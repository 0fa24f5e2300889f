package sim

import (
	"hash/fnv"
	"math/rand/v2"
)

// RNG is a per-component random stream: a PCG generator seeded from the simulation's root
// seed and the component's name, so adding a component or reordering set-up never changes
// another component's numbers.
type RNG struct {
	*rand.Rand
}

// NewRNG returns the stream of the named component under root seed seed.
func NewRNG(seed uint64, name string) *RNG {
	h := fnv.New64a()
	_, _ = h.Write([]byte(name))
	return &RNG{rand.New(rand.NewPCG(seed, h.Sum64()))}
}
