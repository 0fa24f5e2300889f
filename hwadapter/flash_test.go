package hwadapter_test

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/dram"
	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/hwadapter"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// The simulated hardware implements the firmware's ports and their capabilities.
var (
	_ firmware.FlashPort       = (*hwadapter.Flash)(nil)
	_ firmware.FlashImage      = (*hwadapter.Flash)(nil)
	_ firmware.BadBlockScanner = (*hwadapter.Flash)(nil)
	_ firmware.BufferMemory    = (*dram.DRAM)(nil)
)

// TestNewFlash: a flash port needs channels, all alike; its geometry is channels × dies of
// the channels' die (2 channels of 2 dies: 4 dies).
func TestNewFlash(t *testing.T) {
	eng := sim.NewEngine()
	defer eng.Close()
	_, err := hwadapter.NewFlash(nil)
	require.ErrorContains(t, err, "at least one channel")
	cs := channel.DefaultSpec()
	cs.Dies = 2
	a, err := channel.New(eng, "ch[0]", cs)
	require.NoError(t, err)
	b, err := channel.New(eng, "ch[1]", cs)
	require.NoError(t, err)
	fl, err := hwadapter.NewFlash([]*channel.Channel{a, b})
	require.NoError(t, err)
	g := fl.Geometry()
	require.Equal(t, 2, g.Channels)
	require.Equal(t, 4, g.Dies())
	cs.Dies = 1
	c, err := channel.New(eng, "ch[2]", cs)
	require.NoError(t, err)
	_, err = hwadapter.NewFlash([]*channel.Channel{a, c})
	require.ErrorContains(t, err, "channel 1 differs from channel 0")
}
