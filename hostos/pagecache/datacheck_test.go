package pagecache

import (
	"strconv"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// storeDev is fakeDev that keeps the data word of every page written with words and
// returns it on reads (0 for pages never written or discarded), as the SSD does.
type storeDev struct {
	fakeDev
	words map[int64]uint64 // device page → word; looked up only, never iterated
}

func (d *storeDev) Submit(b *blk.Bio) {
	st, _ := b.Private.(interface{ PageStamps() []uint64 })
	first := b.Offset / PageSize
	switch b.Op {
	case blk.OpWrite:
		for i := int64(0); i < b.Size/PageSize; i++ {
			var w uint64
			if st != nil && st.PageStamps() != nil {
				w = st.PageStamps()[i]
			}
			d.words[first+i] = w
		}
	case blk.OpRead:
		if st != nil && st.PageStamps() != nil {
			for i := range st.PageStamps() {
				st.PageStamps()[i] = d.words[first+int64(i)]
			}
		}
	case blk.OpDiscard:
		for i := int64(0); i < b.Size/PageSize; i++ {
			delete(d.words, first+i)
		}
	}
	d.fakeDev.Submit(b)
}

// TestDataCheck: with 16 MiB of host memory (4,096 frames), a file of 6,000 pages written
// once through the cache and fsynced cannot stay cached, so reading it back brings at least
// 6,000 − 4,096 = 1,904 pages from the device, each checked against the word written:
// device page d of version v is d<<32 | v, versions 1 … 6,000 in write order, so the
// device's page 5 (the file is laid out from device page 0) holds 5<<32 | 6 after the
// writeback. All match. Then the device is made to lose page 5's last write (its word is
// set to version 6's predecessor, 5<<32 | 5), the page is pushed out of the cache and read
// again: exactly one mismatch, named.
func TestDataCheck(t *testing.T) {
	s := testSpec()
	s.Memory = 16 * MiB
	eng := sim.NewEngine()
	dev := &storeDev{fakeDev: fakeDev{eng: eng, lat: 10 * sim.Microsecond, noLog: true}, words: map[int64]uint64{}}
	c, err := New(eng, "host", s, dev, 1<<30)
	require.NoError(t, err)
	d := c.EnableDataCheck(1 << 30 / PageSize)
	var f *File
	read := func(t2 *Task, first, n int64) {
		for i := first; i < first+n; i++ {
			_, err := c.Read(t2, f, i*PageSize, PageSize)
			require.NoError(t, err)
		}
	}
	var afterFirst int64
	eng.Spawn("rw", func(p *sim.Proc) {
		t2 := c.NewTask(p, c.Cores()[0])
		f, err = c.Create(t2, "a")
		require.NoError(t, err)
		writePages(t, c, t2, f, 0, 6000)
		require.NoError(t, c.Fsync(t2, f))
		require.Equal(t, uint64(5)<<32|6, dev.words[5])
		read(t2, 0, 6000)
		afterFirst = d.Checked
		require.Zero(t, d.Mismatches)
		dev.words[5] = uint64(5)<<32 | 5 // the device loses the last write of page 5
		read(t2, 1000, 5000)             // page 5 leaves the cache (LRU)
		read(t2, 5, 1)
	})
	eng.Run()
	require.GreaterOrEqual(t, afterFirst, int64(6000-4096))
	require.Equal(t, int64(1), d.Mismatches)
	require.EqualError(t, d.Err(), "pagecache: data check: 1 of "+strconv.FormatInt(d.Checked, 10)+
		" pages read back other data than last written; first: page 5 of a (device page 5): read 0x500000005, last written 0x500000006")
}

// TestDataCheckVersionsDoNotWrap: at version 2³² − 1 the next write would need a 33rd bit;
// the check then stops giving new words and Err says why instead of wrapping silently.
func TestDataCheckVersionsDoNotWrap(t *testing.T) {
	r := newRig(t, testSpec(), sim.Microsecond)
	d := r.c.EnableDataCheck(1 << 30 / PageSize)
	d.version = 1<<32 - 2
	r.spawn("w", func(t2 *Task) {
		f, err := r.c.Create(t2, "a")
		require.NoError(t, err)
		writePages(t, r.c, t2, f, 0, 1) // version 2³² − 1: the last
		require.NoError(t, d.Err())
		writePages(t, r.c, t2, f, 1, 1)
	})
	r.eng.Run()
	require.EqualError(t, d.Err(), "pagecache: data check: more than 4294967295 page writes, so versions would wrap; the check covers runs shorter than that")
}
