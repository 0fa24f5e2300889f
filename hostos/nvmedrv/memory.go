package nvmedrv

import (
	"unsafe"

	"github.com/fastdrain-sim/fastdrain/nvmectrl"
)

// MemoryBytes returns the heap New takes for spec on a controller of cs with cores host
// cores, as New sizes it: per I/O queue pair (Spec.QueuePairs), its command
// slots (q_depth − 1, each with a free-list entry and its PRP list addresses) and, in the
// controller's host memory, a 16-byte page-table entry (page pointer and first word) per 4 KiB of address space given
// out: the rings, each slot's DMA buffer of the largest transfer and its PRP list pages.
// Host memory pages themselves are allocated only when data is written into them, 4 KiB
// a page of the buffers a run has used; that is not counted here (it depends on the
// workload's concurrency and request sizes). Settings New refuses give 0.
func (s Spec) MemoryBytes(cs nvmectrl.Spec, cores int) int64 {
	nq := s.QueuePairs(cores)
	if nq < 1 || nq > cs.MaxIOQueues || nq >= cs.Vectors {
		return 0
	}
	maxXfer := MaxTransferOn(s, cs)
	depth := min(cs.MaxQueueEntries, s.QueueDepth)
	pagesOf := func(b int) int64 { return int64((b + nvmectrl.PageSize - 1) / nvmectrl.PageSize) }
	lp := nvmectrl.PRPListPages(0, maxXfer)
	slots := int64(depth - 1)
	perQueue := int64(unsafe.Sizeof(queue{})) + int64(unsafe.Sizeof(vector{})) +
		slots*(int64(unsafe.Sizeof(slot{})+unsafe.Sizeof(uint16(0)))+int64(lp)*8)
	pages := pagesOf(AdminDepth*nvmectrl.SQESize) + pagesOf(AdminDepth*nvmectrl.CQESize) +
		int64(nq)*pagesOf(queueBytes(depth, maxXfer))
	// The page table: a page pointer and a first word a page (nvmectrl.HostMemory), grown
	// once to hold every queue's pages (HostMemory.Reserve).
	return int64(unsafe.Sizeof(Driver{})) + int64(nq)*perQueue + pages*16
}
