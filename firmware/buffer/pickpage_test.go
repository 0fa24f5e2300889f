package buffer

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPickPageOutOfOrder: pages 10, 11, 12 written in that order (FIFO: 10 oldest). Taking
// 11 out of order leaves 10 the oldest and 10, 12 the dirty pages in age order; 11 is
// Evicting (it still occupies the buffer) and cannot be taken twice; a page not buffered
// cannot be taken; 11's completion makes it clean as for any victim.
func TestPickPageOutOfOrder(t *testing.T) {
	b := New(4, FIFO)
	for lpn := int64(10); lpn < 13; lpn++ {
		require.True(t, b.Write(lpn, uint64(lpn)*10))
	}
	v, ok := b.PickPage(11)
	require.True(t, ok)
	require.Equal(t, Victim{LPN: 11, Version: 110, Slot: v.Slot}, v)
	lpn, _ := b.Oldest()
	require.Equal(t, int64(10), lpn)
	dst := make([]int64, 4)
	require.Equal(t, 2, b.OldestN(dst))
	require.Equal(t, []int64{10, 12}, dst[:2])
	require.Equal(t, 2, b.Dirty())
	require.Equal(t, 1, b.Evicting())
	require.Equal(t, 3, b.Occupancy())
	_, ok = b.PickPage(11)
	require.False(t, ok, "already Evicting")
	_, ok = b.PickPage(99)
	require.False(t, ok, "not buffered")
	require.True(t, b.EvictDone(v))
	require.Equal(t, 1, b.Clean())
	require.Equal(t, []int64{10, 12}, lpnsOf(b.PickVictims(2, nil)))
}

func lpnsOf(vs []Victim) []int64 {
	out := make([]int64, len(vs))
	for i, v := range vs {
		out[i] = v.LPN
	}
	return out
}
