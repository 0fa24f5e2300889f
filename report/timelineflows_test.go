package report

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestTimelineSpansAndFlows(t *testing.T) {
	die := sim.NewResource("ssd.ch[0].die[0]", "read")
	bus := sim.NewResource("ssd.ch[0]", "data-out")
	tl := NewTimeline(10*sim.Microsecond, 100*sim.Microsecond)
	tl.Attach(die, bus)

	// A command before the window (0 … 5 µs) is let go when it ends: its slot is reused
	// by the next one, and a flow that still names the old id is dropped.
	old := tl.StartSpan("ssd.nvme.slot[0]", 0, "Read sq 1 cid 7")
	require.NotZero(t, old)
	tl.EndSpan(old, 5*sim.Microsecond)
	require.Equal(t, 0, tl.Spans())

	// Read cid 3 on slot 0 from 20 µs to 90 µs: its sense (die, 30 … 80 µs) and data-out
	// (bus, 80 … 85 µs), both asked for at 21 µs.
	rd := tl.StartSpan("ssd.nvme.slot[0]", 20*sim.Microsecond, "Read sq 1 cid 3")
	require.NotEqual(t, old, rd, "the reused slot has a new generation")
	die.Occupy(30*sim.Microsecond, 80*sim.Microsecond, die.Activity("read"))
	bus.Occupy(80*sim.Microsecond, 85*sim.Microsecond, bus.Activity("data-out"))
	tl.Flow(rd, 21*sim.Microsecond, die, 80*sim.Microsecond-1)
	tl.Flow(rd, 21*sim.Microsecond, bus, 85*sim.Microsecond-1)
	tl.Flow(old, 21*sim.Microsecond, die, 50*sim.Microsecond) // stale id: dropped
	tl.Flow(rd, 5*sim.Microsecond, die, 50*sim.Microsecond)   // cause before the window: dropped
	tl.Flow(rd, 21*sim.Microsecond, die, 200*sim.Microsecond) // target after the window: dropped
	tl.EndSpan(rd, 90*sim.Microsecond)
	// A write still running at the window's end (95 µs on): its span lasts to 100 µs.
	wr := tl.StartSpan("ssd.nvme.slot[1]", 95*sim.Microsecond, "Write sq 1 cid 4")
	require.Zero(t, tl.StartSpan("ssd.nvme.slot[2]", 100*sim.Microsecond, "after"), "starts at the window's end")
	require.NotZero(t, wr)
	require.Equal(t, 2, tl.Spans())
	require.Equal(t, 2, tl.Flows())

	type ev struct {
		ph, name string
		tid      int
		ts       string
		id       int // flows
	}
	var got []ev
	tracks := map[int]string{}
	for _, e := range events(t, tl) {
		ph := e["ph"].(string)
		if ph == "M" {
			if e["name"] == "thread_name" {
				tracks[int(e["tid"].(float64))] = e["args"].(map[string]any)["name"].(string)
			}
			continue
		}
		x := ev{ph, e["name"].(string), int(e["tid"].(float64)), fmtNum(e["ts"]), 0}
		if ph == "X" {
			x.ts += "+" + fmtNum(e["dur"])
		}
		if ph == "s" || ph == "f" {
			require.Equal(t, "flow", e["cat"])
			x.id = int(e["id"].(float64))
			require.Equal(t, ph == "f", e["bp"] == "e", "a flow's end binds to its enclosing slice")
		}
		got = append(got, x)
	}
	require.Equal(t, map[int]string{1: "ch[0].die[0]", 2: "ch[0]", 3: "nvme.slot[0]", 4: "nvme.slot[1]"}, tracks)
	// Times in µs: the die's and bus's slices, the two spans (the write's clipped to
	// 95 … 100), then each flow: "s" on slot 0 at the cause (21 µs), "f" 1 ps (0.000001 µs)
	// before the end of the slice it ends on.
	require.Equal(t, []ev{
		{"X", "read", 1, "30+50", 0}, {"X", "data-out", 2, "80+5", 0},
		{"X", "Read sq 1 cid 3", 3, "20+70", 0}, {"X", "Write sq 1 cid 4", 4, "95+5", 0},
		{"s", "Read sq 1 cid 3", 3, "21", 1}, {"f", "Read sq 1 cid 3", 1, "79.999999", 1},
		{"s", "Read sq 1 cid 3", 3, "21", 2}, {"f", "Read sq 1 cid 3", 2, "84.999999", 2},
	}, got)
}

func TestTimelineFlowsFollowFilterAndCap(t *testing.T) {
	die := sim.NewResource("ssd.ch[0].die[0]", "read")
	dram := sim.NewResource("ssd.dram.bus", "write")
	// -dram drops the DRAM track, so a flow ending there is dropped; a span track the
	// filter drops gives id 0 and no flows.
	tl := NewTimeline(0, sim.Millisecond)
	tl.Tracks = []string{"-dram", "-slot[1]"}
	tl.Attach(die, dram)
	id := tl.StartSpan("ssd.nvme.slot[0]", 0, "Write sq 1 cid 0")
	require.Zero(t, tl.StartSpan("ssd.nvme.slot[1]", 0, "Write sq 1 cid 1"))
	tl.Flow(id, 1, dram, 10)
	require.Equal(t, 0, tl.Flows())

	// MaxEvents 3: one interval, one span and one flow fill it; the next flow is dropped
	// and counted, at its target time.
	tl = NewTimeline(0, sim.Millisecond)
	tl.MaxEvents = 3
	tl.Attach(die)
	id = tl.StartSpan("ssd.nvme.slot[0]", 0, "Read sq 1 cid 0")
	die.Occupy(100, 200, die.Activity("read"))
	tl.Flow(id, 1, die, 150)
	tl.Flow(id, 1, die, 199)
	require.Equal(t, 1, tl.Len())
	require.Equal(t, 1, tl.Spans())
	require.Equal(t, 1, tl.Flows())
	require.Equal(t, int64(1), tl.Dropped)
	require.Equal(t, sim.Time(199), tl.TruncatedAt)
}

func TestTimelineFlowNeedsARecordedInterval(t *testing.T) {
	// A flow whose end falls in an activity the timeline skips, or in no interval at all,
	// has no slice to bind to and is not written; one inside a recorded interval is.
	die := sim.NewResource("ssd.ch[0].die[0]", "read", "retry")
	tl := NewTimeline(0, sim.Millisecond)
	tl.Skip = []string{"retry"}
	tl.Attach(die)
	id := tl.StartSpan("ssd.nvme.slot[0]", 0, "Read sq 1 cid 0")
	die.Occupy(100, 200, die.Activity("read"))
	die.Occupy(200, 300, die.Activity("retry"))
	tl.Flow(id, 1, die, 199) // inside the read [100, 200)
	tl.Flow(id, 1, die, 250) // inside the skipped retry
	tl.Flow(id, 1, die, 300) // after every interval
	tl.Flow(id, 1, die, 99)  // before every interval
	tl.EndSpan(id, 400)
	var ends []string
	for _, e := range events(t, tl) {
		if e["ph"] == "f" {
			ends = append(ends, fmtNum(e["ts"]))
		}
	}
	require.Equal(t, []string{"0.000199"}, ends)
}
