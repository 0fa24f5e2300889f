package platforms

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
)

// TestCutFlashLosesLatchedWordLine: on tiny made one-shot TLC (66-page blocks: 22 word
// lines of 3 pages), pages 0 and 1 of block 5 on plane 1 of the first die of channel 1
// (the firmware's die 1·2 + 0 = 2) are loaded into the page registers and the power is
// cut before word line 0's MSB (page 2) arrives: exactly those two pages are lost, at
// PPN ((2·2 + 1)·32 + 5)·66 = 10,890 and 10,891, and the die's block is erased again.
func TestCutFlashLosesLatchedWordLine(t *testing.T) {
	c, err := Load(Options{Preset: "tiny", Sets: []string{"flash.die.scheme=one-shot", "flash.die.pages_per_block=66", "firmware.ftl.lsb_only_pages=132",
		"firmware.power_loss.enabled=true", "precondition.fill=0"}})
	require.NoError(t, err)
	m, err := Build(c)
	require.NoError(t, err)
	defer m.Eng.Close()
	d := m.SSD.Channels[1].Die(0)
	for p := range 2 {
		end := d.Program(0, []die.Addr{{Plane: 1, Block: 5, Page: p}}, []uint64{uint64(100 + p)})
		require.Zero(t, end, "a latched page starts no program")
	}
	require.Equal(t, 2, d.NextPage(1, 5))
	require.NoError(t, m.SSD.FW.PowerCut()) // without protection the firmware stops at once
	lost, err := m.CutFlash()
	require.NoError(t, err)
	require.Equal(t, []ftl.PPN{10890, 10891}, lost)
	require.Equal(t, 0, d.NextPage(1, 5))
	_, err = m.SSD.FW.Recover()
	require.NoError(t, err)
}
