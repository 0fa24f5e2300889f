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
	got := writesSent(t, []sentWrite{{0, 4, 0, WriteLifeShort}, {8, 4, 0, WriteLifeExtreme}, {4, 4, 0, WriteLifeShort},
		{12, 4, 0, WriteLifeExtreme}, {16, 4, 0, WriteLifeNotSet}})
	require.Equal(t, []sentWrite{{0, 8, 0, WriteLifeShort}, {8, 8, 0, WriteLifeExtreme}, {16, 4, 0, WriteLifeNotSet}}, got)
}

// sentWrite is a write at off KiB of size KiB with its stream and hint.
type sentWrite struct {
	off, size int64
	stream    uint8
	hint      WriteHint
}

// writesSent submits the writes at time 0 on a default queue and returns the requests
// the device got, by offset.
func writesSent(t *testing.T, ws []sentWrite) []sentWrite {
	eng, q, dev := newTestQueue(t, DefaultSpec(), fixed(sim.Microsecond))
	for _, w := range ws {
		q.Submit(&Bio{Op: OpWrite, Offset: w.off * kib, Size: w.size * kib, WriteStream: w.stream, WriteHint: w.hint})
	}
	eng.Run()
	var got []sentWrite
	for _, d := range dev.log {
		got = append(got, sentWrite{d.Offset / kib, d.Size / kib, d.WriteStream, d.Life})
	}
	slices.SortFunc(got, func(a, b sentWrite) int { return int(a.off - b.off) })
	return got
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
