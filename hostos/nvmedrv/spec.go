package nvmedrv

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Spec is the immutable configuration of the NVMe driver. Start from DefaultSpec and edit.
type Spec struct {
	// Queues is the number of I/O queue pairs (one SQ and one CQ each, each CQ with its own
	// MSI-X vector). 0 means one per host core, as Linux creates one per CPU.
	Queues int `yaml:"queues"`
	// QueueDepth is the nvme module's io_queue_depth: entries per I/O queue, 2 to 4095,
	// default 1024 (docs/sources.md §1.4). The queues get q_depth = min(CAP.MQES+1, QueueDepth)
	// entries and the driver keeps at most q_depth − 1 commands in flight on each.
	QueueDepth int `yaml:"queue_depth"`
	// QueueMap chooses the queue pair of a request: "round_robin" or "tag" (Tag mod
	// Queues).
	QueueMap QueueMap `yaml:"queue_map"`
	// MaxTransfer is the driver's largest transfer per command (NVME_MAX_KB_SZ, 4 MiB in
	// Linux, docs/sources.md §1.4), a multiple of 4 KiB; the controller's MDTS caps it further.
	// Each command identifier owns a DMA buffer of this size, allocated once.
	MaxTransfer sim.Size `yaml:"max_transfer"`
	// SubmitCycles is the driver's cost of one nvme_queue_rq (set up the command, map the
	// data, copy the SQE), in host-core cycles. It delays the SQE, and so the doorbell, of
	// each request; it is serial per queue pair.
	SubmitCycles int64 `yaml:"submit_cycles"`
	// IRQCycles is the cost of taking one MSI-X interrupt (entry, exit, nvme_irq), charged
	// on the vector's host core before the completion queue is read.
	IRQCycles int64 `yaml:"irq_cycles"`
	// CQECycles is the cost of handling one completion entry (nvme_handle_cqe, unmapping,
	// ending the request), charged on the vector's core before the request completes.
	CQECycles int64 `yaml:"cqe_cycles"`
	// IRQPreempts runs each core's interrupt handlers in an interrupt context of their own
	// (a second calendar on the core's clock, "<core>.irq"), so a completion never waits
	// for the application or kernel work booked on the core, as a hardware interrupt
	// preempts the running task in Linux. The time it steals is not charged back to the
	// preempted task (about 1.3 µs per interrupt at the default cycles). Off, handlers
	// queue behind the core's booked work, which is what the model did before: with
	// Ungzip computing 205 µs chunks on a core, a completion routed there waited for the
	// chunk. Default on.
	IRQPreempts bool `yaml:"irq_preempts"`
	// Hint makes writeback-originated writes (blk.Request.Hint.Victim) carry FastDrain's
	// victimization hint in the controller's hint carrier. Off, no SQE carries it.
	Hint bool `yaml:"hint"`
	// Arbitration is the arbitration mechanism the driver selects in CC.AMS when it enables
	// the controller: rr (round robin, Linux's only choice, the default) or wrr (weighted
	// round robin with urgent priority class, which the controller must offer: nvme.wrr).
	Arbitration nvmectrl.Arbitration `yaml:"arbitration,omitempty"`
	// WriteQueues is the nvme module's write_queues: that many queue pairs for writes (and
	// flushes and discards) beside the shared set, which then takes the reads only
	// (tenants.go). 0, the default, shares one set for everything.
	WriteQueues int `yaml:"write_queues,omitempty"`
	// Tenants gives namespaces queue pairs of their own, with a priority class each
	// (tenants.go).
	Tenants []Tenant `yaml:"tenants,omitempty"`
}

// DefaultSpec returns the driver as Linux sets it up: one queue pair per core (used round
// robin), 1024-entry queues, 4 MiB maximum transfer, hints on. The CPU costs are modelling assumptions [U]:
// about 0.7 µs to submit, 1 µs per interrupt (the page cache's default irq_cycles) and
// 0.3 µs per completion at 3 GHz.
func DefaultSpec() Spec {
	return Spec{
		Queues:       0,
		QueueDepth:   1024,
		QueueMap:     MapRoundRobin,
		MaxTransfer:  4 * sim.MiB,
		SubmitCycles: 2000,
		IRQCycles:    3000,
		CQECycles:    1000,
		IRQPreempts:  true,
		Hint:         true,
	}
}

// Validate reports every problem with the spec, each naming its field.
func (s Spec) Validate() error {
	var errs []error
	bad := func(field string, v any, want string) {
		errs = append(errs, fmt.Errorf("nvmedrv.%s: %v %s", field, v, want))
	}
	if s.Queues < 0 || s.Queues > 65535 {
		bad("queues", s.Queues, "is not in 0..65535")
	}
	if s.QueueDepth < 2 || s.QueueDepth > 4095 {
		bad("queue_depth", s.QueueDepth, "is not in 2..4095")
	}
	if s.QueueMap > MapTag {
		bad("queue_map", s.QueueMap, "is not one of round_robin, tag")
	}
	if s.MaxTransfer < 4*sim.KiB || s.MaxTransfer > 32*sim.MiB || s.MaxTransfer%(4*sim.KiB) != 0 {
		bad("max_transfer", int64(s.MaxTransfer), "is not a multiple of 4096 in 4096..33554432")
	}
	for _, c := range []struct {
		name string
		v    int64
	}{{"submit_cycles", s.SubmitCycles}, {"irq_cycles", s.IRQCycles}, {"cqe_cycles", s.CQECycles}} {
		if c.v < 0 {
			bad(c.name, c.v, "is negative")
		}
	}
	errs = append(errs, s.validateQueues()...)
	return errors.Join(errs...)
}

// QueueMap is how requests are spread over the I/O queue pairs. The block layer has one
// hardware context, so Linux's per-CPU mapping has no submitting CPU to go by here.
type QueueMap uint8

// Queue mappings. The zero value is the default.
const (
	// MapRoundRobin sends requests to the queue pairs in turn, skipping full ones; a
	// request is refused only when every queue pair is full.
	MapRoundRobin QueueMap = iota
	// MapTag sends a request to queue pair Tag mod Queues, as blk-mq ties a tag to its
	// hardware context. With the block layer's queue depth set to Queues × Depth no
	// request is ever refused.
	MapTag
)

// String returns the mapping's configuration name.
func (m QueueMap) String() string {
	switch m {
	case MapRoundRobin:
		return "round_robin"
	case MapTag:
		return "tag"
	}
	return fmt.Sprintf("QueueMap(%d)", uint8(m))
}

// ParseQueueMap parses "round_robin" or "tag".
func ParseQueueMap(s string) (QueueMap, error) {
	for m := MapRoundRobin; m <= MapTag; m++ {
		if s == m.String() {
			return m, nil
		}
	}
	return 0, fmt.Errorf("queue map %q is not one of round_robin, tag", s)
}

// MarshalText implements encoding.TextMarshaler.
func (m QueueMap) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (m *QueueMap) UnmarshalText(b []byte) error {
	v, err := ParseQueueMap(string(b))
	if err == nil {
		*m = v
	}
	return err
}
