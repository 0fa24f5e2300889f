package pagecache

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestF2FSHintStreamTable: the stream each hint's writes get, worked by hand from f2fs.
// The class (f2fs_rw_hint_to_seg_type, six logs): SHORT hot, EXTREME cold, NOT_SET,
// NONE, MEDIUM and LONG warm. The stream (commit e6c8140bd06d, "f2fs: map data writes to
// FDP streams"): no streams → none (0); 1 → every class stream 1; 2 → hot and warm 1,
// cold 2; 3 or more → hot 1, warm 2, cold 3. Columns: not_set, none, short, medium, long,
// extreme.
func TestF2FSHintStreamTable(t *testing.T) {
	want := map[int][blk.NumWriteHints]uint8{
		0:  {0, 0, 0, 0, 0, 0},
		1:  {1, 1, 1, 1, 1, 1},
		2:  {1, 1, 1, 1, 1, 2},
		3:  {2, 2, 1, 2, 2, 3},
		16: {2, 2, 1, 2, 2, 3}, // streams past the third are never used
	}
	for streams, row := range want {
		s := testSpec()
		s.HintStreams = HintStreamsF2FS
		r := newRig(t, s, sim.Microsecond)
		r.c.SetWriteStreams(streams)
		for h := range blk.NumWriteHints {
			require.Equal(t, row[h], r.c.WriteStreamOf(h), "%d streams, hint %v", streams, h)
		}
	}
	// ext4/XFS (the default): no hint becomes a stream, whatever the device offers.
	r := newRig(t, testSpec(), sim.Microsecond)
	r.c.SetWriteStreams(8)
	for h := range blk.NumWriteHints {
		require.Zero(t, r.c.WriteStreamOf(h), "hint %v", h)
	}
}

// TestWriteHintCarriedToBios: each file's writeback, fsync and O_DIRECT writes carry the
// inode's hint in bi_write_hint and, with f2fs's mapping on a device of 3 streams, the
// stream of its class (table above): hot.log (short) stream 1, plain (no hint) 2,
// cold.dat (extreme) 3. The hint is read when the bio is built: pages dirtied before
// fcntl still go out with the new hint.
func TestWriteHintCarriedToBios(t *testing.T) {
	s := testSpec()
	s.HintStreams = HintStreamsF2FS
	r := newRig(t, s, 10*sim.Microsecond)
	r.c.SetWriteStreams(3)
	r.spawn("app", func(t2 *Task) {
		hot, _ := r.c.Create(t2, "hot.log")
		plain, _ := r.c.Create(t2, "plain")
		cold, _ := r.c.Create(t2, "cold.dat")
		for _, f := range []*File{hot, plain, cold} {
			require.NoError(t, r.c.Fallocate(f, 64*PageSize))
			writePages(t, r.c, t2, f, 0, 4)
		}
		require.NoError(t, r.c.SetWriteHint(hot, blk.WriteLifeShort)) // after the pages were dirtied
		require.NoError(t, r.c.SetWriteHint(cold, blk.WriteLifeExtreme))
		require.Equal(t, blk.WriteLifeExtreme, cold.WriteHint())
		for _, f := range []*File{hot, plain, cold} {
			require.NoError(t, r.c.Fsync(t2, f))
		}
		_, err := r.c.WriteDirect(t2, cold, 8*PageSize, 2*PageSize)
		require.NoError(t, err)
	})
	r.eng.Run()
	w := r.dev.ops(blk.OpWrite)
	require.Len(t, w, 4, "one bio of 4 pages per file, then the direct write")
	want := []struct {
		life   blk.WriteHint
		stream uint8
	}{{blk.WriteLifeShort, 1}, {blk.WriteLifeNotSet, 2}, {blk.WriteLifeExtreme, 3}, {blk.WriteLifeExtreme, 3}}
	for i, rec := range w {
		require.Equal(t, want[i].life, rec.Life, "write %d", i)
		require.Equal(t, want[i].stream, rec.Stream, "write %d", i)
	}
	for _, rec := range r.dev.ops(blk.OpFlush) {
		require.Zero(t, rec.Stream)
		require.Zero(t, rec.Life)
	}
}

// TestWriteHintWithoutMapping: on the default file system (ext4/XFS) a hinted file's
// writes carry the hint and no stream, so Linux's NVMe driver places them as any other.
func TestWriteHintWithoutMapping(t *testing.T) {
	r := newRig(t, testSpec(), 10*sim.Microsecond)
	r.c.SetWriteStreams(4)
	r.spawn("app", func(t2 *Task) {
		f, _ := r.c.Create(t2, "hot.log")
		require.NoError(t, r.c.Fallocate(f, 16*PageSize))
		require.NoError(t, r.c.SetWriteHint(f, blk.WriteLifeShort))
		writePages(t, r.c, t2, f, 0, 2)
		require.NoError(t, r.c.Fsync(t2, f))
	})
	r.eng.Run()
	w := r.dev.ops(blk.OpWrite)
	require.Len(t, w, 1)
	require.Equal(t, blk.WriteLifeShort, w[0].Life)
	require.Zero(t, w[0].Stream)
}

// TestWriteHintInvalid: fcntl refuses a value past RWH_WRITE_LIFE_EXTREME (EINVAL) and the
// file keeps its hint; the spec refuses an unknown mapping, naming the key.
func TestWriteHintInvalid(t *testing.T) {
	r := newRig(t, testSpec(), sim.Microsecond)
	r.spawn("app", func(t2 *Task) {
		f, _ := r.c.Create(t2, "f")
		require.NoError(t, r.c.SetWriteHint(f, blk.WriteLifeLong))
		require.ErrorContains(t, r.c.SetWriteHint(f, 6), "EINVAL")
		require.Equal(t, blk.WriteLifeLong, f.WriteHint())
	})
	r.eng.Run()
	s := testSpec()
	s.HintStreams = "ext4"
	require.ErrorContains(t, s.Validate(), `pagecache.hint_streams: "ext4" is not one of none, f2fs`)
}
