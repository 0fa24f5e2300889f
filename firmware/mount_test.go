package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// powerOnRig builds the rig of old's kind again (finalRig, the control reuse set as asked)
// on old's dies, after old's firmware stopped and its dies took the cut, and mounts it on
// rec: the next power-on (platforms.PowerOn on the real machine).
func powerOnRig(t *testing.T, old *rig, rec *Recovery, reuse bool) (*rig, ftl.MountReport) {
	t.Helper()
	r := finalRig(t, old.fw.spec.PowerLossProtection, false, nil, old.fw.geo.PagesPerBlock)
	r.fw.spec.PowerLoss.Controls.ReuseOpenBlock = reuse
	for d := range r.fw.geo.Dies() {
		require.NoError(t, r.die(d).PowerOn(old.die(d)))
	}
	rep, err := r.fw.Mount(rec)
	require.NoError(t, err)
	return r, rep
}

// TestMountClosesPartlyWrittenBlocks works the mount of TestRecoveryCountsProvisionalPages's
// recovery out by hand. The 2-die rig (one plane of 32 blocks of 64 pages a die, 2D TLC)
// holds 18 pages after the drain: pages 0 … 8 of block 0 of each die (global blocks 0 and
// 32: ftl.Geometry numbers blocks die-major), write pointer 9, every page valid, sequence
// numbers 1 … 18, none final. Mount must:
//
//   - map all 18 logical pages where recovery found them (valid count 9 in each block);
//   - close both blocks: next page 64, 64 − 9 = 55 pages abandoned each, 110 in all,
//     wasted until erase but outside the skip region (the FTL's invariants hold, and the
//     flash is behind the FTL only by those trailing wasted pages);
//   - leave every other block free: 31 free blocks a die;
//   - go on with sequence number 19.
//
// Then one write of logical page 0 (version 2) and a second cut with protection: the
// drain programs it to a fresh block, page 0 of local block 1 (the FIFO free list's next),
// never to page 9 of block 0, after which that block's next programs would put the pages
// written before the first cut at risk again (SimpleSSD's TLC shadow order, die.Spec.WordLine:
// page 9 is the LSB page of word line 7, page 10 the CSB page of word line 2 over page 2,
// page 12 the MSB page of word line 0 over pages 0 and 6). The second recovery maps page 0 to the new copy
// (sequence 19 beats 1) and the 17 others where they were. With the control
// reuse_open_block, block 0 of each die is the sequential allocator's write point again and
// the write lands on page 9 of block 0.
func TestMountClosesPartlyWrittenBlocks(t *testing.T) {
	for _, reuse := range []bool{false, true} {
		r := finalRig(t, true, false, nil, 64)
		spawnWritesThenCut(t, r, 18)
		r.eng.Run()
		for d := range 2 {
			require.Empty(t, r.die(d).Cut(r.fw.PowerLossReport().Off))
		}
		rec, err := r.fw.Recover()
		require.NoError(t, err)
		r2, rep := powerOnRig(t, r, rec, reuse)
		f := r2.fw
		g := f.geo
		if reuse {
			require.Equal(t, ftl.MountReport{Written: 2, Resumed: 2, Mapped: 18}, rep)
		} else {
			require.Equal(t, ftl.MountReport{Written: 2, Closed: 2, Abandoned: 110, Mapped: 18}, rep)
		}
		for _, b := range []ftl.BlockID{0, 32} {
			require.Equal(t, 9, f.ftl.ValidCount(b))
			if reuse {
				require.Equal(t, 9, f.ftl.NextPage(b))
			} else {
				require.Equal(t, 64, f.ftl.NextPage(b))
			}
		}
		for d := range 2 {
			require.Equal(t, 31, f.ftl.FreeBlocks(d, 0))
		}
		require.NoError(t, f.ftl.Check())
		require.NoError(t, f.ftl.CheckProgrammed(func(b ftl.BlockID) int {
			d, _, blk := g.BlockAddr(b)
			return r2.die(d).NextPage(0, blk)
		}))
		require.Equal(t, uint64(18), f.pl.seq)
		for lpn := range int64(18) {
			require.Equal(t, Stamp(lpn, 1), r2.readFlash(f.ftl.Lookup(lpn)), "logical page %d after the mount", lpn)
		}
		r2.eng.Spawn("host", func(p *sim.Proc) {
			got := make([]uint64, 18)
			require.Equal(t, nvme.StatusSuccess, r2.cmd(p, nvme.OpRead, 0, 18, nvme.Hint{}, got).status)
			for lpn := range int64(18) {
				require.Equal(t, Stamp(lpn, 1), got[lpn], "read of logical page %d after the mount", lpn)
			}
			require.Equal(t, nvme.StatusSuccess, r2.cmd(p, nvme.OpWrite, 0, 1, nvme.Hint{}, []uint64{Stamp(0, 2)}).status)
			require.NoError(t, f.PowerCut())
		})
		r2.eng.Run()
		require.True(t, f.PowerLossReport().Drained)
		u := f.ftl.Lookup(0)
		_, _, blk := g.BlockAddr(g.BlockOf(g.PageOf(u)))
		if reuse {
			require.Equal(t, [2]int{0, 9}, [2]int{blk, int(g.PageOf(u) - g.FirstPage(g.BlockOf(g.PageOf(u))))}, "the control resumes block 0 at its write pointer")
		} else {
			require.Equal(t, [2]int{1, 0}, [2]int{blk, int(g.PageOf(u) - g.FirstPage(g.BlockOf(g.PageOf(u))))}, "a fresh block")
		}
		rec2, err := f.Recover()
		require.NoError(t, err)
		require.Equal(t, u, rec2.Map[0])
		require.Equal(t, Stamp(0, 2), r2.readFlash(rec2.Map[0]))
		_, seq, _ := StampParts(f.pl.oob[u])
		require.Equal(t, uint64(19), seq)
		for lpn := int64(1); lpn < 18; lpn++ {
			require.Equal(t, Stamp(lpn, 1), r2.readFlash(rec2.Map[lpn]))
		}
	}
}
