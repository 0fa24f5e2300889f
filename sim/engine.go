package sim

import "fmt"

// Phase orders events that fire at the same time. Lower phases fire first; within a phase,
// events fire in the order they were scheduled. Statistics sampling runs last, after all
// model activity at that time, as in gem5's priority bands.
type Phase uint8

// Event phases, in firing order at equal times.
const (
	PhaseHardware Phase = 0  // hardware completions (array done, transfer done)
	PhaseDefault  Phase = 8  // ordinary model events
	PhaseProcess  Phase = 16 // process wake-ups
	PhaseStats    Phase = 32 // samplers and observers
)

// Handler receives events. Components implement it with a pointer receiver, so scheduling
// an event for them allocates nothing.
type Handler interface {
	// HandleEvent is called when the event fires. now equals ev.Time.
	HandleEvent(ev *Event)
}

// Event is one scheduled happening, as handed to its handler when it fires.
type Event struct {
	Time    Time    // when it fires
	Handler Handler // who receives it
	Data    any     // payload; store pointers, not values, to avoid allocation
	Code    int64   // small integer payload (an opcode, an index, a generation)
	tie     uint64  // phase in the top 8 bits, sequence number below
	next    int32   // the next event of its timing-wheel slot, plus one (0: none)
	daemon  bool    // does not keep Run alive
}

// Phase returns the event's phase.
func (ev *Event) Phase() Phase { return Phase(ev.tie >> 56) }

// EventHook observes every event just before it fires. Hooks are for tracing and
// debugging; they must not schedule events or change model state.
type EventHook func(ev *Event)

// Engine is the serial discrete-event engine. One engine runs one simulation; nothing in it is
// global, so independent simulations can run side by side in one program (sweeps).
//
// Pending events stay put in a slot table (handlers are handed a pointer into it) and are
// queued in two structures, both ordered by (time, phase, sequence): a time queue for
// events in the future (timeQueue: a timing wheel of 16 ns windows linked through the
// slots, with a sorted run of 24-byte keys for the current window, kept in a radix heap
// when crowded, a coarse wheel of 33.6 µs periods behind it, and a radix heap for events
// beyond both); and a FIFO for events scheduled at the current time in non-decreasing phase
// (process wake-ups, hand-offs). The earlier of the two heads fires next, so the order is
// the same total order as with one priority queue. The time queue's time is kept equal to
// the current time, so its events for now are the first of its run.
type Engine struct {
	now     Time
	q       timeQueue
	nowq    []key // events at time now, in firing order; nowq[nowHead:] are pending
	nowHead int
	slots   []Event
	free    []int32 // unused slots
	seq     uint64
	live    int // non-daemon events pending
	stopped bool
	fired   uint64
	hooks   []EventHook
	running bool
	// curProc is the process currently executing, or nil when the engine itself runs.
	curProc  *Proc
	procs    int
	procList []*Proc
	spawned  int // processes spawned so far (the next process's ID)
	// cur is the event being fired, in its slot (freed when its handler returns).
	cur *Event
	// closes counts Close calls, so a slot is not freed after a Close inside its handler.
	closes int
	// watches are the attached boundary observers (boundary.go); until is the time up to
	// which the time queue hands over events: the current run's limit, or the earliest
	// watch boundary if that is earlier.
	watches      []*Watch
	until, limit Time
	// strict is until without the late watches (boundary.go): how far Jump may move the
	// clock. crossing is set while a watch's observer is told of a boundary.
	strict   Time
	crossing bool
	// resume is set with stopped by a watch attached during a run, so the loop returns
	// and starts again with the watch's boundary (Stop clears it).
	resume bool
}

// key orders one pending event; slot indexes the event.
type key struct {
	t    Time
	tie  uint64 // phase in the top 8 bits, sequence number below
	slot int32
}

// NewEngine returns an engine at time zero with no events.
func NewEngine() *Engine {
	e := &Engine{nowq: make([]key, 0, 256), slots: make([]Event, 0, 1024),
		free: make([]int32, 0, 1024), until: MaxTime, limit: MaxTime, strict: MaxTime}
	e.q = newTimeQueue(&e.slots)
	return e
}

// Now returns the current simulated time.
func (e *Engine) Now() Time { return e.now }

// Fired returns how many events have fired so far.
func (e *Engine) Fired() uint64 { return e.fired }

// Pending returns how many events are scheduled and not yet fired, daemons included.
func (e *Engine) Pending() int {
	return e.q.n + len(e.nowq) - e.nowHead
}

