package platforms

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestBuildTinySSD(t *testing.T) {
	c, err := Load(Options{Preset: "tiny", Variant: "fd"})
	require.NoError(t, err)
	eng := sim.NewEngine()
	s, err := BuildSSD(eng, c, nvmectrl.NewHostMemory())
	require.NoError(t, err)
	require.Len(t, s.Channels, 2)
	require.Equal(t, "ssd.ch[1].die[1]", s.Channels[1].Die(1).Name())
	// Preconditioned to half the logical space: every page below the fill point is mapped.
	fw := s.FW
	half := fw.LogicalPages() / 2
	require.NoError(t, fw.FTL().Check())
	for lpn := int64(0); lpn < fw.LogicalPages(); lpn++ {
		require.Equal(t, lpn < half, fw.FTL().Lookup(lpn) != ftl.NoUnit, "lpn %d", lpn)
	}
	// 2 link directions + 4 cores + DRAM bus + 2 channel buses + 4 dies.
	require.Len(t, s.Resources(), 2+4+1+2+4)
	eng.Close()
}

// TestBuildTinyWithFactoryBad: tiny (4 dies × 2 planes × 32 blocks) with 2 factory bad
// blocks a die builds, preconditions half its logical space through the allocator (the
// closed form places blocks by index) with no page on a bad block, and its FTL holds
// exactly 4 × 2 = 8 bad blocks; the die names a scripted fault would use are the ones
// BuildSSD gives.
func TestBuildTinyWithFactoryBad(t *testing.T) {
	c, err := Load(Options{Preset: "tiny", Variant: "fd", Sets: []string{"flash.die.faults.factory_bad=2", "flash.die.faults.seed=9"}})
	require.NoError(t, err)
	eng := sim.NewEngine()
	defer eng.Close()
	s, err := BuildSSD(eng, c, nvmectrl.NewHostMemory())
	require.NoError(t, err)
	fl := s.FW.FTL()
	require.Equal(t, 8, fl.BadBlocks())
	require.Equal(t, int64(8), s.FW.FaultStats().FactoryBad)
	require.NoError(t, fl.Check())
	g := fl.Geometry()
	half := s.FW.LogicalPages() / 2
	for lpn := int64(0); lpn < s.FW.LogicalPages(); lpn++ {
		p := fl.Lookup(lpn)
		require.Equal(t, lpn < half, p != ftl.NoUnit, "lpn %d", lpn)
		if p != ftl.NoUnit {
			require.False(t, fl.IsBad(g.BlockOf(fl.PageOf(p))), "lpn %d on a bad block", lpn)
		}
	}
	for ci, ch := range s.Channels {
		for d := 0; d < ch.NumDies(); d++ {
			for _, a := range ch.Die(d).FactoryBad() {
				require.Zero(t, ch.Die(d).NextPage(a.Plane, a.Block), "ch %d die %d %v", ci, d, a)
			}
		}
	}
}
