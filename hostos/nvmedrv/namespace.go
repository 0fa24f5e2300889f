package nvmedrv

import (
	"encoding/binary"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Namespace is the driver's side of one namespace: the block device Linux makes of it
// (/dev/nvme0nN, struct nvme_ns) with its own request queue above, sharing the
// controller's I/O queue pairs (its tag set) with the other namespaces unless it has
// queue pairs of its own (a tenant's, Spec.Tenants). It implements blk.Driver: the block
// queue of the namespace hands its requests to QueueRequest, and the driver completes
// them to that queue.
type Namespace struct {
	d      *Driver
	nsid   uint32
	lba    int64  // logical block size, bytes (Identify Namespace FLBAS)
	blocks uint64 // NSZE
	typ    nvmectrl.NSType
	// A zoned namespace's zone size in logical blocks and open and active limits (0: none),
	// from its Zoned Namespace command set Identify structure (zoned.go).
	zoneBlocks         uint64
	maxOpen, maxActive int
	// plids are the namespace's FDP placement identifiers (ns->head->plids): write stream
	// s carries plids[s−1]. Empty without Flexible Data Placement.
	plids []uint16
	upper Upper
	qs    []*queue // the queue pairs its requests go to
	rqs   []*queue // the queue pairs its reads go to, if not qs (Spec.WriteQueues)
	rr    int      // the next of qs for round robin
	rrr   int      // the next of rqs
	// refused marks a namespace whose request was refused for want of a command
	// identifier: the driver restarts its queue when a completion frees one.
	refused bool
}

// probeNamespaces reads the controller's namespace table as nvme_scan_work does: Identify
// Controller's NN, then Identify Namespace of each active NSID for its size and LBA format
// (and, for a zoned one, the Zoned Namespace command set's structure).
func (d *Driver) probeNamespaces(id [nvmectrl.IdentifySize]byte) error {
	nn := binary.LittleEndian.Uint32(id[nvmectrl.IdentifyNN:])
	for nsid := uint32(1); nsid <= nn; nsid++ {
		nid, ok := d.ctrl.IdentifyNamespace(nsid)
		if !ok {
			return fmt.Errorf("nvmedrv %s: Identify Namespace of NSID %d, one of the %d the controller reports, failed", d.name, nsid, nn)
		}
		lba, err := nvmectrl.ParseLBAFormat(nid[:])
		if err != nil {
			return fmt.Errorf("nvmedrv %s: NSID %d: %w", d.name, nsid, err)
		}
		ns := &Namespace{d: d, nsid: nsid, lba: int64(lba), blocks: binary.LittleEndian.Uint64(nid[nvmectrl.IdentifyNSZE:])}
		if zid, zoned := d.ctrl.IdentifyZonedNamespace(nsid); zoned {
			ns.typ = nvmectrl.NSZoned
			ns.zoneInfo(zid, int(nid[nvmectrl.IdentifyFLBAS]&0xF))
		}
		if binary.LittleEndian.Uint32(id[nvmectrl.IdentifyCTRATT:])&nvmectrl.CTRATTFDPS != 0 && d.cspec.FDP.Enabled {
			ns.plids = d.placementIDs(nsid)
		}
		d.nss = append(d.nss, ns)
	}
	if len(d.nss) == 0 {
		return fmt.Errorf("nvmedrv %s: the controller reports no namespace", d.name)
	}
	return nil
}

// placementIDs returns namespace nsid's placement identifiers as Linux 6.16's
// nvme_query_fdp_info learns them (one per Reclaim Unit Handle Status descriptor, from I/O
// Management Receive): with one reclaim group (RGIF 0) the identifier of placement handle
// i is i; with several, group g's placement handle i is g << (16 − RGIF) | i. The model reads the handle list from the controller's spec instead of issuing
// the command at probe, which changes no result (probe is outside the timed run).
func (d *Driver) placementIDs(nsid uint32) []uint16 {
	n := len(d.cspec.NamespaceList()[nsid-1].PlacementHandles)
	if n == 0 {
		n = d.cspec.FDP.ReclaimUnitHandles()
	}
	// One per Reclaim Unit Handle Status descriptor (nvme_query_fdp_info reads the PIDs
	// from I/O Management Receive): each placement handle in each reclaim group, group
	// by group (firmware/fdp.go, ioMgmtReceive).
	fdp := d.cspec.FDP
	var ids []uint16
	for g := range fdp.Groups() {
		for ph := range n {
			ids = append(ids, fdp.PID(g, ph))
		}
	}
	return ids
}

// WriteStreams returns the write streams the namespace offers (max_write_streams, Linux
// 6.16: one per FDP placement identifier), 0 without Flexible Data Placement.
func (n *Namespace) WriteStreams() int { return len(n.plids) }

// Namespace returns namespace nsid (1 …), or nil if the controller has none by that NSID.
func (d *Driver) Namespace(nsid uint32) *Namespace {
	if nsid == 0 || nsid > uint32(len(d.nss)) {
		return nil
	}
	return d.nss[nsid-1]
}

// Namespaces returns the controller's namespaces, NSID i+1 at index i.
func (d *Driver) Namespaces() []*Namespace { return d.nss }

// NSID returns the namespace's identifier.
func (n *Namespace) NSID() uint32 { return n.nsid }

// LogicalBlockSize returns the namespace's LBA size in bytes; request offsets and sizes
// must be multiples of it.
func (n *Namespace) LogicalBlockSize() int { return int(n.lba) }

// Capacity returns the namespace's size in bytes (NSZE × LBA size).
func (n *Namespace) Capacity() int64 { return int64(n.blocks) * n.lba }

// Zoned reports whether the namespace uses the Zoned Namespace command set.
func (n *Namespace) Zoned() bool { return n.typ == nvmectrl.NSZoned }

// Queues returns how many I/O queue pairs the namespace's requests use (its reads' and
// its other requests' together).
func (n *Namespace) Queues() int { return len(n.qs) + len(n.rqs) }

// QueueIDs returns the identifiers of the namespace's I/O queue pairs.
func (n *Namespace) QueueIDs() []uint16 {
	var ids []uint16
	for _, q := range append(n.qs[:len(n.qs):len(n.qs)], n.rqs...) {
		ids = append(ids, q.id)
	}
	return ids
}

// Depth returns the commands each of its queue pairs holds in flight.
func (n *Namespace) Depth() int { return len(n.qs[0].slots) }

// SetUpper attaches the block queue the namespace's requests complete to.
func (n *Namespace) SetUpper(u Upper) { n.upper = u }

// VolatileWriteCache reports the controller's Identify Controller VWC bit 0, shared by its
// namespaces (blk.DeviceCache).
func (n *Namespace) VolatileWriteCache() bool { return n.d.vwc }

// QueueRequest implements blk.Driver for the namespace (nvme_queue_rq): see
// Driver.QueueRequest.
func (n *Namespace) QueueRequest(now sim.Time, rq *blk.Request) bool {
	return n.d.queueRequest(now, n, rq)
}