// Live returns how many events that keep Run going (not daemons) are scheduled and not yet
// fired. When Run has returned with Live 0, nothing that could change the model's state is
// pending: no event can fire that was not scheduled from outside the engine.
func (e *Engine) Live() int { return e.live }

// AddHook attaches an observer called before every event. With none attached the engine
// pays one length check per event.
func (e *Engine) AddHook(h EventHook) { e.hooks = append(e.hooks, h) }

// Schedule schedules h to receive an event at time t in PhaseDefault. It panics, naming the
// handler and both times, if t is in the past.
func (e *Engine) Schedule(t Time, h Handler, data any, code int64) {
	e.push(t, PhaseDefault, h, data, code, false)
}

// SchedulePhase is Schedule with an explicit phase.
func (e *Engine) SchedulePhase(t Time, ph Phase, h Handler, data any, code int64) {
	e.push(t, ph, h, data, code, false)
}

// ScheduleDaemon schedules an event that does not by itself keep Run going: Run returns when
// only daemon events remain. Samplers and other periodic observers use it.
func (e *Engine) ScheduleDaemon(t Time, ph Phase, h Handler, data any, code int64) {
	e.push(t, ph, h, data, code, true)
}

// funcHandler adapts a plain function; it allocates, so it is for set-up and tests, not hot
// paths.
type funcHandler func()

func (f funcHandler) HandleEvent(*Event) { f() }

// At schedules f to run at time t in PhaseDefault. Each call allocates a closure: use
// Schedule with a Handler on hot paths.
func (e *Engine) At(t Time, f func()) { e.push(t, PhaseDefault, funcHandler(f), nil, 0, false) }

// After schedules f to run d after now. Like At, it allocates.
func (e *Engine) After(d Time, f func()) { e.At(e.now+d, f) }

func (e *Engine) push(t Time, ph Phase, h Handler, data any, code int64, daemon bool) {
	if t < e.now {
		panic(fmt.Sprintf("sim: %s scheduled an event at %v, before now (%v)", handlerName(h), t, e.now))
	}
	e.seq++
	s := e.slot()
	k := key{t: t, tie: uint64(ph)<<56 | e.seq, slot: s}
	// Field by field: a composite literal is built on the stack and copied in wide loads
	// that stall on the narrow stores just made (store-to-load forwarding fails).
	ev := &e.slots[s]
	ev.Time, ev.Handler, ev.Data, ev.Code, ev.tie, ev.daemon = t, h, data, code, k.tie, daemon
	if !daemon {
		e.live++
	}
	// An event for now whose phase is not below the last one queued for now keeps the FIFO
	// in firing order (its sequence number is the largest yet).
	if t == e.now {
		if n := len(e.nowq); n == e.nowHead || e.nowq[n-1].tie>>56 <= uint64(ph) {
			e.nowq = append(e.nowq, k)
			return
		}
	}
	if e.q.inWheel(t) {
		// Most events: straight into their wheel slot.
		e.q.n++
		e.q.linkEvent(ev, s)
		return
	}
	e.q.push(k)
}

// slot takes an unused slot of the slot table, growing it if none is free.
func (e *Engine) slot() int32 {
	if n := len(e.free); n > 0 {
		s := e.free[n-1]
		e.free = e.free[:n-1]
		return s
	}
	e.slots = append(e.slots, Event{})
	return int32(len(e.slots) - 1)
}

// Requeue is for a handler that does in one event a batch of steps that would otherwise be
// consecutive events scheduled together (each a look at some state): called between two
// steps, it reports whether an event scheduled since the current one fired comes before
// the current event's own place in the order (one at the current time in a lower phase),
// and if so schedules the current event again at that place — the same time, phase and
// sequence number, so before everything else scheduled since — after which the handler
// should return and go on with the next step when the event fires again. Each step then
// sees the state it would have seen as an event of its own.
func (e *Engine) Requeue() bool {
	k := e.nextNow()
	if k == nil || k.tie >= e.cur.tie {
		return false
	}
	s := e.slot()
	c := e.cur
	e.slots[s] = *c
	if !c.daemon {
		e.live++
	}
	e.q.push(key{t: c.Time, tie: c.tie, slot: s}) // at the current time: into the run, in order
	return true
}

