package buffer

import (
	"math/rand/v2"
	"testing"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/stretchr/testify/require"
)

func TestWriteUntilFullThenEvict(t *testing.T) {
	b := New(3, LRU)
	for lpn := int64(0); lpn < 3; lpn++ {
		require.True(t, b.Write(lpn, uint64(lpn+100)))
	}
	require.Equal(t, 3, b.Occupancy())
	require.False(t, b.Write(9, 1), "full: a new page must wait")
	require.True(t, b.Write(1, 201), "overwriting a buffered dirty page needs no room")
	// LRU order now (oldest first): 0, 2, 1. Two victims: 0 then 2.
	v := b.PickVictims(2, nil)
	require.Equal(t, []int64{0, 2}, []int64{v[0].LPN, v[1].LPN})
	require.Equal(t, uint64(100), v[0].Version)
	require.Equal(t, 3, b.Occupancy(), "evicting pages still occupy the buffer")
	require.False(t, b.Write(9, 1))
	require.True(t, b.EvictDone(v[0]))
	require.Equal(t, 2, b.Occupancy())
	require.Equal(t, 1, b.Clean())
	// The clean page serves reads until its slot is reclaimed by a new write.
	ver, hit := b.Read(0)
	require.True(t, hit)
	require.Equal(t, uint64(100), ver)
	require.True(t, b.Write(9, 1))
	_, hit = b.Read(0)
	require.False(t, hit, "clean page 0 was reclaimed for lpn 9")
	require.Equal(t, int64(1), b.Stats.Reclaimed)
}

func TestFIFOIgnoresReads(t *testing.T) {
	b := New(4, FIFO)
	for lpn := int64(0); lpn < 3; lpn++ {
		b.Write(lpn, 1)
	}
	b.Read(0)
	b.Write(0, 2) // FIFO: a rewrite keeps the page's place
	v := b.PickVictims(1, nil)
	require.Equal(t, int64(0), v[0].LPN)
	lru := New(4, LRU)
	for lpn := int64(0); lpn < 3; lpn++ {
		lru.Write(lpn, 1)
	}
	lru.Read(0)
	require.Equal(t, int64(1), lru.PickVictims(1, nil)[0].LPN, "LRU: the read refreshed page 0")
}

func TestRewriteWhileEvicting(t *testing.T) {
	b := New(2, LRU)
	b.Write(5, 1)
	v := b.PickVictims(1, nil)
	require.True(t, b.Write(5, 2))
	ver, _ := b.Read(5)
	require.Equal(t, uint64(2), ver, "reads see the newest version")
	require.False(t, b.EvictDone(v[0]), "the old version reached flash; the page stays dirty")
	st, _ := b.Contains(5)
	require.Equal(t, Dirty, st)
	v = b.PickVictims(1, nil)
	require.Equal(t, uint64(2), v[0].Version)
	require.True(t, b.EvictDone(v[0]))
}

func TestInvalidate(t *testing.T) {
	b := New(2, LRU)
	b.Write(1, 1)
	b.Write(2, 1)
	v := b.PickVictims(1, nil) // lpn 1 in flight
	b.Invalidate(1)
	b.Invalidate(2)
	_, hit := b.Read(1)
	require.False(t, hit)
	require.Equal(t, 1, b.Occupancy(), "the in-flight program still holds its slot")
	b.EvictDone(v[0])
	require.Equal(t, 0, b.Occupancy())
	require.Equal(t, 2, b.Room())
}

func TestUnboundedOracle(t *testing.T) {
	b := New(0, LRU)
	for lpn := int64(0); lpn < 10_000; lpn++ {
		require.True(t, b.Write(lpn, 1))
	}
	require.Equal(t, 10_000, b.Occupancy())
	require.Equal(t, bufferlevel.Low, Watermarks{0.5, 0.9}.LevelOf(b.Occupancy(), b.Capacity()))
}

