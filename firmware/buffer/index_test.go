package buffer

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestLPNIndexAgainstMap: a long random mix of inserts, updates, deletes and lookups over a
// small key range (long probe runs, many backward shifts, growth from a tiny table) gives
// the same answers as a Go map.
func TestLPNIndexAgainstMap(t *testing.T) {
	rng := sim.NewRNG(7, "index")
	x := newLPNIndex(1)
	ref := map[int64]int32{}
	for i := range 200_000 {
		lpn := int64(rng.IntN(300)) * 1024 // multiples: colliding homes are likely
		switch rng.IntN(3) {
		case 0:
			x.put(lpn, int32(i))
			ref[lpn] = int32(i)
		case 1:
			x.del(lpn)
			delete(ref, lpn)
		}
		s, ok := x.get(lpn)
		rs, rok := ref[lpn]
		require.Equal(t, rok, ok, "step %d lpn %d", i, lpn)
		if ok {
			require.Equal(t, rs, s, "step %d lpn %d", i, lpn)
		}
		require.Equal(t, len(ref), x.len())
	}
	for lpn, s := range ref {
		got, ok := x.get(lpn)
		require.True(t, ok)
		require.Equal(t, s, got)
	}
}
