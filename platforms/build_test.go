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
		require.Equal(t, lpn < half, fw.FTL().Lookup(lpn) != ftl.NoPage, "lpn %d", lpn)
	}
	// 2 link directions + 4 cores + DRAM bus + 2 channel buses + 4 dies.
	require.Len(t, s.Resources(), 2+4+1+2+4)
	eng.Close()
}
