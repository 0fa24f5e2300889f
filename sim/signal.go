package sim

import "fmt"

// Signal is a condition that processes wait on. Notify wakes the longest waiter;
// Broadcast wakes all. A notification with nobody waiting is not remembered, so waiters
// re-check their condition in a loop, as with a condition variable.
type Signal struct {
	waiters []*Proc
}

// Waiting returns how many processes wait on s.
func (s *Signal) Waiting() int { return len(s.waiters) }

// Notify wakes the process that has waited longest, if any. With none waiting (as on the
// non-blocking queue operations of event handlers) it is a length test, inlined.
func (s *Signal) Notify() {
	if len(s.waiters) > 0 {
		s.notify()
	}
}

// notify is Notify with a waiter: out of line, so that Notify is inlined.
func (s *Signal) notify() { s.first().wake() }

// NotifyAt is Notify with the wake-up deferred to time t (not before now): the process
// that has waited longest stops waiting now and resumes at t. It saves a process switch
// when the waiter would otherwise sleep until t as soon as it resumed.
func (s *Signal) NotifyAt(t Time) {
	if p := s.first(); p != nil {
		p.wakeAt(t)
	}
}

// Resume removes the process that has waited longest and runs it at once, inside the
// calling event handler, until it blocks again, instead of scheduling its wake-up; it
// reports whether there was a waiter. A model whose handler fires at the moment the
// waiter would have been woken (its own wake-up event, scheduled where the process's would
// have been) uses it to run a check on the process's behalf and resume it only when the
// check passes, which saves the process switches of wake-ups that would find nothing to do.
// It must be called from an event handler, not from a process.
func (s *Signal) Resume() bool {
	p := s.first()
	if p == nil {
		return false
	}
	if p.eng.curProc != nil {
		panic(fmt.Sprintf("sim: process %s resumed from process %s at %v; Resume is for event handlers",
			p.name, p.eng.curProc.name, p.eng.now))
	}
	p.HandleEvent(nil)
	return true
}

// first removes and returns the longest waiter, or nil.
func (s *Signal) first() *Proc {
	if len(s.waiters) == 0 {
		return nil
	}
	p := s.waiters[0]
	copy(s.waiters, s.waiters[1:])
	s.waiters[len(s.waiters)-1] = nil
	s.waiters = s.waiters[:len(s.waiters)-1]
	return p
}

// Broadcast wakes every waiting process, in the order they started waiting.
func (s *Signal) Broadcast() {
	for i, p := range s.waiters {
		p.wake()
		s.waiters[i] = nil
	}
	s.waiters = s.waiters[:0]
}
