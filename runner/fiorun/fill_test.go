package fiorun

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/testtier"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestWholeDriveFillEnds: a sequential fill from empty of 14 GiB of gen4-qlc's 14.88 GiB
// namespace (a P1-style whole-drive fill) completes: 14 GiB / 128 KiB = 114,688 writes.
// Before the GC task tried every plane of its die that needs GC (firmware/gc.go), it
// stalled near the end with every plane at the GC threshold: the first plane had nothing
// to reclaim, GC idled, the full SLC blocks of the die's other planes were never folded,
// and the SLC watch's tick kept the engine going with the host's writes waiting for a
// free block — simulated time ran on without end (5,370 s after 16 s of wall time) and
// the 1 ms energy trace grew by GBs. The drive writes 14 GiB in about 25 simulated seconds
// (about 600 MB/s); 60 s bounds it loosely.
func TestWholeDriveFillEnds(t *testing.T) {
	testtier.SkipUnlessLong(t, "a 14 GiB fill of gen4-qlc, about 5 s")
	m, jobs := openJob(t, platforms.Options{Preset: "gen4-qlc"}, "[fill]\nioengine=libaio\ndirect=1\nrw=write\nbs=128k\niodepth=32\nsize=14g\nfilename=/dev/nvme0n1\n")
	r, err := Run(m, jobs, Options{})
	require.NoError(t, err)
	require.Len(t, r.Results, 1)
	require.Equal(t, int64(114688), r.Results[0].Write.IOs)
	require.Less(t, r.Results[0].End, 60*sim.Second)
}
