package blk

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// TestReqIndexAgainstMap drives the merge index and a Go map with the same random adds,
// lookups and deletions (keys from a small range, so probe runs collide and wrap) and
// requires the same answers: the map is the reference.
func TestReqIndexAgainstMap(t *testing.T) {
	const n = 32
	x := newReqIndex(n)
	ref := map[int64]*Request{}
	rng := sim.NewRNG(1, "index")
	pool := make([]Request, 256)
	for step := range 200_000 {
		k := int64(rng.IntN(96)) * 4096
		switch {
		case ref[k] != nil && rng.IntN(2) == 0:
			x.del(k)
			delete(ref, k)
		case len(ref) < n:
			rq := &pool[step%len(pool)]
			_, taken := ref[k]
			require.Equal(t, !taken, x.add(k, rq), "add %d at step %d", k, step)
			if !taken {
				ref[k] = rq
			}
		}
		q := int64(rng.IntN(96)) * 4096
		if got, want := x.get(q), ref[q]; got != want {
			t.Fatalf("step %d: get(%d) = %p, map has %p", step, q, got, want)
		}
	}
	require.Equal(t, len(ref), x.n)
}
