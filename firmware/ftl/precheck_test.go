package ftl

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPreconditionRoomAgrees: PreconditionRoom predicts exactly when Precondition refuses
// (and with Precondition's own numbers), for fills and overwrites on both sides of the
// limit, with both allocator families. By hand on small() (512 pages, 4 planes of 16-page
// blocks) with newFTL's GC threshold 2 and two-block LSB-only region (one block a plane of
// the die's two): the reserve is (2 + 1 + 1) blocks × 4 planes × 16 pages = 256 pages, so
// the room is 256; 384 logical pages at over-provisioning 0.25, fill 0.5 → 192 writes.
func TestPreconditionRoomAgrees(t *testing.T) {
	w, room := PreconditionRoom(small(), newFTL(t, small(), nil).cfg, 0.5, 0)
	require.Equal(t, int64(192), w)
	require.Equal(t, int64(256), room)
	for _, alloc := range []string{"sequential", "latency-aware"} {
		for _, fill := range []float64{0.5, 0.9, 1} {
			for _, over := range []float64{0, 0.05, 0.2, 0.5, 1} {
				f := newFTL(t, small(), func(c *Config) { c.Allocator = alloc })
				writes, room := PreconditionRoom(f.g, f.cfg, fill, over)
				err := f.Precondition(fill, over, true, 1)
				name := fmt.Sprintf("%v fill %v overwrite %v", alloc, fill, over)
				if writes > room {
					require.EqualError(t, err, fmt.Sprintf("precondition: %d writes (fill %v, overwrite %v) need more than the %d pages outside the GC reserve",
						writes, fill, over, room), name)
				} else {
					require.NoError(t, err, name)
				}
			}
		}
	}
}
