package blk

import (
	"slices"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestWriteHintsDoNotMerge: bios of different write-lifetime hints never share a request
// (Linux 6.9's blk_rq_merge_ok and attempt_merge compare write_hint), as streams do not.
// Submitted at time 0, all stream 0: [0, 4k) short, [8k, 12k) extreme, [4k, 8k) short
// (back-merges into the first; the grown request touches the second, of another hint, and
// stays apart), [12k, 16k) extreme (back-merges into the second), [16k, 20k) not set
// (neither merges behind extreme). Three requests: [0, 8k) short, [8k, 16k) extreme,
// [16k, 20k) not set, each keeping its hint.
func TestWriteHintsDoNotMerge(t *testing.T) {
	eng, q, dev := newTestQueue(t, DefaultSpec(), fixed(sim.Microsecond))
	for _, b := range []struct {
		off  int64
		hint WriteHint
	}{{0, WriteLifeShort}, {8, WriteLifeExtreme}, {4, WriteLifeShort}, {12, WriteLifeExtreme}, {16, WriteLifeNotSet}} {
		q.Submit(&Bio{Op: OpWrite, Offset: b.off * kib, Size: 4 * kib, WriteHint: b.hint})
	}
	eng.Run()
	type got struct {
		off, size int64
		hint      WriteHint
	}
	var gs []got
	for _, d := range dev.log {
		gs = append(gs, got{d.Offset / kib, d.Size / kib, d.Life})
	}
	slices.SortFunc(gs, func(a, b got) int { return int(a.off - b.off) })
	require.Equal(t, []got{{0, 8, WriteLifeShort}, {8, 8, WriteLifeExtreme}, {16, 4, WriteLifeNotSet}}, gs)
}

// TestWriteHintNames: the names are fio's write_hint values, and only RWH_WRITE_LIFE_*
// values (0 … 5) are valid.
func TestWriteHintNames(t *testing.T) {
	require.Equal(t, "short", WriteLifeShort.String())
	require.Equal(t, "not_set", WriteLifeNotSet.String())
	require.Equal(t, "rw_hint(9)", WriteHint(9).String())
	require.True(t, WriteLifeExtreme.Valid())
	require.False(t, NumWriteHints.Valid())
}
