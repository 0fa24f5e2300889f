package nvmedrv

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// AdminDepth is the admin queue size the driver enables the controller with when it finds
// it disabled (Linux NVME_AQ_DEPTH).
const AdminDepth = 32

// Upper is the block layer as the driver calls it back; *blk.Queue implements it.
// Complete ends a request the driver took with QueueRequest; Restart tells the block
// layer that a request QueueRequest refused may now be retried.
type Upper interface {
	Complete(now sim.Time, rq *blk.Request, err error)
	Restart(now sim.Time)
}

// Stats counts what the driver did.
type Stats struct {
	Submitted   int64    // requests taken by QueueRequest
	Refused     int64    // QueueRequest calls refused for lack of a free command identifier
	Hinted      int64    // writes that carried the victimization hint
	SQDoorbells int64    // SQ tail doorbell writes
	CQDoorbells int64    // CQ head doorbell writes
	Interrupts  int64    // interrupts taken
	Spurious    int64    // interrupts that found no new completion
	Completions int64    // completion entries handled
	Errors      int64    // completions with a status other than success
	Levels      [3]int64 // buffer levels decoded, by level (low, mid, high)
	Restarts    int64    // Upper.Restart calls
}

// slot is one command identifier of a queue pair: its DMA buffer, the PRP list pages that
// map it, and the request it carries while in flight with its namespace.
type slot struct {
	rq    *blk.Request
	ns    *Namespace
	buf   uint64   // page-aligned DMA buffer of maxXfer bytes
	lists []uint64 // PRP list pages for the buffer
}

// queue is the driver's state of one I/O queue pair (struct nvme_queue).
type queue struct {
	id     uint16
	vec    *vector
	sqBase uint64
	cqBase uint64
	depth  int // q_depth: entries in each ring

	sqTail   int      // next SQ slot to fill (sq_tail)
	lastTail int      // tail at the last SQ doorbell (last_sq_tail)
	subFree  sim.Time // when the driver's submission work on this queue ends
	dbArmed  bool     // a batch doorbell event is scheduled

	cqHead int   // next CQ entry to read (cq_head)
	phase  uint8 // phase tag expected next (cq_phase)

	slots []slot
	free  []uint16 // free command identifiers, used as a stack
	sqe   nvmectrl.SQE
	cqe   nvmectrl.CQE
}

// inflight returns how many commands the queue has outstanding.
func (q *queue) inflight() int { return len(q.slots) - len(q.free) }

// Driver is the NVMe host driver of one controller. It implements blk.Driver (QueueRequest)
// and nvmectrl.Host (Interrupt).
type Driver struct {
	// Stats counts operations; read it, do not write it.
	Stats Stats
	// OnLevel, if set, receives the SSD buffer level decoded from every I/O completion that
	// carries one, in completion order; FastDrain hooks the page cache's SetBufferLevel here.
	OnLevel func(now sim.Time, level bufferlevel.Level)

	name    string
	spec    Spec
	eng     *sim.Engine
	ctrl    *nvmectrl.Controller
	cspec   nvmectrl.Spec
	mem     *nvmectrl.HostMemory
	cores   []*sim.Core
	irqs    []*sim.Core // each core's interrupt context (Spec.IRQPreempts), by core index
	queues  []*queue
	vectors []*vector    // by MSI-X vector number; nil where none
	nss     []*Namespace // NSID i+1 at index i (namespace.go)

	maxXfer int  // bytes per command: min(Spec.MaxTransfer, controller MDTS)
	refused bool // some namespace's request was refused (Namespace.refused says which)
	vwc     bool // Identify Controller VWC bit 0: the controller has a volatile write cache

	rangeBuf [16]byte
	lastDone sim.Time // when the last completion entry was handled (inflight.go)
}

