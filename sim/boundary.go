package sim

import "fmt"

// BoundaryObserver is told when simulated time passes the boundaries of a Watch — the
// ends of fixed-length buckets of time — without an event for each.
type BoundaryObserver interface {
	// AtBoundary is called once for each boundary t, in time order, after every event at
	// or before t has fired and before any later event fires, with the engine's time
	// reading t: so the state it sees is the state at t, as a PhaseStats event at t would
	// see it (PhaseStats events at t fire before it; they only observe). It must not
	// schedule events, start processes or change what the models will do. It may stop the
	// run (Engine.Stop, a watchdog): the run then ends with the engine's time reading t.
	AtBoundary(t Time)
}

// Watch attaches a BoundaryObserver to an engine: it is told of the boundaries first,
// first+period, first+2·period, … as the engine's time reaches them, and adds no events.
//
// How: the engine's time queue is asked only for events up to the next boundary (or the
// end of the run, whichever is earlier; the queue compares against that limit anyway).
// When it has none left, nothing is pending at or before the boundary, so every
// resource's record and every counter holds at the boundary exactly what it will hold
// until the next event, which is after it; the observer reads them then. A queue that
// jumps over several boundaries (an idle gap) is read at each in turn. Watches add no test
// per event, attached or not (the run loop's until replaces its limit).
type Watch struct {
	e            *Engine
	o            BoundaryObserver
	next, period Time
	attached     bool
	late         bool // ObserveLate
}

// Observe attaches o to be told of every boundary first + k·period (k = 0, 1, …) as the
// engine's time passes it. first must not be before the current time and period must be
// positive. Several watches may be attached; at an equal boundary they are told in the
// order they were attached.
func (e *Engine) Observe(first, period Time, o BoundaryObserver) *Watch {
	return e.observe(first, period, o, false)
}

// ObserveLate is Observe for an observer that need not see the state exactly at its
// boundaries (a watchdog): it may be told of a boundary after events past it have fired —
// after the rest of an event whose handler moved the clock past the boundary with Jump —
// with the engine's time then reading the later time, and it is still told of each
// boundary once, in order. In return the watch changes nothing of the run: Jump is not
// refused at its boundaries, so the engine fires exactly the events it would fire without
// it (Fired and every hook see the same), where an exact watch costs an event at each
// boundary a Jump would have crossed.
func (e *Engine) ObserveLate(first, period Time, o BoundaryObserver) *Watch {
	return e.observe(first, period, o, true)
}

// observe is Observe and ObserveLate.
func (e *Engine) observe(first, period Time, o BoundaryObserver, late bool) *Watch {
	if period <= 0 {
		panic(fmt.Sprintf("sim: boundary period %v must be positive", period))
	}
	if first < e.now {
		panic(fmt.Sprintf("sim: first boundary %v is before now (%v)", first, e.now))
	}
	w := &Watch{e: e, o: o, next: first, period: period, attached: true, late: late}
	e.watches = append(e.watches, w)
	e.setUntil()
	if e.running && !e.stopped {
		// The loop runs with the until it started with: end it after the current event
		// and start it again with this watch's boundary (it pays nothing per event so).
		e.stopped, e.resume = true, true
	}
	return w
}

// Next returns the earliest boundary the observer has not been told of yet.
func (w *Watch) Next() Time { return w.next }

// SetNext moves the watch's next boundary to t (not before the engine's current time); the
// period's boundaries follow it: t, t+period, …. An observer that re-arms itself calls it
// from its AtBoundary. Called from an event handler during a run with t earlier than the
// boundary the run loop is heading for, it ends the loop after the current event and starts
// it again, as attaching a watch does.
func (w *Watch) SetNext(t Time) {
	e := w.e
	if t < e.now {
		panic(fmt.Sprintf("sim: next boundary %v is before now (%v)", t, e.now))
	}
	w.next = t
	if !w.attached {
		return
	}
	until := e.until
	e.setUntil()
	if e.running && !e.stopped && !e.crossing && t < until {
		e.stopped, e.resume = true, true
	}
}

// Close tells the observer of every boundary up to t it has not been told of (t must not
// be before the engine's current time, and no event may be pending before t: the state
// now is taken as the state at each of them), then detaches the watch. Closing a closed
// watch does nothing.
func (w *Watch) Close(t Time) {
	if !w.attached {
		return
	}
	if t < w.e.now {
		panic(fmt.Sprintf("sim: watch closed at %v, before now (%v)", t, w.e.now))
	}
	for w.next <= t {
		b := w.next
		w.next += w.period
		w.o.AtBoundary(b)
	}
	w.attached = false
	ws := w.e.watches
	for i, x := range ws {
		if x == w {
			w.e.watches = append(ws[:i], ws[i+1:]...)
			break
		}
	}
	w.e.setUntil()
}

// dropWatches detaches every watch (Close): a closed watch tells its observer nothing.
func (e *Engine) dropWatches() {
	for _, w := range e.watches {
		w.attached = false
	}
	e.watches = nil
	e.setUntil()
}

// setUntil sets the time up to which the time queue hands over events: the current run's
// limit, or the earliest boundary of a watch if that is earlier.
func (e *Engine) setUntil() {
	e.until, e.strict = e.limit, e.limit
	for _, w := range e.watches {
		e.until = min(e.until, w.next)
		if !w.late {
			e.strict = min(e.strict, w.next)
		}
	}
}

// crossBoundary is called when no event is pending up to until, which is before the
// run's limit. If it is a watch's boundary (the earliest, as until was set when the loop
// started; a watch closed since leaves none), it tells the watch's observer, with the
// engine's time reading the boundary during the call (a late watch's, if a Jump moved the
// clock past it: the current time).
func (e *Engine) crossBoundary(until Time) {
	var w *Watch
	for _, x := range e.watches {
		if w == nil || x.next < w.next {
			w = x
		}
	}
	if w == nil || w.next > until {
		return
	}
	b := w.next
	w.next += w.period
	now := e.now
	e.now = max(b, now)
	e.crossing = true
	w.o.AtBoundary(b)
	e.crossing = false
	if e.stopped && !e.resume && b > now {
		// The observer stopped the run: it ends at the boundary, nothing pending before it.
		e.q.rebase(b)
	} else {
		e.now = now
	}
	e.setUntil()
}
