package nvme

// Hint is FastDrain's host-to-SSD hint carried in a Write SQE (docs/design.md "The hint protocol"):
// whether the write belongs to a page victimization (a writeback pass that overflows the
// SSD's write buffer) and how many pages that victimization still has to flush.
type Hint struct {
	Victim bool   // the write was issued by a victimization pass
	Pages  uint32 // pages the victimization still has to flush, this write included
}
