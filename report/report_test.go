package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestUtilizationTable(t *testing.T) {
	// A channel busy 25 % with commands and 50 % with data over 1 µs; a die busy 80 % reading.
	ch := sim.NewResource("ch[0]", "command", "data-out")
	ch.Occupy(0, 250*sim.Nanosecond, ch.Activity("command"))
	ch.Occupy(250*sim.Nanosecond, 750*sim.Nanosecond, ch.Activity("data-out"))
	die := sim.NewResource("ch[0].die[0]", "read")
	die.Occupy(100*sim.Nanosecond, 900*sim.Nanosecond, die.Activity("read"))
	tab := UtilizationTable("util", []*sim.Resource{ch, die}, nil, sim.Microsecond)
	require.Equal(t, []string{"resource", "command", "data-out", "read", "busy"}, tab.Header)
	require.Equal(t, [][]string{
		{"ch[0]", "25.0%", "50.0%", "0.0%", "75.0%"},
		{"ch[0].die[0]", "0.0%", "0.0%", "80.0%", "80.0%"},
	}, tab.Rows)

	var csvOut, txt, js bytes.Buffer
	require.NoError(t, tab.WriteCSV(&csvOut))
	require.Equal(t, "resource,command,data-out,read,busy\nch[0],25.0%,50.0%,0.0%,75.0%\nch[0].die[0],0.0%,0.0%,80.0%,80.0%\n", csvOut.String())
	require.NoError(t, tab.WriteText(&txt))
	require.True(t, strings.HasPrefix(txt.String(), "util\n"))
	require.Contains(t, txt.String(), "ch[0].die[0]")
	require.NoError(t, tab.WriteJSON(&js))
	require.Contains(t, js.String(), `"title": "util"`)
	require.Panics(t, func() { tab.Append("too", "few") })
}

func TestDuration(t *testing.T) {
	cases := map[sim.Time]string{
		0:                       "0",
		912_207_346_658:         "912.2ms",
		572_522_495:             "572.5us",
		49_152_000:              "49.15us",
		13_750:                  "13.75ns",
		5_001 * sim.Microsecond: "5.001ms",
		3 * sim.Second / 2:      "1.500s",
		999:                     "999.0ps",
		-2 * sim.Millisecond:    "-2.000ms",
		12_345 * sim.Second:     "12345s",
	}
	for in, want := range cases {
		require.Equal(t, want, Duration(in), "%d ps", int64(in))
	}
}
