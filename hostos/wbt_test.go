package hostos_test

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestFlusherSleepsInWBT: background writeback through the whole stack with writeback
// throttling on. The flusher sleeps while wbt holds its bio (it would be asleep in
// wbt_wait), so at most one of its request parts ever waits in wbt, and the writes in
// flight never exceed wbt's max_depth. Tiny machine with dirty_background_ratio 1 %
// (256 MiB × 1 % ≈ 2.6 MiB) and dirty_ratio 20 %, 8 MiB written at once: the flusher's
// background work writes REQ_BACKGROUND 1 MiB bios (two 512 KiB requests each), four
// requests in flight at step 0 (wb_background), so its third bio's first part waits.
// The probe watches the first 20 ms after the write returns, before the fsync (whose bios
// the model parks all at once, see wbt.go).
func TestFlusherSleepsInWBT(t *testing.T) {
	c, err := platforms.Load(platforms.Options{Preset: "tiny", Variant: "vanilla", Sets: []string{
		"host.pagecache.fastdrain.adaptive=false", "host.pagecache.dirty.background_ratio=1",
		"host.pagecache.dirty.ratio=20"}})
	require.NoError(t, err)
	m, err := platforms.Build(c)
	require.NoError(t, err)
	t.Cleanup(m.Eng.Close)
	os := m.Host.OS()
	maxWait, maxInflight, overDepth := 0, 0, 0
	done := false
	m.Eng.Spawn("probe", func(p *sim.Proc) {
		for !done {
			inflight, waiting := m.Host.Queue.WBTInflight()
			_, maxDepth, _, _ := m.Host.Queue.WBTDepths()
			maxWait, maxInflight = max(maxWait, waiting), max(maxInflight, inflight)
			if inflight > maxDepth {
				overDepth++
			}
			p.Sleep(20 * sim.Microsecond)
		}
	})
	run(t, m, func(p *sim.Proc) {
		f, err := os.Create(p, "big", 0)
		require.NoError(t, err)
		require.NoError(t, os.Write(p, f, 0, 8<<20))
		p.Sleep(20 * sim.Millisecond) // background writeback runs; the probe watches
		done = true
		require.NoError(t, os.Fsync(p, f))
	})
	st := m.Host.Queue.Stats()
	require.Positive(t, st.WBTWaits, "the flusher met the throttle")
	require.Equal(t, 1, maxWait, "one flusher part at a time waits")
	require.Zero(t, overDepth)
	require.LessOrEqual(t, maxInflight, 16)
	require.Positive(t, m.Host.Cache.Stats().PagesWrittenBack)
}
