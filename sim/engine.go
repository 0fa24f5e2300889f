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
// Pending events live in two structures, both ordered by (time, phase, sequence): a binary
// min-heap of 24-byte keys for events in the future, whose events stay put in a slot table
// (handlers are handed a pointer into it) so that heap moves copy keys only; and a FIFO for events
// scheduled at the current time in non-decreasing phase (process wake-ups, hand-offs), which
// costs O(1) instead of a heap insertion. The earlier of the two heads fires next, so the
// order is the same total order as with one heap.
type Engine struct {
	now     Time
	heap    []key
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
	// cur is the event being fired, in its slot (freed when its handler returns).
	cur *Event
	// hole is set while heap[0] is an event already taken: the pop is finished lazily, by
	// the next push to the heap (which takes the root's place) or the next look at the queue.
	hole bool
	// closes counts Close calls, so a slot is not freed after a Close inside its handler.
	closes int
}

// key orders one pending event; slot indexes the event.
type key struct {
	t    Time
	tie  uint64 // phase in the top 8 bits, sequence number below
	slot int32
}

// before reports whether a fires before b.
func (a *key) before(b *key) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	return a.tie < b.tie
}

// NewEngine returns an engine at time zero with no events.
func NewEngine() *Engine {
	return &Engine{heap: make([]key, 0, 1024), nowq: make([]key, 0, 256),
		slots: make([]Event, 0, 1024), free: make([]int32, 0, 1024)}
}

// Now returns the current simulated time.
func (e *Engine) Now() Time { return e.now }

// Fired returns how many events have fired so far.
func (e *Engine) Fired() uint64 { return e.fired }

// Pending returns how many events are scheduled and not yet fired, daemons included.
func (e *Engine) Pending() int {
	n := len(e.heap) + len(e.nowq) - e.nowHead
	if e.hole {
		n--
	}
	return n
}

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
	var s int32
	if n := len(e.free); n > 0 {
		s = e.free[n-1]
		e.free = e.free[:n-1]
	} else {
		s = int32(len(e.slots))
		e.slots = append(e.slots, Event{})
	}
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
	if e.hole {
		e.hole = false
		e.replaceTop(k)
		return
	}
	e.heap = append(e.heap, k)
	e.up(len(e.heap) - 1)
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
	if e.hole {
		e.hole = false
		e.popHeap()
	}
	k, _, ok := e.next()
	if !ok || k.t != e.now || k.tie >= e.cur.tie {
		return false
	}
	var s int32
	if n := len(e.free); n > 0 {
		s = e.free[n-1]
		e.free = e.free[:n-1]
	} else {
		s = int32(len(e.slots))
		e.slots = append(e.slots, Event{})
	}
	c := e.cur
	e.slots[s] = *c
	if !c.daemon {
		e.live++
	}
	e.heap = append(e.heap, key{t: c.Time, tie: c.tie, slot: s})
	e.up(len(e.heap) - 1)
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

// up maintains the binary min-heap of keys after an insertion (popHeap after a removal).
func (e *Engine) up(i int) {
	h := e.heap
	k := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if !k.before(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = k
}

// popHeap removes the heap's top. It moves the hole at the root down to a leaf along the
// smaller children (one comparison per level), then sifts the last key up from there
// (Floyd's bottom-up deletion): the last key is usually among the latest, so it rarely
// rises, and this saves the comparison with it at every level on the way down.
func (e *Engine) popHeap() {
	h := e.heap
	n := len(h) - 1
	k := h[n]
	h = h[:n]
	e.heap = h
	if n == 0 {
		return
	}
	i := 0
	for c := minChild(h, i); c >= 0; c = minChild(h, i) {
		h[i] = h[c]
		i = c
	}
	// The sift-up of e.up, written out: calling it (a store and reload of k, not inlined)
	// made BenchmarkEvent ≈ 5 % slower.
	for i > 0 {
		p := (i - 1) / 2
		if !k.before(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = k
}

// minChild returns the index of node i's earlier child in heap h, or −1 if i is a leaf.
func minChild(h []key, i int) int {
	l := 2*i + 1
	if l >= len(h) {
		return -1
	}
	if r := l + 1; r < len(h) && h[r].before(&h[l]) {
		return r
	}
	return l
}

// replaceTop puts k in place of the taken root (e.hole) and sifts it down: an event
// scheduled soon after the one just taken stays near the top, with few comparisons.
func (e *Engine) replaceTop(k key) {
	h := e.heap
	i := 0
	for c := minChild(h, i); c >= 0 && h[c].before(&k); c = minChild(h, i) {
		h[i] = h[c]
		i = c
	}
	h[i] = k
}

// next returns the earliest pending event's key and whether it is the FIFO's head. Callers
// finish a lazy pop (e.hole) first.
func (e *Engine) next() (k *key, fromNow bool, ok bool) {
	if e.nowHead < len(e.nowq) {
		k = &e.nowq[e.nowHead]
		if len(e.heap) > 0 && e.heap[0].before(k) {
			return &e.heap[0], false, true
		}
		return k, true, true
	}
	if len(e.heap) > 0 {
		return &e.heap[0], false, true
	}
	return nil, false, false
}

// take removes the event with key k (the earliest) from the queues and returns its slot.
func (e *Engine) take(k *key, fromNow bool) int32 {
	kk := *k
	if fromNow {
		e.nowHead++
		if e.nowHead == len(e.nowq) {
			e.nowHead, e.nowq = 0, e.nowq[:0]
		}
	} else {
		e.hole = true // popped by the next push or look at the queue
	}
	if !e.slots[kk.slot].daemon {
		e.live--
	}
	return kk.slot
}

// Stop makes Run or RunUntil return after the current event.
func (e *Engine) Stop() { e.stopped = true }

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
	}
}

func (e *Engine) run(limit Time) {
	if e.running {
		panic("sim: Run called from inside an event")
	}
	e.running = true
	e.stopped = false
	defer func() { e.running = false }()
	for !e.stopped {
		if limit == MaxTime && e.live == 0 {
			return
		}
		if e.hole {
			e.hole = false
			e.popHeap()
		}
		k, fromNow, ok := e.next()
		if !ok || k.t > limit {
			return
		}
		s := e.take(k, fromNow)
		ev := &e.slots[s]
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
			e.slots[s] = Event{} // drop references for the garbage collector
			e.free = append(e.free, s)
		}
	}
}
