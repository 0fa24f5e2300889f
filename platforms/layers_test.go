package platforms

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLoadLayers: a layer in memory applies after the files and before --set, as a file
// would (tiny has 2 channels; the layer gives 4, --set 8 wins), and its errors name it.
func TestLoadLayers(t *testing.T) {
	layer := Source{Name: "imported.yaml", Data: []byte("flash:\n  channels: 4\n")}
	c, err := Load(Options{Preset: "tiny", Layers: []Source{layer}})
	require.NoError(t, err)
	require.Equal(t, 4, c.Flash.Channels)
	c, err = Load(Options{Preset: "tiny", Layers: []Source{layer}, Sets: []string{"flash.channels=8"}})
	require.NoError(t, err)
	require.Equal(t, 8, c.Flash.Channels)
	_, err = Load(Options{Preset: "tiny", Layers: []Source{{Name: "imported.yaml", Data: []byte("flash:\n  chanels: 4\n")}}})
	require.ErrorContains(t, err, "imported.yaml")
	require.ErrorContains(t, err, "chanels")
}
