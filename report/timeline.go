package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Timeline records every busy interval of a set of resources inside a time window and
// writes them in the Chrome/Perfetto trace-event JSON format (load it in ui.perfetto.dev or
// chrome://tracing): one track per resource, grouped into processes by the first component
// of the resource name (ssd.ch[2].die[1] → process "ssd", track "ch[2].die[1]").
type Timeline struct {
	From, To  sim.Time
	MaxEvents int // recording stops after this many intervals (0 = 2,000,000)
	tracks    []*sim.Resource
	events    []tlEvent
	Dropped   int64 // intervals not recorded because MaxEvents was reached
}

type tlEvent struct {
	track      int32
	act        sim.Activity
	start, end sim.Time
}

// NewTimeline returns a timeline for the window [from, to).
func NewTimeline(from, to sim.Time) *Timeline { return &Timeline{From: from, To: to} }

// Attach hooks the timeline to resources. Attach before the run starts.
func (tl *Timeline) Attach(rs ...*sim.Resource) {
	limit := tl.MaxEvents
	if limit == 0 {
		limit = 2_000_000
	}
	for _, r := range rs {
		idx := int32(len(tl.tracks))
		tl.tracks = append(tl.tracks, r)
		r.SetHook(func(_ *sim.Resource, act sim.Activity, start, end sim.Time) {
			if end <= tl.From || start >= tl.To {
				return
			}
			if len(tl.events) >= limit {
				tl.Dropped++
				return
			}
			tl.events = append(tl.events, tlEvent{idx, act, max(start, tl.From), min(end, tl.To)})
		})
	}
}

// Len returns the number of recorded intervals.
func (tl *Timeline) Len() int { return len(tl.events) }

// WriteJSON writes the trace-event JSON. Times are in microseconds with picosecond
// precision (six decimals), as the format expects.
func (tl *Timeline) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriter(w)
	pids := map[string]int{}
	var procs []string
	pidOf := func(name string) (int, string) {
		proc, track, ok := strings.Cut(name, ".")
		if !ok {
			proc, track = name, name
		}
		if _, seen := pids[proc]; !seen {
			pids[proc] = len(procs) + 1
			procs = append(procs, proc)
		}
		return pids[proc], track
	}
	bw.WriteString(`{"displayTimeUnit":"ns","traceEvents":[`)
	first := true
	sep := func() {
		if !first {
			bw.WriteString(",\n")
		}
		first = false
	}
	for i, r := range tl.tracks {
		pid, track := pidOf(r.Name())
		sep()
		fmt.Fprintf(bw, `{"ph":"M","name":"thread_name","pid":%d,"tid":%d,"args":{"name":%s}}`, pid, i+1, strconv.Quote(track))
	}
	for _, p := range procs {
		sep()
		fmt.Fprintf(bw, `{"ph":"M","name":"process_name","pid":%d,"args":{"name":%s}}`, pids[p], strconv.Quote(p))
	}
	for _, e := range tl.events {
		r := tl.tracks[e.track]
		pid, _ := pidOf(r.Name())
		sep()
		fmt.Fprintf(bw, `{"ph":"X","name":%s,"pid":%d,"tid":%d,"ts":%s,"dur":%s}`,
			strconv.Quote(r.Activities()[e.act]), pid, e.track+1, micros(e.start), micros(e.end-e.start))
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

// micros formats picoseconds as microseconds with six decimals, exactly.
func micros(t sim.Time) string {
	return fmt.Sprintf("%d.%06d", int64(t)/1_000_000, int64(t)%1_000_000)
}
