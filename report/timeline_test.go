package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestTimelineIsTraceEventJSON(t *testing.T) {
	die := sim.NewResource("ssd.ch[0].die[1]", "program-msb")
	bus := sim.NewResource("ssd.ch[0]", "data-in")
	tl := NewTimeline(0, 10*sim.Millisecond)
	tl.Attach(bus, die)
	bus.Occupy(0, 49_201_202, bus.Activity("data-in"))
	die.Occupy(49_201_202, 49_201_202+5001*sim.Microsecond, die.Activity("program-msb"))
	die.Occupy(20*sim.Millisecond, 21*sim.Millisecond, die.Activity("program-msb")) // outside the window
	var b bytes.Buffer
	require.NoError(t, tl.WriteJSON(&b))
	var doc struct {
		TraceEvents []struct {
			Ph   string          `json:"ph"`
			Name string          `json:"name"`
			Pid  int             `json:"pid"`
			Tid  int             `json:"tid"`
			Ts   json.Number     `json:"ts"`
			Dur  json.Number     `json:"dur"`
			Args json.RawMessage `json:"args"`
		} `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
	var xs []string
	for _, e := range doc.TraceEvents {
		if e.Ph == "X" {
			xs = append(xs, e.Name+"@"+string(e.Ts)+"+"+string(e.Dur))
		}
	}
	// 49,201,202 ps = 49.201202 µs; 5001 µs.
	require.Equal(t, []string{"data-in@0.000000+49.201202", "program-msb@49.201202+5001.000000"}, xs)
	require.Equal(t, 2, tl.Len())
}
