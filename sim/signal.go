package sim

// Signal is a condition that processes wait on. Notify wakes the longest waiter;
// Broadcast wakes all. A notification with nobody waiting is not remembered, so waiters
// re-check their condition in a loop, as with a condition variable.
type Signal struct {
	waiters []*Proc
}

// Waiting returns how many processes wait on s.
func (s *Signal) Waiting() int { return len(s.waiters) }

// Notify wakes the process that has waited longest, if any.
func (s *Signal) Notify() {
	if len(s.waiters) == 0 {
		return
	}
	p := s.waiters[0]
	copy(s.waiters, s.waiters[1:])
	s.waiters[len(s.waiters)-1] = nil
	s.waiters = s.waiters[:len(s.waiters)-1]
	p.wake()
}

// Broadcast wakes every waiting process, in the order they started waiting.
func (s *Signal) Broadcast() {
	for i, p := range s.waiters {
		p.wake()
		s.waiters[i] = nil
	}
	s.waiters = s.waiters[:0]
}
