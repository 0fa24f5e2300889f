package platforms

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/testtier"
	"github.com/stretchr/testify/require"
)

// TestPostCacheRateGen4 measures the validation rows of the writes past the cache
// (docs/validation.md): the 2 GiB sequential write (128 KiB at QD 32) on gen4-tlc and
// gen4-qlc as the presets are, with the host's rate from the cliff (the first direct
// write) to the end. By hand:
//
//   - The cliff is at the region: at the presets' 50 % fill gen4-tlc has 2 static and
//     ⌊6 · 0.25 / 0.75⌋ = 2 dynamic SLC blocks a plane of 192 pages × 4 units, over 32
//     planes: 98,304 units; gen4-qlc, its first 1 GiB replacing preconditioned data, 8 a
//     plane (docs/validation.md, "The cache and the cliff") of 128 × 4 units over 64 planes:
//     262,144. The first direct write comes while the dies that filled their caches last
//     still have programs queued (up to foreground_per_die a die, and the buffer's 8,192 /
//     4,096 pages): at most 3 % short.
//   - gen4-tlc past the cliff: Samsung's 2,000 MB/s, the rating this row is validated
//     against (within 15 %).
//   - gen4-qlc past the cliff: host and fold together stay within the all-planes QLC rate,
//     16 dies × 4 planes × 64 KiB / 4.8 ms = 874 MB/s, plus the pages allocated and queued
//     at the end (16 dies × 16 programs × 16 KiB); the fold takes part of it, so the host
//     stays under the control without the fold's share (fold_share 0). The share itself is
//     worked by hand in TestFoldShareQLC.
func TestPostCacheRateGen4(t *testing.T) {
	testtier.SkipUnlessLong(t, "two 2 GiB sequential writes and a control")
	tlc := runSeqWrite(t, "gen4-tlc", "2g")
	_, after := tlc.rates()
	t.Logf("gen4-tlc: cliff after %d units at %v, past it %.3f GB/s", tlc.atCliff.SLCWrites, tlc.tCliff, after)
	require.InDelta(t, 98_304, tlc.atCliff.SLCWrites, 0.03*98_304)
	require.InEpsilon(t, 2.0, after, 0.15, "Samsung's 2,000 MB/s after the cache")

	qlc := runSeqWrite(t, "gen4-qlc", "2g")
	_, after = qlc.rates()
	fold := float64((qlc.end.FoldUnits-qlc.atCliff.FoldUnits)*4096) / (float64(qlc.tEnd-qlc.tCliff) / 1e12) / 1e9
	ctl := runSeqWrite(t, "gen4-qlc", "2g", "firmware.scheduler.fold_share=0")
	_, ctlAfter := ctl.rates()
	t.Logf("gen4-qlc: cliff after %d units at %v, past it host %.3f GB/s, fold %.3f GB/s; control %.3f GB/s",
		qlc.atCliff.SLCWrites, qlc.tCliff, after, fold, ctlAfter)
	require.InDelta(t, 262_144, qlc.atCliff.SLCWrites, 0.03*262_144)
	queued := float64(16*16*16384) / (float64(qlc.tEnd-qlc.tCliff) / 1e12) / 1e9
	require.Less(t, after+fold, 0.874+queued)
	require.Less(t, after, ctlAfter, "the fold's share takes from the host")
}
