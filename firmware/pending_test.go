package firmware

import (
	"math/rand/v2"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/stretchr/testify/require"
)

// TestInFlightAgainstMap: random puts, completions (with the right or a stale stamp) and
// lookups on a small geometry behave exactly like the Go map the table replaces, including
// a put over a page already in flight.
func TestInFlightAgainstMap(t *testing.T) {
	g := ftl.Geometry{Channels: 2, DiesPerChannel: 2, Planes: 2, BlocksPerPlane: 4, PagesPerBlock: 8}
	x := newInFlight(g)
	ref := map[ftl.Unit]uint64{}
	rng := rand.New(rand.NewPCG(1, 2))
	pages := g.Pages()
	for i := 0; i < 20000; i++ {
		p := ftl.Unit(rng.Int64N(pages))
		switch rng.IntN(3) {
		case 0:
			s := rng.Uint64()
			x.put(p, s)
			ref[p] = s
		case 1:
			s := rng.Uint64()
			if old, ok := ref[p]; ok && rng.IntN(2) == 0 {
				s = old // the program that wrote it completes
			}
			x.done(p, s)
			if old, ok := ref[p]; ok && old == s {
				delete(ref, p)
			}
		}
		for _, q := range []ftl.Unit{p, ftl.Unit(rng.Int64N(pages))} {
			s, ok := x.get(q)
			want, wok := ref[q]
			require.Equal(t, wok, ok, "op %d page %d", i, q)
			require.Equal(t, want, s, "op %d page %d", i, q)
		}
	}
	n := 0
	for _, l := range x.dies {
		n += len(l)
	}
	require.Equal(t, len(ref), n)
}
