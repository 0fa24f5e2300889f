package ftl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSLCForegroundRoutesByPurpose: the slc-foreground allocator sends foreground writes to
// the SLC cache and background ones directly to native blocks, and calls a die's cache room
// its fast pages. Worked by hand on newSLCFTL's cache (1 die × 2 planes, a region of 4 SLC
// blocks of 4 pages a plane on the empty drive: 2 · 4 · 4 = 32 units):
//
//   - 10 background writes: none in SLC mode, all 10 counted as routed past the cache (not
//     direct: the cache had room), and the die still has fast pages.
//   - 32 foreground writes: all in SLC mode (the whole cache: the background writes took
//     none of it); the die then has no fast page left.
//   - 1 more foreground write: the cache is full, so it goes to a native block, counted
//     direct (the cliff), and direct mode is on.
//   - The idle detection of the cache's folds watches the 32 + 1 writes that used or tried
//     the cache, not the 43 host writes: the 10 routed past it leave the cache idle.
func TestSLCForegroundRoutesByPurpose(t *testing.T) {
	f := newFTL(t, slcGeometry(), func(c *Config) {
		c.Allocator = SLCForeground
		c.SLCCache = SLCCacheConfig{Static: 0.02, Dynamic: 0.1, FullAt: 0.5}
	})
	require.True(t, f.FastPaging())
	for lpn := int64(0); lpn < 10; lpn++ {
		p, err := f.WriteHost(lpn, 0, Background)
		require.NoError(t, err)
		require.False(t, f.IsSLC(f.g.BlockOf(p)), "background lpn %d", lpn)
	}
	s := f.SLCStats()
	require.Equal(t, int64(10), s.BypassWrites)
	require.Zero(t, s.DirectWrites)
	require.Zero(t, s.SLCWrites)
	require.False(t, f.SLCDirect())
	require.True(t, f.HasFastPage(0))
	for lpn := int64(10); lpn < 42; lpn++ {
		require.True(t, f.HasFastPage(0), "lpn %d", lpn)
		p, err := f.WriteHost(lpn, 0, Foreground)
		require.NoError(t, err)
		require.True(t, f.IsSLC(f.g.BlockOf(p)), "foreground lpn %d", lpn)
	}
	require.False(t, f.HasFastPage(0), "the cache is full: no fast page on the die")
	p, err := f.WriteHost(42, 0, Foreground)
	require.NoError(t, err)
	require.False(t, f.IsSLC(f.g.BlockOf(p)))
	s = f.SLCStats()
	require.Equal(t, int64(32), s.SLCWrites)
	require.Equal(t, int64(1), s.DirectWrites)
	require.Equal(t, int64(10), s.BypassWrites)
	require.True(t, f.SLCDirect())
	require.Equal(t, int64(43), f.Stats.HostWrites)
	require.Equal(t, int64(33), f.SLCIdleWrites())
	require.NoError(t, f.Check())
}

// TestSLCForegroundNeedsCache: without an SLC cache the allocator has no fast pages to give,
// and the configuration is refused naming both keys.
func TestSLCForegroundNeedsCache(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Allocator = SLCForeground
	err := cfg.Validate(slcGeometry())
	require.ErrorContains(t, err, `ftl.allocator "slc-foreground" routes foreground writes to the SLC cache: it needs ftl.slc_cache`)
}
