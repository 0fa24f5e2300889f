package blk

import "github.com/fastdrain-sim/fastdrain/sim"

// scheduler is the elevator behind a Queue (struct elevator_mq_ops, reduced).
type scheduler interface {
	// insert adds a newly allocated request.
	insert(now sim.Time, rq *Request)
	// dispatch removes and returns the next request to offer the driver, or nil if none
	// may go now.
	dispatch(now sim.Time) *Request
	// completed is told that the driver completed rq.
	completed(now sim.Time, rq *Request)
	// frontMerged is told that a bio merged in front of queued rq (its Offset moved).
	frontMerged(rq *Request)
	// requestsMerged is told that queued gone was merged into queued into; it removes gone.
	requestsMerged(into, gone *Request)
}

// noneSched is the none scheduler: requests go to the driver in insertion order.
type noneSched struct {
	fifo rqList
}

func (s *noneSched) insert(_ sim.Time, rq *Request)  { s.fifo.pushBack(rq) }
func (s *noneSched) dispatch(sim.Time) *Request      { return s.fifo.popFront() }
func (s *noneSched) completed(sim.Time, *Request)    {}
func (s *noneSched) frontMerged(*Request)            {}
func (s *noneSched) requestsMerged(_, gone *Request) { s.fifo.remove(gone) }
