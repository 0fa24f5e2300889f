package figures

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/stretchr/testify/require"
)

// TestModernVariantsOnGen4TLC: the modern section's variants load on gen4-tlc as the design
// says: FD-FTL and FD use the slc-foreground allocator (the SLC cache as fast pages) with
// FastDrain's buffer; Vanilla, FD-Buf and Oracle-BG keep the sequential allocator, every
// host write trying the cache first; every one has the preset's cache.
func TestModernVariantsOnGen4TLC(t *testing.T) {
	want := map[string]string{"vanilla": ftl.Sequential, "fd-buf": ftl.Sequential, "fd-ftl": ftl.SLCForeground,
		"fd": ftl.SLCForeground, "oracle-bg": ftl.Sequential}
	require.Len(t, ModernVariants, len(want))
	for _, v := range ModernVariants {
		c, err := platforms.Load(platforms.Options{Preset: ModernPreset, Variant: v, Sets: modernSets(v)})
		require.NoError(t, err, v)
		require.Equal(t, want[v], c.Firmware.FTL.Allocator, v)
		require.True(t, c.Firmware.FTL.SLCCache.Enabled(), v)
	}
}

// TestModernRefusesNoCache: on a preset without an SLC cache the section has no fast pages
// to compare and says so before running anything.
func TestModernRefusesNoCache(t *testing.T) {
	_, err := RunModern(Options{Preset: "fastdrain-tlc"})
	require.ErrorContains(t, err, `figures --only modern: preset "fastdrain-tlc" has no SLC cache (firmware.ftl.slc_cache)`)
}
