package nvmectrl

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// QueueStats are one I/O submission queue's commands and their controller-side latency,
// from the doorbell that published each entry to the arrival of its CQE in host memory:
// arbitration, the SQE fetch, the firmware's service and the completion's posting — what a
// queue's owner loses to the other queues at the controller. Kept only when enabled
// (EnableQueueStats).
type QueueStats struct {
	SQID     uint16
	Priority Priority
	Reads    int64
	Writes   int64
	Other    int64 // flushes, deallocations, zone management, …
	// Latency holds every I/O command's time from doorbell to CQE, ps.
	Latency sim.Histogram
}

// EnableQueueStats makes the controller keep QueueStats for every I/O submission queue
// from now on. It costs a histogram record per command, so a machine turns it on only when
// its queues belong to different tenants (several namespaces or queue groups).
func (c *Controller) EnableQueueStats() { c.qstats = true }

// QueueStats returns the statistics of the existing I/O submission queues, by SQID, or nil
// if they are not kept.
func (c *Controller) QueueStats() []*QueueStats {
	if !c.qstats {
		return nil
	}
	c.landed(c.eng.Now()) // the CQEs that have landed count
	var out []*QueueStats
	for _, q := range c.sqs {
		if q != nil && q.id != 0 {
			if q.stats == nil {
				q.stats = &QueueStats{SQID: q.id, Priority: q.prio}
			}
			out = append(out, q.stats)
		}
	}
	return out
}

// countQueue adds a completed I/O command to its SQ's statistics; the CQE has just landed.
func (c *Controller) countQueue(now sim.Time, cmd *Command) {
	q := c.sq(cmd.SQID)
	if q == nil || cmd.SQID == 0 {
		return
	}
	if q.stats == nil {
		q.stats = &QueueStats{SQID: q.id, Priority: q.prio}
	}
	switch cmd.SQE.Opcode() {
	case OpRead:
		q.stats.Reads++
	case OpWrite, OpZoneAppend:
		q.stats.Writes++
	default:
		q.stats.Other++
	}
	q.stats.Latency.Record(int64(now - cmd.Doorbell))
}

// String returns the priority class's configuration name.
func (p Priority) String() string {
	switch p {
	case PrioUrgent:
		return "urgent"
	case PrioHigh:
		return "high"
	case PrioMedium:
		return "medium"
	case PrioLow:
		return "low"
	}
	return fmt.Sprintf("Priority(%d)", uint8(p))
}

// ParsePriority parses "urgent", "high", "medium" or "low".
func ParsePriority(s string) (Priority, error) {
	for p := PrioUrgent; p <= PrioLow; p++ {
		if s == p.String() {
			return p, nil
		}
	}
	return 0, fmt.Errorf("priority %q is not one of urgent, high, medium, low", s)
}

// String returns the arbitration mechanism's configuration name.
func (a Arbitration) String() string {
	switch a {
	case ArbRoundRobin:
		return "rr"
	case ArbWRR:
		return "wrr"
	}
	return fmt.Sprintf("Arbitration(%d)", uint8(a))
}

// MarshalText implements encoding.TextMarshaler.
func (a Arbitration) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler: "rr" (round robin) or "wrr" (weighted
// round robin with urgent priority class).
func (a *Arbitration) UnmarshalText(b []byte) error {
	for _, v := range []Arbitration{ArbRoundRobin, ArbWRR} {
		if string(b) == v.String() {
			*a = v
			return nil
		}
	}
	return fmt.Errorf("arbitration %q is not one of rr, wrr", b)
}
