package bitset

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestNext: Next finds the first member at or after i and before end, as a plain
// scan of the members does, over sets of 1 to 200 positions (one to four words).
func TestNext(t *testing.T) {
	rng := sim.NewRNG(3, "dieset")
	for n := 1; n <= 200; n++ {
		s := New(n)
		in := make([]bool, n)
		for i := range n {
			in[i] = rng.IntN(4) == 0
			s.Put(i, in[i])
		}
		for i := 0; i <= n; i++ {
			for end := i; end <= n; end++ {
				want := end
				for j := i; j < end; j++ {
					if in[j] {
						want = j
						break
					}
				}
				require.Equal(t, want, s.Next(i, end), "n %d next(%d, %d)", n, i, end)
			}
		}
		for i := range n {
			require.Equal(t, in[i], s.Has(i))
		}
	}
}
