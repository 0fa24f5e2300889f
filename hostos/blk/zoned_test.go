package blk

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestZoneWritePlugging: zones of 64 KiB, a device taking 100 µs a request, merges on. Three
// 4 KiB writes to zone 0 at 0, 4 and 8 KiB submitted at once go down one at a time, in
// submission order, each when the one before completes (at 0, 100 and 200 µs; 2 waited in
// the plug), where without zones all three are dispatched at 0 (merged into one request by
// the scheduler's back merges: the control). A write to zone 1 at the same instant is not
// held by zone 0's plug. A 128 KiB read from 32 KiB is split at the zone boundaries into
// 32 + 64 + 32 KiB requests; two 4 KiB writes ending and starting at the 64 KiB boundary
// (zone 0's last block, zone 1's first, in different zones' plugs) are never merged. A
// zone reset goes down with no data, bypassing the scheduler.
func TestZoneWritePlugging(t *testing.T) {
	us := sim.Microsecond
	spec := DefaultSpec()
	spec.Scheduler = SchedMQDeadline
	run := func(zoned bool, bios []*Bio) []dispatched {
		eng, q, dev := newTestQueue(t, spec, fixed(100*us))
		if zoned {
			require.NoError(t, q.SetZoned(64<<10, 4))
		}
		for _, b := range bios {
			q.Submit(b)
		}
		eng.Run()
		return dev.log
	}
	w := func(off int64) *Bio { return &Bio{Op: OpWrite, Offset: off, Size: 4096} }
	log := run(true, []*Bio{w(0), w(4096), w(8192), w(64 << 10)})
	require.Equal(t, []dispatched{
		{Op: OpWrite, Offset: 0, Size: 4096, Bios: 1, At: 0},
		{Op: OpWrite, Offset: 64 << 10, Size: 4096, Bios: 1, At: 0, Tag: 1},
		{Op: OpWrite, Offset: 4096, Size: 4096, Bios: 1, At: 100 * us, Tag: 1},
		{Op: OpWrite, Offset: 8192, Size: 4096, Bios: 1, At: 200 * us, Tag: 1},
	}, log)
	ctl := run(false, []*Bio{w(0), w(4096), w(8192)})
	require.Len(t, ctl, 1, "without zones the three writes merge into one request")
	require.Equal(t, int64(12288), ctl[0].Size)

	log = run(true, []*Bio{{Op: OpRead, Offset: 32 << 10, Size: 128 << 10}, w(60 << 10), w(64 << 10)})
	var reads, writes []int64
	for _, d := range log {
		if d.Op == OpRead {
			reads = append(reads, d.Offset, d.Size)
		} else {
			writes = append(writes, d.Offset, d.Size)
		}
	}
	require.Equal(t, []int64{32 << 10, 32 << 10, 64 << 10, 64 << 10, 128 << 10, 32 << 10}, reads)
	require.Equal(t, []int64{60 << 10, 4096, 64 << 10, 4096}, writes)

	log = run(true, []*Bio{{Op: OpZoneReset, Offset: 128 << 10}})
	require.Equal(t, []dispatched{{Op: OpZoneReset, Offset: 128 << 10, Size: 0, Bios: 1, At: 0}}, log)
}
