package platforms

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDiff: one --set on the same preset is the one difference, at its path, with both
// values; a configuration against itself has none.
func TestDiff(t *testing.T) {
	a, err := Load(Options{Preset: "tiny"})
	require.NoError(t, err)
	want := a.Flash.Channels + 1
	b, err := Load(Options{Preset: "tiny", Sets: []string{"flash.channels=" + strconv.Itoa(want)}})
	require.NoError(t, err)
	cs, err := Diff(a, b)
	require.NoError(t, err)
	require.Equal(t, []Change{{Path: "flash.channels", A: strconv.Itoa(a.Flash.Channels), B: strconv.Itoa(want)}}, cs)
	cs, err = Diff(a, a)
	require.NoError(t, err)
	require.Empty(t, cs)
}
