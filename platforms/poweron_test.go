package platforms

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/die"
)

// TestPowerOnCarriesTheFlash: on tiny (no precondition, no protection), two pages
// programmed on the first die of channel 0 (plane 0, block 2) and a cut: the machine
// powered on again has them on its die, the same block's write pointer (2) in its FTL as a
// closed block (next page 64, 62 abandoned), and a fresh engine at time 0. A BAST machine,
// and a machine whose firmware has not stopped, are refused, saying why.
func TestPowerOnCarriesTheFlash(t *testing.T) {
	c, err := Load(Options{Preset: "tiny", Sets: []string{"firmware.power_loss.enabled=true", "precondition.fill=0"}})
	require.NoError(t, err)
	m, err := Build(c)
	require.NoError(t, err)
	defer m.Eng.Close()
	_, _, err = PowerOn(c, m, nil)
	require.EqualError(t, err, "platforms: power-on of a machine whose firmware has not stopped after a cut")
	d := m.SSD.Channels[0].Die(0)
	now := d.Program(0, []die.Addr{{Plane: 0, Block: 2, Page: 0}}, []uint64{7})
	require.True(t, d.Complete(now))
	require.True(t, d.Complete(d.Program(now, []die.Addr{{Plane: 0, Block: 2, Page: 1}}, []uint64{8})))
	require.NoError(t, m.SSD.FW.PowerCut())
	_, err = m.CutFlash()
	require.NoError(t, err)
	rec, err := m.SSD.FW.Recover()
	require.NoError(t, err)
	m2, rep, err := PowerOn(c, m, rec)
	require.NoError(t, err)
	defer m2.Eng.Close()
	require.Equal(t, 1, rep.Closed)
	require.Equal(t, int64(62), rep.Abandoned)
	d2 := m2.SSD.Channels[0].Die(0)
	require.Equal(t, uint64(8), d2.Stamp(die.Addr{Plane: 0, Block: 2, Page: 1}))
	require.Equal(t, 2, d2.NextPage(0, 2))
	require.Equal(t, 64, m2.SSD.FW.FTL().NextPage(2)) // die 0 plane 0 block 2: global block 2
	require.Zero(t, m2.Eng.Now())

	c.Firmware.FTL.Mapping = "bast"
	require.EqualError(t, Mountable(c), "mounting after a power cut is not modelled with the hybrid mapping scheme (firmware.ftl.mapping bast: its data and log blocks are not rebuilt)")
}
