package blk

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestBioWakeNotifiesTheWaitingProcess: a bio with a Wake signal wakes its process when its
// last part completes, with no Done event. A 3-part bio (3 × max_request_bytes) on a device
// that serves each request in 10 µs, all three in parallel: the process resumes at 10 µs.
// Submitting the bio again clears Finished.
func TestBioWakeNotifiesTheWaitingProcess(t *testing.T) {
	spec := DefaultSpec()
	eng, q, dev := newTestQueue(t, spec, fixed(10*sim.Microsecond))
	var sig sim.Signal
	b := &Bio{Op: OpRead, Offset: 0, Size: 3 * int64(spec.MaxRequestBytes), Sync: true, Wake: &sig}
	var woke []sim.Time
	eng.Spawn("reader", func(p *sim.Proc) {
		for range 2 {
			q.Submit(b)
			require.False(t, b.Finished())
			for !b.Finished() {
				p.Wait(&sig)
			}
			woke = append(woke, p.Now())
		}
	})
	eng.Run()
	require.Len(t, dev.log, 6)
	require.Equal(t, []sim.Time{10 * sim.Microsecond, 20 * sim.Microsecond}, woke)
	require.NoError(t, b.Err)
}
