package report

import (
	"bytes"
	"encoding/json"
	"strconv"
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

// events parses a timeline's trace events.
func events(t *testing.T, tl *Timeline) []map[string]any {
	var b bytes.Buffer
	require.NoError(t, tl.WriteJSON(&b))
	var doc struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
	return doc.TraceEvents
}

func TestTimelineFiltersTruncatesAndCounts(t *testing.T) {
	bus := sim.NewResource("ssd.ch[0]", "data-in")
	die := sim.NewResource("ssd.ch[0].die[0]", "read")
	mem := sim.NewResource("ssd.dram", "read", "refresh")
	tl := NewTimeline(0, sim.Millisecond)
	tl.Tracks, tl.Skip, tl.MaxEvents = []string{"ssd", "-die["}, []string{"refresh"}, 3
	tl.Attach(bus, die, mem)
	require.Equal(t, 2, tl.NumTracks(), "ssd.ch[0].die[0] is excluded by -die[")
	// Five intervals on kept tracks: the refresh is skipped, so the bus's three and the
	// DRAM read fill MaxEvents = 3 after three, and the fourth (at 40 ns) starts the drop.
	bus.Occupy(0, 10_000, bus.Activity("data-in"))
	mem.Occupy(5_000, 6_000, mem.Activity("refresh"))
	bus.Occupy(20_000, 30_000, bus.Activity("data-in"))
	mem.Occupy(30_000, 35_000, mem.Activity("read"))
	bus.Occupy(40_000, 50_000, bus.Activity("data-in"))
	mem.Occupy(60_000, 70_000, mem.Activity("read"))
	die.Occupy(0, 1_000, die.Activity("read"))
	require.Equal(t, 3, tl.Len())
	require.Equal(t, int64(2), tl.Dropped)
	require.Equal(t, sim.Time(40_000), tl.TruncatedAt)
	s := &sim.Series{Name: "buffer.occupancy", Samples: []sim.Sample{{At: 0, Value: 7}, {At: 500 * sim.Microsecond, Value: 9}, {At: 2 * sim.Millisecond, Value: 1}}}
	tl.AddCounters(s)
	var marks, counters []string
	for _, e := range events(t, tl) {
		switch e["ph"] {
		case "i":
			marks = append(marks, e["name"].(string)+"@"+fmtNum(e["ts"]))
		case "C":
			counters = append(counters, e["name"].(string)+"@"+fmtNum(e["ts"])+"="+fmtNum(e["args"].(map[string]any)["value"]))
		}
	}
	// 40,000 ps = 0.04 µs; the third sample is outside the 1 ms window.
	require.Equal(t, []string{"timeline truncated: 2 more intervals after this point were not recorded (MaxEvents 3)@0.04"}, marks)
	require.Equal(t, []string{"buffer.occupancy@0=7", "buffer.occupancy@500=9"}, counters)
}

func fmtNum(v any) string { return strconv.FormatFloat(v.(float64), 'g', -1, 64) }
