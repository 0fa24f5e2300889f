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
//
// A timeline can be limited to some tracks (Tracks), skip some activities (Skip, e.g. DRAM
// "refresh", which is otherwise about half of a DRAM track's intervals), and carry counter
// tracks (AddCounters: buffer occupancy, dirty pages, queue depths sampled during the run).
// When MaxEvents is reached it stops recording, and the file says so: a global instant event
// "timeline truncated" at the first interval it dropped, and TruncatedAt/Dropped here for
// the caller's warning.
type Timeline struct {
	From, To  sim.Time
	MaxEvents int // recording stops after this many intervals (0 = 2,000,000)
	// Tracks keeps only the resources whose name contains one of these substrings (none:
	// every resource); a pattern starting with "-" excludes the names containing the rest.
	Tracks []string
	// Skip lists activity names whose intervals are not recorded.
	Skip     []string
	tracks   []*sim.Resource
	trackOf  map[*sim.Resource]int32 // index in tracks
	skip     [][]bool                // per track, per activity: skipped
	events   []tlEvent
	counters []*sim.Series
	spans    spanTracks // slices of tracks of their own and the flow arrows between them (timelineflows.go)
	Dropped  int64      // intervals not recorded because MaxEvents was reached
	// TruncatedAt is the start of the first interval dropped (valid when Dropped > 0).
	TruncatedAt sim.Time
}

type tlEvent struct {
	track      int32
	act        sim.Activity
	start, end sim.Time
}

// NewTimeline returns a timeline for the window [from, to).
func NewTimeline(from, to sim.Time) *Timeline { return &Timeline{From: from, To: to} }

// Attach hooks the timeline to the resources its Tracks filter keeps. Attach before the
// run starts.
func (tl *Timeline) Attach(rs ...*sim.Resource) {
	if tl.trackOf == nil {
		tl.trackOf = map[*sim.Resource]int32{}
	}
	for _, r := range rs {
		if !tl.keeps(r.Name()) {
			continue
		}
		idx := int32(len(tl.tracks))
		tl.tracks = append(tl.tracks, r)
		tl.trackOf[r] = idx
		acts := r.Activities()
		skip := make([]bool, len(acts))
		for i, a := range acts {
			for _, s := range tl.Skip {
				skip[i] = skip[i] || a == s
			}
		}
		tl.skip = append(tl.skip, skip)
		r.SetHook(func(_ *sim.Resource, act sim.Activity, start, end sim.Time) {
			if end <= tl.From || start >= tl.To || (int(act) < len(skip) && skip[act]) {
				return
			}
			if !tl.room(start) {
				return
			}
			tl.events = append(tl.events, tlEvent{idx, act, max(start, tl.From), min(end, tl.To)})
		})
	}
}

// limit returns MaxEvents or its default.
func (tl *Timeline) limit() int {
	if tl.MaxEvents == 0 {
		return 2_000_000
	}
	return tl.MaxEvents
}

// room reports whether one more item (an interval, a span or a flow) may be recorded, and
// counts it as dropped (at time t) if not: intervals, spans and flows share MaxEvents.
func (tl *Timeline) room(t sim.Time) bool {
	if len(tl.events)+tl.spans.recorded() < tl.limit() {
		return true
	}
	if tl.Dropped == 0 || t < tl.TruncatedAt {
		tl.TruncatedAt = max(t, tl.From)
	}
	tl.Dropped++
	return false
}

// keeps applies the Tracks filter to a resource name.
func (tl *Timeline) keeps(name string) bool {
	include, any := false, false
	for _, p := range tl.Tracks {
		if ex, ok := strings.CutPrefix(p, "-"); ok {
			if strings.Contains(name, ex) {
				return false
			}
			continue
		}
		any = true
		include = include || strings.Contains(name, p)
	}
	return include || !any
}

// AddCounters adds sampled series as counter tracks ("ph":"C"), grouped under the process
// "counters"; samples outside the window are left out. Add them once the run is over.
func (tl *Timeline) AddCounters(series ...*sim.Series) { tl.counters = append(tl.counters, series...) }

// NumTracks returns the number of resource tracks attached.
func (tl *Timeline) NumTracks() int { return len(tl.tracks) }

// Len returns the number of recorded intervals (spans and flows not counted: Spans, Flows).
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
	spanTid := len(tl.tracks) + 1 // span tracks follow the resource tracks
	for i, name := range tl.spans.names {
		pid, track := pidOf(name)
		sep()
		fmt.Fprintf(bw, `{"ph":"M","name":"thread_name","pid":%d,"tid":%d,"args":{"name":%s}}`, pid, spanTid+i, strconv.Quote(track))
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
	tl.writeSpans(bw, sep, pidOf, spanTid)
	if len(tl.counters) > 0 {
		cpid := len(procs) + 1
		sep()
		fmt.Fprintf(bw, `{"ph":"M","name":"process_name","pid":%d,"args":{"name":"counters"}}`, cpid)
		for _, s := range tl.counters {
			for _, smp := range s.Samples {
				if smp.At < tl.From || smp.At >= tl.To {
					continue
				}
				sep()
				fmt.Fprintf(bw, `{"ph":"C","name":%s,"pid":%d,"ts":%s,"args":{"value":%d}}`,
					strconv.Quote(s.Name), cpid, micros(smp.At), smp.Value)
			}
		}
	}
	if tl.Dropped > 0 {
		sep()
		fmt.Fprintf(bw, `{"ph":"i","s":"g","name":%s,"pid":1,"tid":1,"ts":%s}`,
			strconv.Quote(fmt.Sprintf("timeline truncated: %d more intervals after this point were not recorded (MaxEvents %d)", tl.Dropped, tl.limit())),
			micros(tl.TruncatedAt))
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

// micros formats picoseconds as microseconds with six decimals, exactly.
func micros(t sim.Time) string {
	return fmt.Sprintf("%d.%06d", int64(t)/1_000_000, int64(t)%1_000_000)
}
