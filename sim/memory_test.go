package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestResidentMemory: what an allocation holds in memory, page by page. Touched rounds to
// 4 KiB pages (4,097 bytes take two); a small allocation (≤ 32 KiB) is resident whole, its
// pages shared with other objects; a large one only where written (1 MiB with 5,000 bytes
// written: two pages).
func TestResidentMemory(t *testing.T) {
	for _, c := range []struct{ b, want int64 }{{0, 0}, {1, 4096}, {4096, 4096}, {4097, 8192}} {
		require.Equal(t, c.want, Touched(c.b), "Touched(%d)", c.b)
	}
	require.Equal(t, int64(1000), Resident(1000, 0))
	require.Equal(t, int64(0), Resident(1<<20, 0))
	require.Equal(t, int64(8192), Resident(1<<20, 5000))
	require.Equal(t, int64(1<<20), Resident(1<<20, 2<<20))
}

// TestAppendBytes: a slice grown one append at a time. By hand, 8-byte elements: capacity
// 1, 2, 4, … 256 by doubling, then 256 + (256 + 768)/4 = 512 ≥ 300: 4,096 B for 300
// elements; 20-byte elements: 1, 2, 4 for 3 elements, 80 B. For large slices the figure is
// held to the runtime's own growth, a slice appended to here (cap × size; the runtime's
// capacity is the 8 KiB-rounded array divided by the element, within one element).
func TestAppendBytes(t *testing.T) {
	require.Equal(t, int64(4096), AppendBytes(300, 8))
	require.Equal(t, int64(80), AppendBytes(3, 20))
	require.Equal(t, int64(20), AppendBytes(1, 20))
	require.Zero(t, AppendBytes(0, 20))
	for _, n := range []int64{5000, 100000, 262144} {
		var s [][20]byte // 20 bytes, as the page cache's frame
		for range n {
			s = append(s, [20]byte{})
		}
		require.InDelta(t, float64(cap(s))*20, float64(AppendBytes(n, 20)), 20, "n=%d", n)
	}
}

// TestAppendAllBytes: the arrays a slice of 20-byte elements outgrows on the way to 3
// elements, by hand: capacities 1, 2, 4 (doubling below 256), 20 + 40 + 80 = 140 bytes;
// to 300 8-byte elements: doubling to 256 (8 arrays, 8 × (1+2+…+256) = 4,088 B), then
// 256 + (256 + 768)/4 = 512 elements, 4,096 B: 8,184 B.
func TestAppendAllBytes(t *testing.T) {
	require.Equal(t, int64(140), AppendAllBytes(3, 20))
	require.Equal(t, int64(8184), AppendAllBytes(300, 8))
	require.Zero(t, AppendAllBytes(0, 20))
}
