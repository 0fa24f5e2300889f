package runner

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
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

// TestEngagementTable: compare's engagement row carries each counter of issue 31 item 5
// from the run's statistics: hinted writes sent / received / acted on 120 / 118 / 40; 30 % of
// the run in foreground eviction; 900 of 1,000 foreground writes on LSB pages (90.0 %); 7
// above-high completions; 480 / 2 background pages to idle / busy dies; 50 / 5 reads behind
// flash work / a background program; 3 read suspends; 4 ratio switches, 12.5 % in the high set.
func TestEngagementTable(t *testing.T) {
	sn := Statistics.NewSnapshot()
	for _, v := range []struct {
		s *sim.Stat
		v float64
	}{{StatHintedSent, 120}, {firmware.StatHintedWrites, 118}, {firmware.StatHintActedOn, 40}, {StatForegroundShare, 0.3},
		{ftl.StatForegroundWrites, 1000}, {ftl.StatForegroundLSB, 900}, {firmware.StatAboveHigh, 7},
		{firmware.StatBackgroundIdle, 480}, {firmware.StatBackgroundBusy, 2}, {firmware.StatReadsBehindArray, 50},
		{firmware.StatReadsBehindBackground, 5}, {firmware.StatReadSuspends, 3}, {pagecache.StatRatioSwitches, 4},
		{StatHighSetShare, 0.125}} {
		sn.Put(v.s, v.v)
	}
	r := &Result{Stats: sn}
	tab := EngagementTable([]string{"db-s"}, []string{"fd"}, func(string, string) Cell { return Cell{Result: r} })
	require.Equal(t, [][]string{{"db-s", "fd", "120 / 118 / 40", "30.0%", "90.0%", "7", "480 / 2", "50 / 5", "3", "4", "12.5%"}}, tab.Text().Rows)
	num := tab.Numbers()
	require.Equal(t, []string{"app", "variant", "hinted_writes_sent", "hinted_writes_received", "hinted_writes_acted_on"}, num.Header[:5])
	require.Equal(t, []string{"db-s", "fd", "120", "118", "40"}, num.Rows[0][:5])
}
