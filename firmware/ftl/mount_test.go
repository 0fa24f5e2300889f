package ftl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// mountImage returns an image of g with nothing written and nothing mapped.
func mountImage(f *FTL) MountImage {
	g := f.Geometry()
	img := MountImage{Next: make([]int, g.Blocks()), Erases: make([]uint32, g.Blocks()), Map: make([]Unit, f.LogicalPages())}
	for i := range img.Map {
		img.Map[i] = NoUnit
	}
	return img
}

// TestMountWorked mounts a hand-made scan of the small geometry (2 dies × 2 planes × 8
// blocks of 16 pages; blocks numbered die-major, plane-major: block 8 is die 0 plane 1's
// first): block 0 full (16 pages) holding logical pages 0 … 9 at pages 0 … 9 (pages 10 …
// 15 superseded), block 8 written to page 5 holding logical pages 10 and 11 at pages 3
// and 4, block 17 (die 1 plane 0's second) erased 7 times and empty. By hand:
//
//   - block 0: full, valid 10, nothing abandoned; block 8: closed, next page 16, valid 2,
//     16 − 5 = 11 pages abandoned (wasted, outside the skip region); report {Written 2,
//     Closed 1, Abandoned 11, Mapped 12};
//   - free blocks: plane (0, 0) 7, (0, 1) 7, (1, 0) 8, (1, 1) 8; block 17 keeps its 7 P/E;
//   - a host write then goes to a fresh block, never to page 5 of block 8; with resume
//     (the control) block 8 stays open at page 5 as die 0 plane 1's write point.
func TestMountWorked(t *testing.T) {
	for _, resume := range []bool{false, true} {
		f := newFTL(t, small(), nil)
		g := f.Geometry()
		img := mountImage(f)
		img.Next[0], img.Next[8] = 16, 5
		img.Erases[17] = 7
		for lpn := range 10 {
			img.Map[lpn] = Unit(g.FirstPage(0) + PPN(lpn))
		}
		img.Map[10], img.Map[11] = Unit(g.FirstPage(8)+3), Unit(g.FirstPage(8)+4)
		rep, err := f.Mount(img, resume)
		require.NoError(t, err)
		require.NoError(t, f.Check())
		require.Equal(t, 10, f.ValidCount(0))
		require.Equal(t, 2, f.ValidCount(8))
		require.Equal(t, 7, f.EraseCount(17))
		require.Equal(t, 7, f.FreeBlocks(0, 0))
		require.Equal(t, 7, f.FreeBlocks(0, 1))
		require.Equal(t, 8, f.FreeBlocks(1, 0))
		require.Equal(t, 8, f.FreeBlocks(1, 1))
		require.Equal(t, Unit(g.FirstPage(8)+4), f.Lookup(11))
		if resume {
			require.Equal(t, MountReport{Written: 2, Resumed: 1, Mapped: 12}, rep)
			require.Equal(t, 5, f.NextPage(8))
		} else {
			require.Equal(t, MountReport{Written: 2, Closed: 1, Abandoned: 11, Mapped: 12}, rep)
			require.Equal(t, 16, f.NextPage(8))
			require.Equal(t, int64(11), f.Stats.WastedNow)
			require.Zero(t, f.dies[0].lsbOnly, "abandoned pages are outside the skip region")
		}
		hit := false
		for range 40 { // die 0's host writes, planes alternating
			p, err := f.WriteHost(12, 0, Background)
			require.NoError(t, err)
			hit = hit || g.BlockOf(p) == 8
		}
		require.Equal(t, resume, hit, "a write on the block the cut left partly written")
		require.NoError(t, f.Check())
	}
}

// TestMountRefusals: an image of another shape, a map to a page the scan did not find
// written, a map sharing a unit, and a second mount are errors naming what is wrong.
func TestMountRefusals(t *testing.T) {
	f := newFTL(t, small(), nil)
	img := mountImage(f)
	img.Next = img.Next[1:]
	_, err := f.Mount(img, false)
	require.ErrorContains(t, err, "mount image of 31 blocks")

	f = newFTL(t, small(), nil)
	img = mountImage(f)
	img.Next[0] = 4
	img.Map[3] = Unit(f.Geometry().FirstPage(0) + 4)
	_, err = f.Mount(img, false)
	require.EqualError(t, err, "ftl: mount image: logical page 3 maps to unit 4, which the scan did not find written")

	f = newFTL(t, small(), nil)
	img = mountImage(f)
	img.Next[0] = 4
	img.Map[3], img.Map[5] = 2, 2
	_, err = f.Mount(img, false)
	require.EqualError(t, err, "ftl: mount image: unit 2 holds two logical pages")

	f = newFTL(t, small(), nil)
	_, err = f.Mount(mountImage(f), false)
	require.NoError(t, err)
	_, err = f.WriteHost(0, 0, Background)
	require.NoError(t, err)
	_, err = f.Mount(mountImage(f), false)
	require.EqualError(t, err, "ftl: Mount needs a fresh FTL (nothing written, not preconditioned)")
}
