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

// TestRunningLossTinyMSB: on tiny (2D TLC, 64-page blocks, precondition off), block 3 of
// plane 0 on the second die of channel 0 (the firmware's die 0·2 + 1 = 1) is programmed up to page 29 and page 30 (MSB word line 6) starts. A cut
// now would destroy LSB page 8, CSB page 22 and page 30 of that block
// (die.TestCutDuringMSB30TinyBlock): PPN ((1·2 + 0)·32 + 3)·64 + p = 4,288 + p, so 4,296,
// 4,310, 4,318. RunningLoss reports them without touching the die, and CutFlash then loses
// exactly them.
func TestRunningLossTinyMSB(t *testing.T) {
	c, err := Load(Options{Preset: "tiny", Sets: []string{"firmware.power_loss.enabled=true", "precondition.fill=0"}})
	require.NoError(t, err)
	m, err := Build(c)
	require.NoError(t, err)
	defer m.Eng.Close()
	d := m.SSD.Channels[0].Die(1)
	now := m.Eng.Now()
	for p := range 30 {
		now = d.Program(now, []die.Addr{{Plane: 0, Block: 3, Page: p}}, []uint64{uint64(100 + p)})
		require.True(t, d.Complete(now))
	}
	d.Program(now, []die.Addr{{Plane: 0, Block: 3, Page: 30}}, []uint64{130})
	m.Eng.RunUntil(now + 1)
	want := []ftl.PPN{4296, 4310, 4318}
	require.Equal(t, want, m.RunningLoss())
	require.Equal(t, 31, d.NextPage(0, 3))
	require.NoError(t, m.SSD.FW.PowerCut())
	m.Eng.RunUntil(now + 2)
	lost, err := m.CutFlash()
	require.NoError(t, err)
	require.Equal(t, want, lost)
}