// Jump is for a handler whose last step schedules the next step of the same piece of
// work (a fixed delay, then a look at some state): it reports whether an event scheduled
// now for time t in phase ph would be the next to fire — nothing pending comes before it,
// the run goes on to t and nothing stopped it — and if so moves the clock to t, so that
// the handler runs that step at once, as the rest of the current event, instead of
// scheduling it. The step then sees the state it would have seen as an event of its own
// and schedules what it schedules in the same order, so the simulation's results are the
// same; only the engine's count of events (Fired, and what hooks see) has one event
// fewer. The caller must do nothing of the current event after the step and must not call
// Requeue in it. Jump answers false from a process and outside Run, and when it cannot
// tell cheaply: an event for now in the FIFO, a crowded window of the time queue, or t at
// or past the end of the period after the current one. Jump may move the clock past a
// late watch's boundary (boundary.go), never past another's.
func (e *Engine) Jump(t Time, ph Phase) bool {
	if t < e.now {
		panic(fmt.Sprintf("sim: Jump to %v, before now (%v)", t, e.now))
	}
	if !e.running || e.stopped || t > e.strict || e.curProc != nil || e.nowHead < len(e.nowq) {
		return false
	}
	if !e.q.jumpTo(t, ph) {
		return false
	}
	e.now = t
	return true
}

// Named is implemented by components and processes that have a hierarchical name.
type Named interface {
	Name() string
}

func handlerName(h Handler) string {
	if n, ok := h.(Named); ok {
		return n.Name()
	}
	return fmt.Sprintf("%T", h)
}

// nextNow returns the key of the earliest event pending at the current time (the FIFO's
// head or the time queue's), or nil if there is none.
func (e *Engine) nextNow() *key {
	h := e.q.nowHead()
	if e.nowHead < len(e.nowq) {
		if k := &e.nowq[e.nowHead]; h == nil || k.tie < h.tie {
			return k
		}
	}
	return h
}

// Stop makes Run or RunUntil return after the current event.
func (e *Engine) Stop() { e.stopped, e.resume = true, false }

// Run fires events in order until no non-daemon event remains or Stop is called.
func (e *Engine) Run() { e.run(MaxTime) }

// RunUntil fires every event with time ≤ t, then sets the time to t (if no Stop intervened)
// and returns. Events after t stay scheduled, so RunUntil can be called again to go on.
func (e *Engine) RunUntil(t Time) {
	if t < e.now {
		panic(fmt.Sprintf("sim: RunUntil(%v) is before now (%v)", t, e.now))
	}
	e.run(t)
	if !e.stopped && e.now < t {
		e.now = t
		e.q.rebase(t) // nothing is pending before t
	}
}

func (e *Engine) run(limit Time) {
	if e.running {
		panic("sim: Run called from inside an event")
	}
	e.running = true
	e.stopped = false
	e.limit = limit
	e.setUntil()
	defer func() { e.running = false }()
	// The time queue hands over events up to until: the limit, or the earliest boundary
	// of a watch (boundary.go) if that is earlier.
	until := e.until
again:
	for !e.stopped {
		if e.live == 0 && e.limit == MaxTime {
			return
		}
		var s int32
		if h := e.q.nowHead(); h != nil && (e.nowHead == len(e.nowq) || h.tie < e.nowq[e.nowHead].tie) {
			s = h.slot
			e.q.popNow()
		} else if e.nowHead < len(e.nowq) {
			s = e.nowq[e.nowHead].slot
			if e.nowHead++; e.nowHead == len(e.nowq) {
				e.nowHead, e.nowq = 0, e.nowq[:0]
			}
		} else {
			// Nothing is left at the current time: on to the earliest later one, which the
			// time queue hands over (the FIFO is empty) if it is not after until.
			var ok bool
			if s, ok = e.q.advance(until); !ok {
				// Nothing is pending up to until: the end of the run, or a boundary.
				if until >= e.limit {
					return
				}
				e.crossBoundary(until)
				until = e.until
				continue
			}
		}
		ev := &e.slots[s]
		if !ev.daemon {
			e.live--
		}
		e.cur = ev
		e.now = ev.Time
		e.fired++
		if len(e.hooks) > 0 {
			for _, h := range e.hooks {
				h(ev)
			}
		}
		closes := e.closes
		ev.Handler.HandleEvent(ev)
		// The handler may have grown the slot table (ev then points into the old one).
		if e.closes == closes {
			// The slot keeps its event's references until it is reused (free slots are
			// reused last-in first-out, so few linger) or the engine is closed.
			e.free = append(e.free, s)
		}
	}
	if e.resume {
		// A watch was attached during the last event: go on with its boundary.
		e.stopped, e.resume = false, false
		until = e.until
		goto again
	}
}
