package report

import (
	"bufio"
	"fmt"
	"sort"
	"strconv"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// A timeline can carry, besides the resources' busy intervals, spans: slices on tracks of
// their own that are not resources (a controller command slot holding one NVMe command
// from its arrival to its completion), and flow arrows from a span to the resource
// intervals its work caused (a read's sense on the die and data-out on the channel). They
// are written in the trace-event format's flow events (version 1): a "s" event on the span's
// track at the time of the cause, bound to the slice enclosing it, and a "f" event with
// "bp":"e" on the resource's track at a time inside the caused interval, bound to the slice
// enclosing that; both with the same "cat" and "id". Spans and flows count toward MaxEvents
// like intervals, follow the Tracks filter and the window: a flow is written only when both
// its ends are on kept tracks, inside the window, its cause lies inside its span and a
// recorded interval holds its end (not one of a Skip activity, nor one past MaxEvents).

// span is one slice on a span track.
type span struct {
	track      int32
	gen        uint32 // bumped each time the slot is reused
	name       string
	start, end sim.Time
	open       bool // not ended yet: it lasts to the window's end
	free       bool // ended before the window: not written, the slot is free
}

// flow is one arrow from span id (at time from) to the interval of resource track target
// that holds time at.
type flow struct {
	id       uint64
	from, at sim.Time
	target   int32
}

// spanTracks holds the spans, their tracks and the flows.
type spanTracks struct {
	names   []string         // span track names, in order of first use
	trackOf map[string]int32 // index in names
	spans   []span
	free    []int32 // slots of spans that ended before the window
	flows   []flow
	live    int // spans recorded and not freed
}

// recorded returns the spans and flows that count toward MaxEvents.
func (st *spanTracks) recorded() int { return st.live + len(st.flows) }

// StartSpan starts a slice called name at time t on the span track called track (grouped
// into processes by the first component of the name, as resources are) and returns its id
// for EndSpan and Flow, or 0 when it is not recorded: a track the Tracks filter drops, a
// start at or after the window's end, or MaxEvents reached.
func (tl *Timeline) StartSpan(track string, t sim.Time, name string) uint64 {
	if t >= tl.To || !tl.keeps(track) || !tl.room(t) {
		return 0
	}
	st := &tl.spans
	if st.trackOf == nil {
		st.trackOf = map[string]int32{}
	}
	k, ok := st.trackOf[track]
	if !ok {
		k = int32(len(st.names))
		st.names = append(st.names, track)
		st.trackOf[track] = k
	}
	var idx int32
	if n := len(st.free); n > 0 {
		idx = st.free[n-1]
		st.free = st.free[:n-1]
		gen := st.spans[idx].gen + 1
		st.spans[idx] = span{track: k, gen: gen, name: name, start: t, open: true}
	} else {
		idx = int32(len(st.spans))
		st.spans = append(st.spans, span{track: k, name: name, start: t, open: true})
	}
	st.live++
	return spanID(idx, st.spans[idx].gen)
}

// spanID packs a span's slot and generation into a non-zero id.
func spanID(idx int32, gen uint32) uint64 { return uint64(gen)<<32 | uint64(idx+1) }

// span returns the span of id, or nil if id is 0 or names a slot reused since.
func (st *spanTracks) span(id uint64) *span {
	idx := int64(id&0xFFFF_FFFF) - 1
	if idx < 0 || idx >= int64(len(st.spans)) {
		return nil
	}
	sp := &st.spans[idx]
	if uint64(sp.gen) != id>>32 || sp.free {
		return nil
	}
	return sp
}

// EndSpan ends span id at time t (an id of 0 is ignored). A span that ended before the
// window is let go: its slot is reused, and flows from it are dropped.
func (tl *Timeline) EndSpan(id uint64, t sim.Time) {
	st := &tl.spans
	sp := st.span(id)
	if sp == nil || !sp.open {
		return
	}
	sp.open, sp.end = false, t
	if t <= tl.From {
		sp.free = true
		st.live--
		st.free = append(st.free, int32(id&0xFFFF_FFFF)-1)
	}
}

// Flow records an arrow from span id, at time from (the cause: it must lie inside the
// span), to the interval of resource r that holds time at. It is dropped when id is 0,
// r is not attached (the Tracks filter), either time is outside the window, or MaxEvents
// is reached.
func (tl *Timeline) Flow(id uint64, from sim.Time, r *sim.Resource, at sim.Time) {
	k, ok := tl.trackOf[r]
	if id == 0 || !ok || from < tl.From || from >= tl.To || at < tl.From || at >= tl.To {
		return
	}
	if tl.spans.span(id) == nil || !tl.room(at) {
		return
	}
	tl.spans.flows = append(tl.spans.flows, flow{id: id, from: from, at: at, target: k})
}

// Spans returns the number of spans recorded (those that ended before the window not
// counted).
func (tl *Timeline) Spans() int { return tl.spans.live }

// Flows returns the number of flows recorded (WriteJSON leaves out those whose cause turned
// out to lie outside its span or whose end no recorded interval holds).
func (tl *Timeline) Flows() int { return len(tl.spans.flows) }

// holds reports whether one of the intervals evs (indices into tl.events, by start) holds
// time t: a flow's end needs a slice to bind to, which an activity left out (Skip) or an
// interval dropped at MaxEvents does not leave.
func (tl *Timeline) holds(evs []int32, t sim.Time) bool {
	i := sort.Search(len(evs), func(i int) bool { return tl.events[evs[i]].start > t }) - 1
	return i >= 0 && t < tl.events[evs[i]].end
}

// writeSpans writes the spans as complete events on their tracks (tids from tid0 on) and
// the flows as flow event pairs, numbered from 1 in the order they were recorded.
func (tl *Timeline) writeSpans(bw *bufio.Writer, sep func(), pidOf func(string) (int, string), tid0 int) {
	st := &tl.spans
	end := func(sp *span) sim.Time {
		if sp.open {
			return tl.To
		}
		return min(sp.end, tl.To)
	}
	for i := range st.spans {
		sp := &st.spans[i]
		if sp.free {
			continue
		}
		pid, _ := pidOf(st.names[sp.track])
		from := max(sp.start, tl.From)
		sep()
		fmt.Fprintf(bw, `{"ph":"X","cat":"nvme","name":%s,"pid":%d,"tid":%d,"ts":%s,"dur":%s}`,
			strconv.Quote(sp.name), pid, tid0+int(sp.track), micros(from), micros(end(sp)-from))
	}
	// Each resource track's recorded intervals, in the order recorded, which is by start:
	// a resource's intervals do not overlap and each starts after the previous one ends.
	byTrack := make([][]int32, len(tl.tracks))
	for i, e := range tl.events {
		byTrack[e.track] = append(byTrack[e.track], int32(i))
	}
	n := 0
	for _, fl := range st.flows {
		sp := st.span(fl.id)
		if sp == nil || fl.from < sp.start || fl.from >= end(sp) || !tl.holds(byTrack[fl.target], fl.at) {
			continue
		}
		n++
		spid, _ := pidOf(st.names[sp.track])
		r := tl.tracks[fl.target]
		tpid, _ := pidOf(r.Name())
		sep()
		fmt.Fprintf(bw, `{"ph":"s","cat":"flow","name":%s,"id":%d,"pid":%d,"tid":%d,"ts":%s}`,
			strconv.Quote(sp.name), n, spid, tid0+int(sp.track), micros(fl.from))
		sep()
		fmt.Fprintf(bw, `{"ph":"f","bp":"e","cat":"flow","name":%s,"id":%d,"pid":%d,"tid":%d,"ts":%s}`,
			strconv.Quote(sp.name), n, tpid, int(fl.target)+1, micros(fl.at))
	}
}
