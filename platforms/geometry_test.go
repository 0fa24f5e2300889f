package platforms

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGeometryLimits: what the firmware would refuse at build on the whole geometry is
// reported by validation, with the field path (issue 22, item 10). By hand:
//   - fastdrain-small with 524,288 blocks a plane: 16 dies × 524,288 × 512 pages = 2³²
//     pages, which 32-bit page numbers cannot hold;
//   - tiny with gc_threshold 40: its planes have 32 blocks;
//   - tiny with over_provisioning 0.9999999: 16,384 × 10⁻⁷ < 1 logical page;
//   - host queue pairs the controller cannot hold, and more block-layer tags than the block
//     layer allows (hostos.New gives it the driver's).
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
		// 12,288 logical pages × (1 + 1) = 24,576 writes; 16,384 − (3 + 1 + 1) × 8 planes × 64
		// = 13,824 pages of room (tiny: GC threshold 3, a two-block LSB-only region).
		{"tiny", "precondition.fill=1 precondition.overwrite=1",
			"precondition.fill (1) and precondition.overwrite (1): 24576 page writes need more than the 13824 pages outside the GC reserve"},
		// 100 queue pairs on a controller of 64 I/O queues and 65 vectors.
		{"tiny", "host.nvme.queues=100",
			"host.nvme.queues: 100 queue pairs need 100 I/O queues and 101 interrupt vectors; nvme.max_io_queues is 64 and nvme.vectors 65"},
		// 16 queue pairs × (2,048 − 1) tags = 32,752, past the block layer's 10,240.
		{"tiny", "host.nvme.queues=16 host.nvme.queue_depth=2048",
			"host.block: with the driver's 16 queue pairs × 2047 tags (host.nvme.queues, host.nvme.queue_depth, nvme.max_queue_entries) and largest transfer 131072 B (host.nvme.max_transfer, nvme.max_transfer): blk.queue_depth: 32752 is not in 1..10240"},
	}
	for _, c := range cases {
		_, err := Load(Options{Preset: c.preset, Sets: strings.Fields(c.set)})
		require.ErrorContains(t, err, c.want, c.set)
	}
}
