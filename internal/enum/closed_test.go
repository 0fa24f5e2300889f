package enum

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestClosedSet: a closed set's names are its values' indexes; a value past the list
// prints with its type, a name not in it is not found.
func TestClosedSet(t *testing.T) {
	type mode uint8
	names := []string{"fast", "slow"}
	require.Equal(t, "slow", Name(names, "mode", mode(1)))
	require.Equal(t, "mode(7)", Name(names, "mode", mode(7)))
	v, ok := Parse[mode](names, "fast")
	require.True(t, ok)
	require.Equal(t, mode(0), v)
	_, ok = Parse[mode](names, "Fast")
	require.False(t, ok)
}
