package powercut

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParsePLP: on, off and both (protected first); anything else is refused.
func TestParsePLP(t *testing.T) {
	for s, want := range map[string][]bool{"on": {true}, "off": {false}, "both": {true, false}} {
		got, ok := ParsePLP(s)
		require.True(t, ok, s)
		require.Equal(t, want, got, s)
	}
	_, ok := ParsePLP("yes")
	require.False(t, ok)
}
