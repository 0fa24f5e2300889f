package runner

import (
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// EventCounts is what --count-events reports: the engine events a run fires, by layer of
// the stack, handler and kind, and the pieces of work booked on the machine's processors
// (firmware cores, host CPUs and their interrupt contexts), each per host I/O, so that each
// layer's share of the simulator's work is a number (docs/performance.md, "The event
// budget"). Counting costs nothing unless asked for: the engine's event hook list is empty
// otherwise.
type EventCounts struct {
	c     *sim.EventCounter
	cores []countedCore
}

// countedCore is one processor and the work it had served when counting started.
type countedCore struct {
	layer, name string
	core        *sim.Core
	from        int64
}

// CountEvents starts counting m's events and processor bookings from now on.
func CountEvents(m *platforms.Machine) *EventCounts {
	r := &EventCounts{c: m.Eng.CountEvents()}
	add := func(layer string, cs []*sim.Core) {
		for _, c := range cs {
			r.cores = append(r.cores, countedCore{layer, c.Name(), c, c.Services()})
		}
	}
	add("firmware", m.SSD.FW.Cores())
	add("host", m.Host.Cache.Cores())
	add("host", m.Host.Driver.IRQCores())
	return r
}

// eventLayers maps a handler's package to its layer of the stack, in the stack's order.
var eventLayers = []struct{ prefix, layer string }{
	{"sim", "processes"},
	{"hostos", "host"},
	{"nvmectrl", "controller"},
	{"pcie", "controller"},
	{"firmware", "firmware"},
	{"channel", "flash"},
	{"die", "flash"},
}

// layerOf returns the layer of a handler in package pkg, and its rank in the stack.
func layerOf(pkg string) (string, int) {
	for i, l := range eventLayers {
		if pkg == l.prefix || strings.HasPrefix(pkg, l.prefix+"/") {
			return l.layer, i
		}
	}
	return "other", len(eventLayers)
}

// Table returns the counts per host I/O, ios being the host I/Os the run completed: each
// layer's total, then its handlers' kinds, then the bookings of each processor.
func (r *EventCounts) Table(ios int64) *report.ValueTable {
	t := &report.ValueTable{Title: fmt.Sprintf("events and processor bookings per host I/O (%d I/Os)", ios),
		NumTitle: "events per host I/O",
		Columns: []report.Column{{Text: "layer", Name: "layer"}, {Text: "handler", Name: "handler"}, {Text: "kind", Name: "kind"},
			{Text: "count", Name: "count"}, {Text: "per I/O", Name: "per_io"}, {Text: "share", Name: "share"}}}
	per := func(n uint64) report.Cell {
		if ios <= 0 {
			return report.None()
		}
		v := float64(n) / float64(ios)
		return report.Num(v, fmt.Sprintf("%.3f", v))
	}
	counts := r.c.Counts()
	total := r.c.Total()
	share := func(n uint64) report.Cell {
		if total == 0 {
			return report.None()
		}
		v := float64(n) / float64(total)
		return report.Num(v, fmt.Sprintf("%.1f%%", 100*v))
	}
	count := func(n uint64) report.Cell { return report.Num(float64(n), fmt.Sprint(n)) }
	// Layers in the stack's order, each with its lines.
	byLayer := map[string][]sim.EventCount{}
	var order []string
	rank := map[string]int{}
	for _, w := range counts {
		l, k := layerOf(w.Package)
		if _, ok := byLayer[l]; !ok {
			order = append(order, l)
			rank[l] = k
		}
		byLayer[l] = append(byLayer[l], w)
	}
	for i := 1; i < len(order); i++ { // insertion sort by rank: a handful of layers
		for j := i; j > 0 && rank[order[j]] < rank[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	t.AddRow(report.Label("all"), report.Label("events"), report.Label(""), count(total), per(total), share(total))
	for _, l := range order {
		var n uint64
		for _, w := range byLayer[l] {
			n += w.N
		}
		t.AddRow(report.Label(l), report.Label("all"), report.Label(""), count(n), per(n), share(n))
		for _, w := range byLayer[l] {
			t.AddRow(report.Label(l), report.Label(w.Package+"."+w.Handler), report.Label(w.Kind), count(w.N), per(w.N), share(w.N))
		}
	}
	for _, c := range r.cores {
		n := uint64(c.core.Services() - c.from)
		t.AddRow(report.Label(c.layer), report.Label(c.name), report.Label("bookings"), count(n), per(n), report.None())
	}
	return t
}
