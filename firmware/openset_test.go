package firmware

import "fmt"

// checkOpen reports a die whose membership of the scheduler's open sets differs from what
// its queues say (the definitions in scheduler's comment).
func (s *scheduler) checkOpen() error {
	bp := &s.f.spec.Buffer
	for g := range s.dies {
		n, p := s.queuedPrograms(g), int(s.pos[g])
		if fg := n < bp.ForegroundPerDie; s.fgOpen.Has(p) != fg {
			return fmt.Errorf("die %d: in fgOpen %v, %d programs queued", g, !fg, n)
		}
		if bg := n < bp.BackgroundPerDie && !s.readsWaiting(g); s.bgOpen.Has(p) != bg {
			return fmt.Errorf("die %d: in bgOpen %v, %d programs queued, reads waiting %v", g, !bg, n, s.readsWaiting(g))
		}
	}
	return nil
}
