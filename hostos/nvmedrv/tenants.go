package nvmedrv

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Queue sets. Linux's driver creates one I/O queue pair per CPU and shares them among the
// namespaces of a controller; with the nvme module's write_queues parameter it creates a
// second set, HCTX_TYPE_DEFAULT queues for writes beside HCTX_TYPE_READ queues for reads
// (drivers/nvme/host/pci.c, nvme_calc_irq_sets: read queues = CPUs, default queues =
// write_queues). A tenant — a namespace given to one user, as an NVMe controller does for
// each of several virtual machines or containers — may have queue pairs of its own
// (Spec.Tenants), each with the QPRIO its submission queues are created with, which
// weighted round robin arbitration (Spec.Arbitration) then honours. Stock Linux creates
// every SQ medium priority and never selects weighted round robin; per-tenant queues and
// priorities are what an SPDK or a virtualised front end does, and what MQSim's flows
// model.

// QueuePriority is a queue pair's priority class in the configuration: medium (the zero
// value, Linux's), urgent, high or low; it is the SQ's QPRIO.
type QueuePriority uint8

// Queue priorities. The zero value is medium.
const (
	PrioMedium QueuePriority = iota
	PrioUrgent
	PrioHigh
	PrioLow
)

// nvme returns the priority as the controller's QPRIO.
func (p QueuePriority) nvme() nvmectrl.Priority {
	switch p {
	case PrioUrgent:
		return nvmectrl.PrioUrgent
	case PrioHigh:
		return nvmectrl.PrioHigh
	case PrioLow:
		return nvmectrl.PrioLow
	}
	return nvmectrl.PrioMedium
}

// String returns the configuration name.
func (p QueuePriority) String() string { return p.nvme().String() }

// MarshalText implements encoding.TextMarshaler.
func (p QueuePriority) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler: urgent, high, medium or low.
func (p *QueuePriority) UnmarshalText(b []byte) error {
	for _, v := range []QueuePriority{PrioMedium, PrioUrgent, PrioHigh, PrioLow} {
		if string(b) == v.String() {
			*p = v
			return nil
		}
	}
	return fmt.Errorf("queue priority %q is not one of urgent, high, medium, low", b)
}

// Tenant gives a namespace queue pairs of its own.
type Tenant struct {
	// Namespace is the NSID whose requests use the tenant's queue pairs.
	Namespace uint32 `yaml:"namespace"`
	// Queues is the number of queue pairs, at least 1.
	Queues int `yaml:"queues"`
	// Priority is their SQs' priority class (QPRIO): medium (default), urgent, high or low.
	// It matters only under weighted round robin (Spec.Arbitration wrr).
	Priority QueuePriority `yaml:"priority,omitempty"`
}

// validateQueues reports every problem with the queue-set settings, each naming its field.
func (s Spec) validateQueues() []error {
	var errs []error
	if s.Arbitration > nvmectrl.ArbWRR {
		errs = append(errs, fmt.Errorf("nvmedrv.arbitration: %v is not one of rr, wrr", s.Arbitration))
	}
	if s.WriteQueues < 0 || s.WriteQueues > 65535 {
		errs = append(errs, fmt.Errorf("nvmedrv.write_queues: %d is not in 0..65535", s.WriteQueues))
	}
	seen := map[uint32]int{}
	for i, t := range s.Tenants {
		if t.Namespace == 0 || t.Namespace > nvmectrl.MaxNamespaces {
			errs = append(errs, fmt.Errorf("nvmedrv.tenants[%d].namespace: %d is not an NSID in 1..%d", i, t.Namespace, nvmectrl.MaxNamespaces))
		}
		if j, dup := seen[t.Namespace]; dup {
			errs = append(errs, fmt.Errorf("nvmedrv.tenants[%d].namespace: %d already has queue pairs (tenants[%d])", i, t.Namespace, j))
		}
		seen[t.Namespace] = i
		if t.Queues < 1 || t.Queues > 65535 {
			errs = append(errs, fmt.Errorf("nvmedrv.tenants[%d].queues: %d is not in 1..65535", i, t.Queues))
		}
		if t.Priority > PrioLow {
			errs = append(errs, fmt.Errorf("nvmedrv.tenants[%d].priority: %v is not one of urgent, high, medium, low", i, t.Priority))
		}
	}
	return errs
}

// QueuePairs returns how many I/O queue pairs the driver creates with cores host cores:
// the shared set (Queues, or one per core), the write set (WriteQueues) and every tenant's.
func (s Spec) QueuePairs(cores int) int {
	n := s.Queues
	if n == 0 {
		n = cores
	}
	n += s.WriteQueues
	for _, t := range s.Tenants {
		n += t.Queues
	}
	return n
}

// CheckController reports what New would refuse of the queue sets on a controller of cs
// with namespaces namespaces: more queue pairs than it has I/O queues or vectors, weighted
// round robin it does not offer, a tenant of a namespace it does not have.
func (s Spec) CheckController(cs nvmectrl.Spec, cores, namespaces int) error {
	var errs []error
	if nq := s.QueuePairs(cores); nq > cs.MaxIOQueues || nq >= cs.Vectors {
		errs = append(errs, fmt.Errorf("%d queue pairs (host.nvme.queues or one a core, write_queues, tenants) need %d I/O queues and %d interrupt vectors; nvme.max_io_queues is %d and nvme.vectors %d",
			nq, nq, nq+1, cs.MaxIOQueues, cs.Vectors))
	}
	if s.Arbitration == nvmectrl.ArbWRR && !cs.WRR {
		errs = append(errs, errors.New("host.nvme.arbitration: wrr needs a controller that offers weighted round robin (nvme.wrr: true)"))
	}
	for i, t := range s.Tenants {
		if int(t.Namespace) > namespaces {
			errs = append(errs, fmt.Errorf("host.nvme.tenants[%d].namespace: %d, but the controller has %d namespaces (nvme.namespaces)", i, t.Namespace, namespaces))
		}
	}
	return errors.Join(errs...)
}

// queueSet creates n queue pairs with priority prio from qid on, their interrupts handled on
// the cores in turn from core index next; it returns them and the next qid and core index.
func (d *Driver) queueSet(n int, prio nvmectrl.Priority, qid uint16, next, depth int) ([]*queue, uint16, int, error) {
	var qs []*queue
	for range n {
		q, err := d.addQueue(qid, depth, d.handlerCore(next), prio)
		if err != nil {
			return nil, 0, 0, err
		}
		qs = append(qs, q)
		qid++
		next++
	}
	return qs, qid, next, nil
}

// handlerCore returns the core the i-th queue pair's interrupts are handled on:
// cores[i mod cores], or its interrupt context with Spec.IRQPreempts.
func (d *Driver) handlerCore(i int) *sim.Core {
	k := i % len(d.cores)
	if !d.spec.IRQPreempts {
		return d.cores[k]
	}
	for len(d.irqs) <= k {
		c := d.cores[len(d.irqs)]
		d.irqs = append(d.irqs, sim.NewCore(c.Name()+".irq", c.Clock))
	}
	return d.irqs[k]
}
