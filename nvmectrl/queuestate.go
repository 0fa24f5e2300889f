package nvmectrl

// QueueState is one I/O submission queue's commands as the controller holds them, with its
// completion queue's, for diagnosis (a stalled run's report): read when asked, never
// kept.
type QueueState struct {
	SQID, CQID uint16
	// Unfetched counts the entries the host has announced (SQ tail doorbell) that the
	// controller has not begun to fetch; Busy the commands from the start of their fetch to
	// the arrival of their completion entry in host memory (with the firmware, or their
	// CQE on its way).
	Unfetched, Busy int
	// Posted counts the CQ's entries written and not yet released by a CQ head doorbell
	// (the host has not consumed them, or its doorbell is on its way); Waiting the
	// completions waiting for room in the full CQ. A CQ several SQs share shows in each.
	Posted, Waiting int
}

// QueueStates returns the states of the existing I/O submission queues, by SQID.
func (c *Controller) QueueStates() []QueueState {
	var out []QueueState
	for _, q := range c.sqs {
		if q == nil || q.id == 0 {
			continue
		}
		s := QueueState{SQID: q.id, CQID: q.cqid, Unfetched: int(q.pending()), Busy: q.busy}
		if cq := c.cq(q.cqid); cq != nil {
			// The head as of now: the last head doorbell that has arrived, applied or not
			// (the controller applies them when it next posts, cqArrived).
			head, now := cq.head, c.eng.Now()
			for _, d := range cq.inFlight {
				if d.at <= now {
					head = d.head
				}
			}
			s.Posted = int((cq.tail + cq.size - head) % cq.size)
			for w := cq.waitHead; w != nil; w = w.next {
				s.Waiting++
			}
		}
		out = append(out, s)
	}
	return out
}
