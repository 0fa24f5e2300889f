package hostos

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/nvmedrv"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// ValidateWith reports what New would refuse about a valid spec on a controller of cs,
// before anything is built: more I/O queue pairs than the controller has I/O queues or
// interrupt vectors, and a block layer that the driver's queues make invalid — New gives
// it the driver's tags, queue pairs × (q_depth − 1) with q_depth = min(nvme
// max_queue_entries, host.nvme.queue_depth) (Linux's tag set, docs/sources.md §1.4), and the
// controller's largest transfer as its largest request. Errors name the fields to change.
func (s Spec) ValidateWith(cs nvmectrl.Spec) error {
	nq := s.Driver.Queues
	from := "host.nvme.queues"
	if nq == 0 {
		nq, from = s.PageCache.CPU.Cores, "host.pagecache.cpu.cores (host.nvme.queues 0: one queue pair per core)"
	}
	if nq > cs.MaxIOQueues || nq >= cs.Vectors {
		return fmt.Errorf("%s: %d queue pairs need %d I/O queues and %d interrupt vectors; nvme.max_io_queues is %d and nvme.vectors %d",
			from, nq, nq, nq+1, cs.MaxIOQueues, cs.Vectors)
	}
	if err := s.Driver.CheckController(cs, s.PageCache.CPU.Cores, len(cs.NamespaceList())); err != nil {
		return err
	}
	// The smallest set of queue pairs a namespace's block queue takes its tags from.
	if s.Driver.WriteQueues > 0 {
		nq += s.Driver.WriteQueues
	}
	for _, t := range s.Driver.Tenants {
		nq = min(nq, t.Queues)
	}
	depth := min(cs.MaxQueueEntries, s.Driver.QueueDepth)
	maxXfer := nvmedrv.MaxTransferOn(s.Driver, cs)
	bs := s.Block
	bs.MaxRequestBytes = min(bs.MaxRequestBytes, sim.Size(maxXfer))
	bs.QueueDepth = nq * (depth - 1)
	var errs []error
	if err := bs.Validate(); err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			errs = append(errs, fmt.Errorf("host.block: with the driver's %d queue pairs × %d tags (host.nvme.queues, host.nvme.queue_depth, nvme.max_queue_entries) and largest transfer %d B (host.nvme.max_transfer, nvme.max_transfer): %s",
				nq, depth-1, maxXfer, line))
		}
	}
	return errors.Join(errs...)
}
