package sim

import (
	"fmt"
	"iter"
	"runtime/debug"
)

// Proc is a simulated process: a sequential function (firmware task, host thread, workload
// generator) that blocks only in simulated time. It is a coroutine built on iter.Pull: the
// engine resumes it from an event and it runs until it blocks again (Sleep, Compute, Recv,
// Wait, …), so exactly one process or the engine runs at any moment and the interleaving is
// fully determined by the event order.
//
// The coroutine machinery runs the body on a runtime-managed goroutine, but control passes
// back and forth synchronously (a coroutine switch), never concurrently; this is the single
// place where the kernel relies on a goroutine, and it is what makes sequential firmware code
// deterministic.
type Proc struct {
	name      string
	eng       *Engine
	body      func(p *Proc)
	next      func() (struct{}, bool)
	stop      func()
	yield     func(struct{}) bool
	scheduled bool // a wake-up event is pending
	done      bool
	failure   any
	stack     []byte
	id        int
}

// ID returns the process's number: 0 for the engine's first process, and one more for
// each process spawned after it. Models use it to index per-process state.
func (p *Proc) ID() int { return p.id }

// errKilled unwinds a process body when the engine discards it.
type errKilled struct{}

// Spawn creates a process running body and schedules its first step at the current time.
// The name appears in panics and traces; use the component's hierarchical name.
func (e *Engine) Spawn(name string, body func(p *Proc)) *Proc {
	p := &Proc{name: name, eng: e, body: body, id: e.spawned}
	e.spawned++
	p.next, p.stop = iter.Pull(p.run)
	e.procs++
	e.procList = append(e.procList, p)
	p.wake()
	return p
}

// run is the coroutine body. A panic in the process is caught here and re-raised by the
// engine with the process name and simulated time.
func (p *Proc) run(yield func(struct{}) bool) {
	p.yield = yield
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(errKilled); !ok {
				p.failure = r
				p.stack = debug.Stack()
			}
		}
		p.done = true
	}()
	p.body(p)
}

// Name returns the process name.
func (p *Proc) Name() string { return p.name }

// Engine returns the engine that runs the process.
func (p *Proc) Engine() *Engine { return p.eng }

// Now returns the current simulated time.
func (p *Proc) Now() Time { return p.eng.now }

// Done reports whether the process body has returned.
func (p *Proc) Done() bool { return p.done }

// HandleEvent resumes the process; it implements Handler.
func (p *Proc) HandleEvent(*Event) {
	p.scheduled = false
	if p.done {
		return
	}
	e := p.eng
	prev := e.curProc
	e.curProc = p
	p.next()
	e.curProc = prev
	if p.failure != nil {
		f := p.failure
		p.failure = nil
		panic(fmt.Sprintf("sim: process %s panicked at %v: %v\n%s", p.name, e.now, f, p.stack))
	}
	if p.done {
		e.procs--
		p.stop()
	}
}

// wake schedules the process to resume at the current time, after events already scheduled
// for now. Waking an already scheduled process does nothing.
func (p *Proc) wake() {
	if p.scheduled || p.done {
		return
	}
	p.scheduled = true
	p.eng.push(p.eng.now, PhaseProcess, p, nil, 0, false)
}

// wakeAt schedules the process to resume at time t (not before now), unless it is already
// scheduled.
func (p *Proc) wakeAt(t Time) {
	if p.scheduled || p.done {
		return
	}
	p.scheduled = true
	p.eng.push(max(t, p.eng.now), PhaseProcess, p, nil, 0, false)
}

// park suspends the process until something wakes it.
func (p *Proc) park() {
	if p.eng.curProc != p {
		panic(fmt.Sprintf("sim: process %s blocked from outside itself at %v", p.name, p.eng.now))
	}
	if !p.yield(struct{}{}) {
		panic(errKilled{})
	}
}

// Sleep blocks the process for d of simulated time. Sleep(0) lets every other event
// scheduled for now run first.
func (p *Proc) Sleep(d Time) {
	if d < 0 {
		panic(fmt.Sprintf("sim: process %s sleeps a negative time %v at %v", p.name, d, p.eng.now))
	}
	p.SleepUntil(p.eng.now + d)
}

// SleepUntil blocks the process until time t (which must not be in the past).
func (p *Proc) SleepUntil(t Time) {
	p.scheduled = true
	p.eng.push(t, PhaseProcess, p, nil, 0, false)
	p.park()
}

// Yield lets the other events scheduled for the current time run, then resumes.
func (p *Proc) Yield() { p.Sleep(0) }

// Compute runs n cycles of work on core: the process waits until the core is free, starts on
// the core's next clock edge and holds the core until the n-th edge after that. The core's
// Resource records the busy time under the given activity.
func (p *Proc) Compute(core *Core, act Activity, cycles int64) {
	core.run(p, act, cycles)
}

// Wait blocks until s is notified.
func (p *Proc) Wait(s *Signal) {
	s.waiters = append(s.waiters, p)
	p.park()
}

// Close ends every process that has not finished (each is unwound at its blocking call, so
// its deferred functions run), drops all pending events and detaches every boundary watch.
// Call it when a simulation is over and the program goes on, e.g. between the points of a
// sweep, so blocked processes do not hold memory.
func (e *Engine) Close() {
	for _, p := range e.procList {
		if !p.done {
			p.stop()
			p.done = true
		}
	}
	e.procList = nil
	e.procs = 0
	e.q.clear()
	e.nowq, e.nowHead = e.nowq[:0], 0
	e.closes++
	clear(e.slots)
	e.slots, e.free = e.slots[:0], e.free[:0]
	e.live = 0
	e.dropWatches()
}

// Processes returns the number of processes spawned and not yet finished.
func (e *Engine) Processes() int { return e.procs }