func TestLevels(t *testing.T) {
	w := Watermarks{Low: 0.5, High: 0.8}
	require.NoError(t, w.Validate())
	// Capacity 100: < 50 below low, 50–79 between, ≥ 80 above high.
	require.Equal(t, bufferlevel.Low, w.LevelOf(49, 100))
	require.Equal(t, bufferlevel.Mid, w.LevelOf(50, 100))
	require.Equal(t, bufferlevel.Mid, w.LevelOf(79, 100))
	require.Equal(t, bufferlevel.High, w.LevelOf(80, 100))
	require.Error(t, Watermarks{0.9, 0.5}.Validate())
	require.Error(t, Watermarks{0, 0.5}.Validate())
}

// TestAgainstReference drives random writes, reads, evictions and trims against a plain
// map model of the newest version of each page and of what is on flash.
func TestAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	b := New(64, LRU)
	newest := map[int64]uint64{}  // latest version written
	onFlash := map[int64]uint64{} // version that completed eviction
	var inflight []Victim
	trimmed := map[int64]uint64{} // version counter at the page's last trim
	ver := uint64(0)
	for i := 0; i < 200_000; i++ {
		lpn := r.Int64N(200)
		switch op := r.IntN(10); {
		case op < 5:
			ver++
			if b.Write(lpn, ver) {
				newest[lpn] = ver
			} else {
				require.Zero(t, b.Room())
			}
		case op < 7:
			if v, hit := b.Read(lpn); hit {
				require.Equal(t, newest[lpn], v, "a hit returns the newest version")
			} else if n, ok := newest[lpn]; ok {
				require.Equal(t, n, onFlash[lpn], "a miss means flash has the newest version")
			}
		case op < 9:
			inflight = b.PickVictims(1+r.IntN(4), inflight)
		default:
			if len(inflight) > 0 {
				k := r.IntN(len(inflight))
				v := inflight[k]
				inflight = append(inflight[:k], inflight[k+1:]...)
				// A program of trimmed data (version older than the trim) does not count;
				// programs of one page may complete out of order, the newest wins (the FTL
				// maps the page to its latest allocation).
				if v.Version > trimmed[v.LPN] && v.Version > onFlash[v.LPN] {
					onFlash[v.LPN] = v.Version
				}
				b.EvictDone(v)
			}
		}
		if r.IntN(200) == 0 {
			b.Invalidate(lpn)
			delete(newest, lpn)
			delete(onFlash, lpn)
			trimmed[lpn] = ver
		}
		require.LessOrEqual(t, b.Occupancy(), 64)
		require.Equal(t, b.Occupancy(), b.Dirty()+b.Evicting())
	}
}

// TestEvictFailed: a victim whose program failed for good becomes dirty again (the
// most recent: it is evicted after the older dirty pages), still occupies its slot and
// serves reads, and is not counted as evicted; one written again meanwhile keeps its newer
// version; one trimmed meanwhile is dropped, freeing its slot.
func TestEvictFailed(t *testing.T) {
	b := New(4, LRU)
	for lpn := int64(0); lpn < 4; lpn++ {
		require.True(t, b.Write(lpn, uint64(lpn+10)))
	}
	v := b.PickVictims(3, nil) // 0, 1, 2
	require.True(t, b.Write(1, 21))
	b.Invalidate(2)
	b.EvictFailed(v[0])
	b.EvictFailed(v[1])
	b.EvictFailed(v[2])
	require.Equal(t, 0, b.Evicting())
	require.Equal(t, 3, b.Dirty(), "pages 3, 0 and 1 are dirty; 2 is gone")
	require.Equal(t, 3, b.Occupancy())
	require.Zero(t, b.Stats.Evicted)
	ver, hit := b.Read(1)
	require.True(t, hit)
	require.Equal(t, uint64(21), ver, "the newer write is kept")
	_, ok := b.Contains(2)
	require.False(t, ok)
	next := b.PickVictims(3, nil)
	require.Equal(t, []int64{3, 0, 1}, []int64{next[0].LPN, next[1].LPN, next[2].LPN}, "oldest first: 3, then the failed pages")
	require.Panics(t, func() { b.EvictFailed(v[2]) }, "a victim whose slot was freed")
}
