package firmware

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestFoldTurnShare works the fold's share of a die by hand: fold operations of 100 µs
// (an SLC page read) and host programs of 1,200 µs (a QLC word line's page, 4.8 ms / 4),
// both always waiting, share 0.25. A fold operation goes while fold · 0.75 ≤ host · 0.25,
// that is while the fold's charged time is at most a third of the host's:
//
//   - 0 ≤ 0: F (fold 100); 75 > 0: H (host 1,200); then F while fold ≤ 400: 200, 300,
//     400, 500 (500 > 400 stops it): F F F F; H (2,400); F until fold passes 800: 600,
//     700, 800, 900; H (3,600); F 1,000 … 1,300.
//
// So after the first host program every 1,200 µs of host work is followed by 400 µs of
// fold, 400 / 1,600 = 25 % of the die's time.
func TestFoldTurnShare(t *testing.T) {
	s := &scheduler{dies: make([]dieQueue, 1)}
	var seq strings.Builder
	op := &flashOp{}
	for now := sim.Time(0); seq.Len() < 16; {
		op.sent = now
		if s.foldTurn(0, 0.25) {
			op.share, now = shareFold, now+100*sim.Microsecond
			seq.WriteByte('F')
		} else {
			op.share, now = shareHost, now+1200*sim.Microsecond
			seq.WriteByte('H')
		}
		s.charge(0, op, now)
	}
	require.Equal(t, "FHFFFFHFFFFHFFFF", seq.String())
	q := &s.dies[0]
	require.Equal(t, 1300*sim.Microsecond, q.foldTime)
	require.Equal(t, 3600*sim.Microsecond, q.hostTime)
	// A side charged nothing (shareNone: the other had nothing waiting) banks no credit.
	op.share, op.sent = shareNone, 0
	s.charge(0, op, sim.Second)
	require.Equal(t, 3600*sim.Microsecond, q.hostTime)
}

// TestFoldShareValidated: fold_share is a fraction below 1, needs read_first, and its
// errors name the field.
func TestFoldShareValidated(t *testing.T) {
	for _, c := range []struct {
		share     float64
		readFirst bool
		want      string
	}{
		{1, true, "firmware.scheduler.fold_share: 1 is not a fraction of the die's time in 0 … 1 (1 excluded"},
		{-0.1, true, "firmware.scheduler.fold_share: -0.1 is not a fraction"},
		{0.25, false, "firmware.scheduler.fold_share: 0.25 needs firmware.scheduler.read_first"},
	} {
		s := DefaultSpec()
		s.Scheduler.FoldShare, s.Scheduler.ReadFirst = c.share, c.readFirst
		require.ErrorContains(t, s.Validate(), c.want)
	}
	s := DefaultSpec()
	s.Scheduler.FoldShare = 0.25
	require.NoError(t, s.Validate())
}
