package blk

import "github.com/fastdrain-sim/fastdrain/sim"

// Stats are a queue's statistics. Counters only grow; histograms are in picoseconds.
type Stats struct {
	Bios          int64 // bios submitted
	Splits        int64 // extra parts made by splitting bios larger than MaxRequestBytes
	BackMerges    int64 // bio parts merged at the end of a queued request
	FrontMerges   int64 // bio parts merged in front of a queued request
	RequestMerges int64 // queued requests merged into a neighbour
	RequestWaits  int64 // bios that had to wait for a request (Linux would sleep)
	Requests      int64 // requests allocated
	Dispatched    int64 // requests the driver accepted
	Requeued      int64 // offers the driver refused
	Completed     int64 // requests completed
	Errors        int64 // requests completed with an error

	// Latencies by operation (index with Op). QueueTime is allocation to (last) dispatch,
	// DeviceTime dispatch to completion, Latency allocation to completion, per request;
	// BioLatency is Submit to completion per bio (including any wait for a request).
	QueueTime, DeviceTime, Latency, BioLatency [NumOps]sim.Histogram

	// Kyber decisions: requests dispatched per domain, dispatch attempts refused for want
	// of a token (kyber_throttled), timer runs, runs that found congestion, and every
	// depth change in order.
	DomainDispatches [NumDomains]int64
	Throttled        [NumDomains]int64
	KyberTimerRuns   int64
	KyberCongested   int64
	DepthChanges     []DepthChange

	// mq-deadline decisions: batches started, batches started at an expired FIFO head, and
	// batches given to writes because reads had passed them writes_starved times.
	DeadlineBatches int64
	DeadlineExpired int64
	DeadlineStarved int64

	// Writeback throttling: request parts that had to wait for it, monitoring windows ended,
	// and every change of its scale step in order.
	WBTWaits   int64
	WBTWindows int64
	WBTSteps   []WBTStep

	// Sync writes (REQ_SYNC, not O_DIRECT: fsync's), per request: allocation to dispatch
	// and dispatch to completion; SyncWriteWait is per bio, Submit to its last part's
	// request allocation (the wait for writeback throttling and for a request).
	SyncWriteQueue, SyncWriteDevice, SyncWriteWait sim.Histogram

	// Zones counts a zoned queue's write plugging and resets (zoned.go).
	Zones ZoneStats
}

// WBTStep is one change of writeback throttling's scale step and the depths it gives.
type WBTStep struct {
	At                 sim.Time
	Step               int // scale_step: > 0 throttles harder, < 0 only writes were seen
	MaxDepth           int // writes a REQ_SYNC write may find in flight
	Normal, Background int // wb_normal, wb_background
}

func (s *Stats) init(name string) {
	for op := range NumOps {
		p := name + "." + op.String()
		s.QueueTime[op].Name = p + ".queue_time"
		s.DeviceTime[op].Name = p + ".device_time"
		s.Latency[op].Name = p + ".latency"
		s.BioLatency[op].Name = p + ".bio_latency"
	}
}

// record adds a completed request's latencies.
func (s *Stats) record(rq *Request) {
	s.QueueTime[rq.Op].Record(int64(rq.Dispatch - rq.Alloc))
	s.DeviceTime[rq.Op].Record(int64(rq.Complete - rq.Dispatch))
	if rq.Op == OpWrite && rq.Sync && len(rq.Bios) > 0 && !rq.Bios[0].Idle {
		s.SyncWriteQueue.Record(int64(rq.Dispatch - rq.Alloc))
		s.SyncWriteDevice.Record(int64(rq.Complete - rq.Dispatch))
	}
	s.Latency[rq.Op].Record(int64(rq.Complete - rq.Alloc))
}

// Track adds the queue's occupancy to s: requests in the driver, allocated requests, bios
// waiting for a request and, with kyber, each domain's token depth.
func (q *Queue) Track(s *sim.Sampler) {
	s.Track(q.name+".in_driver", func() int64 { return int64(q.inDriver) })
	s.Track(q.name+".allocated", func() int64 { return int64(q.allocated) })
	s.Track(q.name+".waiting_bios", func() int64 { return int64(q.Waiting()) })
	if _, ok := q.sched.(*kyber); ok {
		for d := DomainRead; d < NumDomains; d++ {
			s.Track(q.name+".kyber_depth."+d.String(), func() int64 { return int64(q.KyberDepth(d)) })
		}
	}
}
