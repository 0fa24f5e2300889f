package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestBackgroundPerEviction: under background_set per-eviction, FastDrain's background
// eviction is paced by the buffer's own evictions: each foreground round owes one set of
// dies × background_per_die pages, one page to each die idle of host work, and nothing is
// owed without an eviction. Worked out on the fake (4 dies, a 256-page buffer, watermarks
// 0.5 / 0.8, so the high watermark is 0.8 × 256 = 204.8 pages and the low 128; LRU order,
// sequential writes, no host reads, so every die is idle of host work):
//   - 8 pages written (LPNs 0–7), no hint: occupancy and prediction 8, under high, so
//     FD-Buf decides background; but no eviction has happened, so no set is owed and
//     nothing is programmed in the next 10 ms (under idle-dies all 8 would be,
//     TestBackgroundIdleDiesSet).
//   - 200 more pages written, 8 a command (LPNs 8–207): when the occupancy reaches 205
//     (≥ 204.8) FD-Buf evicts in the foreground until it is back under 128; each of those
//     rounds is an internal buffer eviction and renews the set to 4 × 1 = 4 pages. Once
//     under 128 FD-Buf decides background: the set goes out, one page to each of the 4
//     dies (background_per_die 1; a die with a program queued is passed over and taken
//     when it completes), and then nothing more, although dirty pages remain. So exactly
//     4 background pages, all to idle dies, and foreground + 4 + still dirty = 208.
//   - Which dies: LRU sends the oldest dirty pages first, so the foreground took LPNs
//     0 … F−1 (F foreground pages) and the set LPNs F … F+3, one on each of the 4 dies.
//   - background_per_die 2: the set is 4 × 2 = 8 pages.
//   - oracle-bg (no idle-die estimate, the hint-blind control) is not paced: its 8 pages
//     of the first write are all programmed in the background with no eviction at all.
func TestBackgroundPerEviction(t *testing.T) {
	b := DefaultSpec().Buffer
	b.BackgroundSet = BackgroundSetPerEviction
	require.Equal(t, 480, backgroundSet(b, 480), "one page to each of the paper's 480 dies")
	require.Equal(t, 480, backgroundBudget(b, 480), "no in-flight bound but background_per_die")
	b.BackgroundSet = BackgroundSetShare
	require.Zero(t, backgroundSet(b, 480), "the other rules owe nothing per eviction")

	run := func(p Policy, perDie int) *fake {
		s := smallSpec(p, "sequential")
		s.Buffer.BackgroundSet, s.Buffer.BackgroundPerDie = BackgroundSetPerEviction, perDie
		r := newFake(t, s, 4096)
		r.eng.Spawn("host", func(pr *sim.Proc) {
			for c := 0; c < 26; c++ {
				w := make([]uint64, 8)
				for i := range w {
					w[i] = Stamp(int64(8*c+i), 1)
				}
				r.cmd(pr, nvme.OpWrite, int64(8*c), 8, nvme.Hint{}, w)
				if c == 0 {
					pr.SleepUntil(10 * sim.Millisecond)
					if p == FastDrain {
						require.Zero(t, r.flash.programs, "no eviction, no set owed")
					} else {
						require.Equal(t, int64(8), r.flash.programs, "oracle-bg is not paced")
						return
					}
				}
			}
		})
		r.eng.Run()
		return r
	}

	r := run(FastDrain, 1)
	st := r.fw.Stats
	require.Positive(t, st.ForegroundEvictions)
	require.Equal(t, int64(4), st.BackgroundEvictions, "one set: 4 dies × 1")
	require.Equal(t, int64(4), st.BackgroundIdle)
	require.Zero(t, st.BackgroundBusy)
	require.Equal(t, int64(208), st.ForegroundEvictions+st.BackgroundEvictions+int64(r.fw.buf.Dirty()))
	dies := map[int]bool{}
	for lpn := st.ForegroundEvictions; lpn < st.ForegroundEvictions+4; lpn++ {
		dies[r.fw.geo.Addr(ftl.PPN(r.fw.ftl.Lookup(lpn))).Die] = true
	}
	require.Len(t, dies, 4, "the set's four pages are on the four dies")
	_, held := r.fw.buf.Contains(st.ForegroundEvictions + 4)
	require.True(t, held)

	r = run(FastDrain, 2)
	require.Equal(t, int64(8), r.fw.Stats.BackgroundEvictions, "one set: 4 dies × 2")
	require.Equal(t, int64(208), r.fw.Stats.ForegroundEvictions+8+int64(r.fw.buf.Dirty()))

	r = run(OracleBG, 1)
	require.Equal(t, int64(8), r.fw.Stats.BackgroundEvictions)
	require.Zero(t, r.fw.Stats.ForegroundEvictions)
}
