package platforms

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGeometryLimits: what the firmware would refuse at build on the whole geometry is
// reported by validation, with the field path (issue 22, item 10). By hand:
//   - fastdrain-small with 524,288 blocks a plane: 16 dies × 524,288 × 512 pages = 2³²
//     pages, which 32-bit page numbers cannot hold;
//   - tiny with gc_threshold 40: its planes have 32 blocks;
//   - tiny with over_provisioning 0.9999999: 16,384 × 10⁻⁷ < 1 logical page.
func TestGeometryLimits(t *testing.T) {
	cases := []struct {
		preset string
		set    string
		want   string
	}{
		{"fastdrain-small", "flash.die.blocks_per_plane=524288",
			"flash: 4294967296 physical pages do not fit 32-bit page numbers (4 channels × 4 dies × 1 planes × 524288 blocks × 512 pages)"},
		{"tiny", "firmware.ftl.gc_threshold=40", "firmware.ftl.gc_threshold: 40 must be below the 32 blocks of a plane"},
		{"tiny", "firmware.ftl.over_provisioning=0.9999999",
			"firmware.ftl.over_provisioning: 0.9999999 leaves 0 logical pages of the 16384 physical ones"},
	}
	for _, c := range cases {
		_, err := Load(Options{Preset: c.preset, Sets: []string{c.set}})
		require.ErrorContains(t, err, c.want, c.set)
	}
}