// New probes controller ctrl the way nvme_probe and nvme_setup_io_queues do: it enables the
// controller with an admin queue pair if it is not ready, reads its Identify Controller data
// (the VWC bit: VolatileWriteCache), then creates the I/O queue pairs
// (CQ first, then SQ, each CQ on its own MSI-X vector 1, 2, …) with the controller's set-up
// calls, and allocates the rings, the per-command DMA buffers and their PRP list pages in
// the controller's host memory. Queue pair i's interrupts are handled on cores[i mod
// len(cores)]. New
// registers the driver as the controller's host. It returns an error if the spec is invalid
// or the controller cannot hold the queues.
func New(name string, spec Spec, eng *sim.Engine, ctrl *nvmectrl.Controller, cores []*sim.Core) (*Driver, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	if len(cores) == 0 {
		return nil, fmt.Errorf("nvmedrv %s: no host cores", name)
	}
	cs := ctrl.Spec()
	nq := spec.Queues
	if nq == 0 {
		nq = len(cores)
	}
	if all := spec.QueuePairs(len(cores)); all > cs.MaxIOQueues || all >= cs.Vectors {
		return nil, fmt.Errorf("nvmedrv %s: %d queue pairs need %d I/O queues and %d vectors; the controller has %d and %d",
			name, all, all, all+1, cs.MaxIOQueues, cs.Vectors)
	}
	d := &Driver{name: name, spec: spec, eng: eng, ctrl: ctrl, cspec: cs, mem: ctrl.Memory(), cores: cores,
		maxXfer: MaxTransferOn(spec, cs)}
	if ctrl.ReadReg(nvmectrl.RegCSTS)&nvmectrl.CSTSReady == 0 {
		asq, acq := d.mem.Alloc(AdminDepth*nvmectrl.SQESize), d.mem.Alloc(AdminDepth*nvmectrl.CQESize)
		if err := ctrl.Enable(asq, acq, AdminDepth, spec.Arbitration); err != nil {
			return nil, fmt.Errorf("nvmedrv %s: %w", name, err)
		}
	}
	// nvme_init_identify keeps Identify Controller's VWC (ctrl->vwc = id->vwc), and
	// nvme_set_queue_limits gives the block queue a write cache and FUA only if bit 0 is set.
	id := ctrl.IdentifyController()
	d.vwc = id[nvmectrl.IdentifyVWC]&nvmectrl.VWCPresent != 0
	if err := d.probeNamespaces(id); err != nil {
		return nil, err
	}
	// q_depth = min(CAP.MQES + 1, io_queue_depth) (docs/sources.md §1.4).
	depth := min(int(ctrl.ReadReg(nvmectrl.RegCAP)&0xFFFF)+1, spec.QueueDepth)
	d.vectors = make([]*vector, spec.QueuePairs(len(cores))+1)
	d.mem.Reserve(spec.QueuePairs(len(cores)) * queueBytes(depth, d.maxXfer))
	if err := d.setupQueues(nq, depth); err != nil {
		return nil, err
	}
	if len(d.nss) > 1 || len(spec.Tenants) > 0 {
		ctrl.EnableQueueStats() // queues of different tenants: keep their latencies apart
	}
	ctrl.SetHost(d)
	return d, nil
}

// queueBytes is the host memory addQueue allocates for a queue pair of depth entries whose
// slots carry transfers of maxXfer bytes, in whole pages: its rings, and each slot's DMA
// buffer and PRP list pages.
func queueBytes(depth, maxXfer int) int {
	pages := func(b int) int { return (b + nvmectrl.PageSize - 1) / nvmectrl.PageSize }
	return nvmectrl.PageSize * (pages(depth*nvmectrl.SQESize) + pages(depth*nvmectrl.CQESize) +
		(depth-1)*(pages(maxXfer)+nvmectrl.PRPListPages(0, maxXfer)))
}

// setupQueues creates the queue sets (tenants.go): the nq shared queue pairs, then the
// write set, then each tenant's, and gives every namespace its queue pairs.
func (d *Driver) setupQueues(nq, depth int) error {
	shared, qid, next, err := d.queueSet(nq, nvmectrl.PrioMedium, 1, 0, depth)
	if err != nil {
		return err
	}
	var writes []*queue
	if d.spec.WriteQueues > 0 {
		if writes, qid, next, err = d.queueSet(d.spec.WriteQueues, nvmectrl.PrioMedium, qid, next, depth); err != nil {
			return err
		}
	}
	for _, ns := range d.nss { // every namespace shares the queue pairs (one tag set)
		ns.qs = shared
		if writes != nil { // reads on the read queues, the rest on the default (write) ones
			ns.qs, ns.rqs = writes, shared
		}
	}
	for i, t := range d.spec.Tenants {
		ns := d.Namespace(t.Namespace)
		if ns == nil {
			return fmt.Errorf("nvmedrv %s: tenants[%d].namespace: the controller has no namespace %d", d.name, i, t.Namespace)
		}
		var qs []*queue
		if qs, qid, next, err = d.queueSet(t.Queues, t.Priority.nvme(), qid, next, depth); err != nil {
			return err
		}
		ns.qs, ns.rqs = qs, nil
	}
	return nil
}

// MaxTransferOn returns the driver's largest transfer on a controller of cs: Spec.MaxTransfer
// capped by the controller's MDTS, and by the 16-bit NLB of the smallest logical block any
// namespace has.
func MaxTransferOn(s Spec, cs nvmectrl.Spec) int {
	m := min(int(s.MaxTransfer), cs.MaxTransfer)
	for _, ns := range cs.NamespaceList() {
		if ns.LBASize > 0 && m/ns.LBASize > 1<<16 {
			m = ns.LBASize << 16 // NLB is 16 bits
		}
	}
	return m
}

