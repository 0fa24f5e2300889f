package runner

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/pagecache"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestHighSetTime: the high set is in force from a switch to it until the next switch back,
// counted only inside the measured window [10 s, 20 s). Switches at 5 s (high; before the
// window, so the window starts in the high set), 12 s (low), 15 s (high), 18 s (low), 19 s
// (high, to the end): 2 + 3 + 1 = 6 s. With no switch the low set is in force throughout.
func TestHighSetTime(t *testing.T) {
	s := sim.Second
	sw := []pagecache.RatioSwitch{{At: 5 * s, High: true}, {At: 12 * s}, {At: 15 * s, High: true}, {At: 18 * s},
		{At: 19 * s, High: true}}
	require.Equal(t, 6*s, highSetTime(sw, 10*s, 20*s))
	require.Zero(t, highSetTime(nil, 10*s, 20*s))
	require.Equal(t, 8*s, highSetTime(sw[:1], 12*s, 20*s))
}
