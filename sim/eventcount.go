package sim

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
)

// EventKinder is implemented by handlers that receive events of several kinds (told apart
// by Event.Code): EventKind names the step an event runs, e.g. "sq-doorbell". Event counts
// (CountEvents) report each kind on a line of its own; a handler without it counts as one
// kind. It is called only while events are counted.
type EventKinder interface {
	EventKind(ev *Event) string
}

// TaskStepper is implemented by handlers that are one named step of a task (a firmware
// step bound to its task, run to completion): event counts report the task as the
// handler, in the handler type's package, and the step as the kind.
type TaskStepper interface {
	TaskStep() (task, step string)
}

// EventCount is how many events of one kind one handler received.
type EventCount struct {
	// Package is the handler type's import path within the module ("nvmectrl",
	// "hostos/blk"); for a process, the package that declares Proc ("sim").
	Package string
	// Handler is the handler's type name ("Controller"), or for a process its name with
	// each run of digits replaced by N ("fio/randwrite/N/wN"), so that the processes of one
	// pool count together.
	Handler string
	// Kind is the event's kind (EventKinder), "" for a handler of one kind and for processes.
	Kind string
	N    uint64
}

// EventCounter counts the events an engine fires by handler type and kind (CountEvents).
// It observes through an event hook, so an engine that counts nothing pays only the hook
// list's length check per event; while counting, each event costs a map lookup.
type EventCounter struct {
	idx    map[eventKey]int
	procs  map[*Proc]int
	counts []EventCount
}

// eventKey identifies one line of the counts: a handler type and an event kind.
type eventKey struct {
	typ  reflect.Type
	task string // TaskStepper's task, or ""
	kind string
}

// CountEvents starts counting every event fired from now on and returns the counter.
func (e *Engine) CountEvents() *EventCounter {
	c := &EventCounter{idx: map[eventKey]int{}, procs: map[*Proc]int{}}
	e.AddHook(c.count)
	return c
}

// count is the hook: one event fired.
func (c *EventCounter) count(ev *Event) {
	if p, ok := ev.Handler.(*Proc); ok {
		i, ok := c.procs[p]
		if !ok {
			i = c.line(eventKey{}, EventCount{Package: "sim", Handler: poolName(p.name)})
			c.procs[p] = i
		}
		c.counts[i].N++
		return
	}
	k := eventKey{typ: reflect.TypeOf(ev.Handler)}
	if ts, ok := ev.Handler.(TaskStepper); ok {
		k.task, k.kind = ts.TaskStep()
	} else if ek, ok := ev.Handler.(EventKinder); ok {
		k.kind = ek.EventKind(ev)
	}
	i, ok := c.idx[k]
	if !ok {
		t := k.typ
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		name := t.Name()
		if k.task != "" {
			name = k.task
		}
		i = c.line(k, EventCount{Package: modulePath(t.PkgPath()), Handler: name, Kind: k.kind})
		c.idx[k] = i
	}
	c.counts[i].N++
}

// line returns the index of the line of w's handler and kind, adding it if it is new. Lines
// of processes are keyed by their pool's name, so a zero key is not stored.
func (c *EventCounter) line(k eventKey, w EventCount) int {
	for i := range c.counts {
		if c.counts[i].Package == w.Package && c.counts[i].Handler == w.Handler && c.counts[i].Kind == w.Kind {
			return i
		}
	}
	c.counts = append(c.counts, w)
	return len(c.counts) - 1
}

// Counts returns the counts so far, sorted by package, handler and kind.
func (c *EventCounter) Counts() []EventCount {
	out := slices.Clone(c.counts)
	slices.SortFunc(out, func(a, b EventCount) int {
		return cmp.Or(cmp.Compare(a.Package, b.Package), cmp.Compare(a.Handler, b.Handler), cmp.Compare(a.Kind, b.Kind))
	})
	return out
}

// Total returns the number of events counted.
func (c *EventCounter) Total() uint64 {
	var n uint64
	for _, w := range c.counts {
		n += w.N
	}
	return n
}

// poolName is a process name with each run of digits replaced by N.
func poolName(name string) string {
	var b strings.Builder
	digits := false
	for _, r := range name {
		if r >= '0' && r <= '9' {
			if !digits {
				b.WriteByte('N')
			}
			digits = true
			continue
		}
		digits = false
		b.WriteRune(r)
	}
	return b.String()
}

// modulePath is an import path relative to this module ("nvmectrl"), or the path itself
// for a type declared elsewhere.
func modulePath(p string) string {
	const mod = "github.com/fastdrain-sim/fastdrain/"
	return strings.TrimPrefix(p, mod)
}
