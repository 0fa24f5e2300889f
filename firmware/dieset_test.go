package firmware

import (
	"fmt"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestDieSetNext: next finds the first member at or after i and before end, as a plain
// scan of the members does, over sets of 1 to 200 positions (one to four words).
func TestDieSetNext(t *testing.T) {
	rng := sim.NewRNG(3, "dieset")
	for n := 1; n <= 200; n++ {
		s := newDieSet(n)
		in := make([]bool, n)
		for i := range n {
			in[i] = rng.IntN(4) == 0
			s.put(i, in[i])
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
				require.Equal(t, want, s.next(i, end), "n %d next(%d, %d)", n, i, end)
			}
		}
		for i := range n {
			require.Equal(t, in[i], s.has(i))
		}
	}
}

// checkOpen reports a die whose membership of the scheduler's open sets differs from what
// its queues say (the definitions in scheduler's comment).
func (s *scheduler) checkOpen() error {
	bp := &s.f.spec.Buffer
	for g := range s.dies {
		n, p := s.queuedPrograms(g), int(s.pos[g])
		if fg := n < bp.ForegroundPerDie; s.fgOpen.has(p) != fg {
			return fmt.Errorf("die %d: in fgOpen %v, %d programs queued", g, !fg, n)
		}
		if bg := n < bp.BackgroundPerDie && !s.readsWaiting(g); s.bgOpen.has(p) != bg {
			return fmt.Errorf("die %d: in bgOpen %v, %d programs queued, reads waiting %v", g, !bg, n, s.readsWaiting(g))
		}
	}
	return nil
}
