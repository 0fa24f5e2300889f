package nvmedrv

import (
	"encoding/binary"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
)

// Zoned namespaces (drivers/nvme/host/zns.c): at probe the driver reads the Zoned
// Namespace command set's Identify Namespace structure, its zone size (LBA Format
// Extension ZSZE of the format in use) and open and active limits (MOR, MAR, 0's based,
// FFFFFFFFh none), as nvme_query_zone_info does; a zone reset request becomes a Zone
// Management Send with the Reset Zone action (nvme_setup_zone_mgmt_send).

// zoneInfo reads a zoned namespace's Identify data (after its LBA format is known).
func (n *Namespace) zoneInfo(id [nvmectrl.IdentifySize]byte, format int) {
	n.zoneBlocks = binary.LittleEndian.Uint64(id[nvmectrl.ZNSIdentifyLBAFE+16*format:])
	limit := func(off int) int {
		v := binary.LittleEndian.Uint32(id[off:])
		if v == 0xFFFFFFFF {
			return 0
		}
		return int(v) + 1
	}
	n.maxOpen, n.maxActive = limit(nvmectrl.ZNSIdentifyMOR), limit(nvmectrl.ZNSIdentifyMAR)
}

// ZoneBytes returns a zoned namespace's zone size in bytes, 0 for a conventional one.
func (n *Namespace) ZoneBytes() int64 { return int64(n.zoneBlocks) * n.lba }

// Zones returns how many zones a zoned namespace has.
func (n *Namespace) Zones() int64 {
	if n.zoneBlocks == 0 {
		return 0
	}
	return int64(n.blocks / n.zoneBlocks)
}

// ZoneLimits returns a zoned namespace's open and active zone limits (0: none).
func (n *Namespace) ZoneLimits() (open, active int) { return n.maxOpen, n.maxActive }

// Zone is one zone as the host sees it, in bytes from the namespace's start.
type Zone struct {
	Start, Cap, WP int64
	State          nvmectrl.ZoneState
}

// ReportZones returns the namespace's zones (Report Zones; read at set-up, see
// nvmectrl.Controller.ReportZones), nil for a conventional namespace.
func (n *Namespace) ReportZones() []Zone {
	ds, ok := n.d.ctrl.ReportZones(n.nsid)
	if !ok {
		return nil
	}
	out := make([]Zone, len(ds))
	for i, z := range ds {
		out[i] = Zone{Start: int64(z.Start) * n.lba, Cap: int64(z.Cap) * n.lba, WP: int64(z.WP) * n.lba, State: z.State}
	}
	return out
}

// buildZoneReset fills e with a zone reset request's command.
func (d *Driver) buildZoneReset(e *nvmectrl.SQE, cid uint16, nsid uint32, rq *blk.Request, lba int64) {
	if rq.Offset < 0 || rq.Offset%lba != 0 {
		d.bug("zone reset at %d is misaligned to %d B blocks", rq.Offset, lba)
	}
	e.SetOpcode(nvmectrl.OpZoneMgmtSend)
	e.SetCID(cid)
	e.SetNSID(nsid)
	e.SetSLBA(uint64(rq.Offset / lba))
	e.SetDW(13, uint32(nvmectrl.ZoneActionReset))
}

// buildZoneAppend fills e with a Zone Append passthrough request's command (ZNS Command
// Set Specification 1.1, "Zone Append command": opcode 7Dh, ZSLBA in CDW10/11 the lowest
// LBA of the zone, NLB 0's based in CDW12 bits 15:0, FUA bit 30), as fio's io_uring_cmd
// engine builds it (fio_nvme_uring_cmd_prep: nvme_zns_cmd_append to the zone's start) and
// nvme_uring_cmd_io passes it on unchanged. The data carries no version stamps: where it
// lands is the device's choice.
func (d *Driver) buildZoneAppend(e *nvmectrl.SQE, cid uint16, s *slot, rq *blk.Request) {
	lba := s.ns.lba
	if rq.Size <= 0 || rq.Size > int64(d.maxXfer) || rq.Offset%lba != 0 || rq.Size%lba != 0 {
		d.bug("zone append [%d, +%d) is empty, misaligned to %d B blocks or above the %d B maximum transfer",
			rq.Offset, rq.Size, lba, d.maxXfer)
	}
	d.putStamps(rq, s.buf)
	prp1, prp2, _, err := nvmectrl.BuildPRP(d.mem, s.buf, int(rq.Size), s.lists)
	if err != nil {
		d.bug("%v", err)
	}
	e.SetRW(nvmectrl.OpZoneAppend, cid, s.ns.nsid, prp1, prp2, uint64(rq.Offset/lba), int(rq.Size/lba))
	e.SetFUA(rq.FUA)
}
