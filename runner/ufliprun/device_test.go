package ufliprun

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDevicesOpen: a simulated device's namespace has 512-byte LBAs (uFLIP's smallest IO)
// unless --set chooses, the preset's own being 4 KiB; a preset named twice is refused and a
// bad --vs preset is named as --vs, with every device opened before it closed.
func TestDevicesOpen(t *testing.T) {
	devs, err := Devices{Preset: "tiny", Vs: []string{"fastdrain-small"}}.Open()
	require.NoError(t, err)
	require.Len(t, devs, 2)
	for _, d := range devs {
		require.Equal(t, 512, d.M.Config.NVMe.LBASize, d.Name)
		d.Close()
	}
	require.Equal(t, []string{"tiny", "fastdrain-small"}, []string{devs[0].Name, devs[1].Name})

	devs, err = Devices{Preset: "tiny", Sets: []string{"nvme.lba_size=4096"}}.Open()
	require.NoError(t, err)
	require.Equal(t, 4096, devs[0].M.Config.NVMe.LBASize)
	devs[0].Close()

	_, err = Devices{Preset: "tiny", Vs: []string{"tiny"}}.Open()
	require.EqualError(t, err, "--vs: tiny is already one of the devices")
	_, err = Devices{Preset: "tiny", Vs: []string{"nope"}}.Open()
	require.ErrorContains(t, err, "--vs nope: ")
	_, err = Devices{Preset: "nope"}.Open()
	require.NotContains(t, err.Error(), "--vs")
}