// addQueue creates I/O queue pair qid of depth entries with SQ priority class prio, its
// vector and its command slots.
func (d *Driver) addQueue(qid uint16, depth int, core *sim.Core, prio nvmectrl.Priority) (*queue, error) {
	q := &queue{id: qid, depth: depth, phase: 1}
	q.sqBase = d.mem.Alloc(depth * nvmectrl.SQESize)
	q.cqBase = d.mem.Alloc(depth * nvmectrl.CQESize)
	if st := d.ctrl.CreateCQ(nvmectrl.CQConfig{ID: qid, Base: q.cqBase, Entries: depth, IEN: true, Vector: qid}); !st.OK() {
		return nil, fmt.Errorf("nvmedrv %s: create I/O CQ %d: %v", d.name, qid, st)
	}
	// QPRIO medium, as Linux does for every SQ (NVME_QUIRK_MEDIUM_PRIO_SQ, docs/sources.md §1.6),
	// unless a tenant's queue pairs ask for another class.
	if st := d.ctrl.CreateSQ(nvmectrl.SQConfig{ID: qid, Base: q.sqBase, Entries: depth, CQID: qid,
		Priority: prio}); !st.OK() {
		return nil, fmt.Errorf("nvmedrv %s: create I/O SQ %d: %v", d.name, qid, st)
	}
	// Tag depth q_depth − 1: the SQ can never overrun without reading SQHD (docs/sources.md §1.4).
	n := depth - 1
	q.slots = make([]slot, n)
	q.free = make([]uint16, n)
	lp := nvmectrl.PRPListPages(0, d.maxXfer) // the buffer is page aligned
	lists := make([]uint64, n*lp)
	for i := range q.slots {
		s := &q.slots[i]
		s.buf = d.mem.Alloc(d.maxXfer)
		s.lists = lists[i*lp : (i+1)*lp : (i+1)*lp]
		for j := range s.lists {
			s.lists[j] = d.mem.Alloc(nvmectrl.PageSize)
		}
		q.free[n-1-i] = uint16(i) // identifier 0 on top
	}
	v := newVector(d, int(qid), core)
	v.qs = append(v.qs, q)
	q.vec = v
	d.vectors[qid] = v
	d.queues = append(d.queues, q)
	return q, nil
}

// VolatileWriteCache reports whether the controller has a volatile write cache (Identify
// Controller VWC bit 0), which the block queue takes for its write_cache setting when that
// is auto (blk.DeviceCache; Linux blk_queue_write_cache(q, vwc, vwc)).
func (d *Driver) VolatileWriteCache() bool { return d.vwc }

// IRQCores returns the cores' interrupt contexts (Spec.IRQPreempts), nil when off.
func (d *Driver) IRQCores() []*sim.Core { return d.irqs }

// SetUpper attaches the block layer queue the driver completes namespace 1's requests to.
func (d *Driver) SetUpper(u Upper) { d.nss[0].upper = u }

// Name returns the driver's name.
func (d *Driver) Name() string { return d.name }

// Spec returns the driver's configuration.
func (d *Driver) Spec() Spec { return d.spec }

// Queues returns the number of I/O queue pairs (blk-mq's nr_hw_queues).
func (d *Driver) Queues() int { return len(d.queues) }

// Depth returns the commands each queue pair holds in flight, q_depth − 1 (the tag set's
// queue_depth, docs/sources.md §1.4).
func (d *Driver) Depth() int { return len(d.queues[0].slots) }

// QueueEntries returns q_depth, the number of entries in each SQ and CQ ring.
func (d *Driver) QueueEntries() int { return d.queues[0].depth }

// MaxTransfer returns the largest request in bytes (max_hw_sectors × 512): min(Spec.
// MaxTransfer, the controller's MDTS). The block layer must not build larger requests.
func (d *Driver) MaxTransfer() int { return d.maxXfer }

// LogicalBlockSize returns namespace 1's LBA size in bytes; request offsets and sizes must
// be multiples of it.
func (d *Driver) LogicalBlockSize() int { return int(d.nss[0].lba) }

// Inflight returns the commands outstanding on all queue pairs.
func (d *Driver) Inflight() int {
	n := 0
	for _, q := range d.queues {
		n += q.inflight()
	}
	return n
}

// bug reports a model bug with the driver's name and the simulated time.
func (d *Driver) bug(format string, args ...any) {
	panic(fmt.Sprintf("nvmedrv %s at %v: %s", d.name, d.eng.Now(), fmt.Sprintf(format, args...)))
}
