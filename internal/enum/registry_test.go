package enum

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRegistry: names come back sorted whatever the registration order, a lookup returns
// the value registered under the name, and an unknown name's error lists the known ones in
// that sorted order.
func TestRegistry(t *testing.T) {
	r := NewRegistry[int]("allocator")
	r.Register("skip-to-lsb", 2)
	r.Register("latency-aware", 3)
	r.Register("sequential", 1)
	require.Equal(t, []string{"latency-aware", "sequential", "skip-to-lsb"}, r.Names())
	v, err := r.Lookup("sequential")
	require.NoError(t, err)
	require.Equal(t, 1, v)
	require.True(t, r.Has("latency-aware"))
	require.False(t, r.Has("lsb-first"))
	_, err = r.Lookup("lsb-first")
	require.EqualError(t, err, `unknown allocator "lsb-first" (known: latency-aware, sequential, skip-to-lsb)`)
	// Names returns a copy: changing it leaves the registry alone.
	n := r.Names()
	n[0] = "x"
	require.Equal(t, "latency-aware", r.Names()[0])
}

// TestRegisterMistakes: registering a name twice, an empty name or one with a space is a
// programming error and panics with the kind and the name.
func TestRegisterMistakes(t *testing.T) {
	r := NewRegistry[int]("victim policy")
	r.Register("greedy", 1)
	require.PanicsWithValue(t, `enum: victim policy "greedy" registered twice`, func() { r.Register("greedy", 2) })
	require.PanicsWithValue(t, `enum: victim policy name "" is empty or holds white space or a comma`, func() { r.Register("", 2) })
	require.Panics(t, func() { r.Register("cost benefit", 2) })
}
