package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvme"
)

// A zoned namespace's zones after a power cut. The firmware keeps its zone table in
// controller memory and records durably only what the flash cannot tell it: a zone's
// Read Only and Offline states, and that Finish Zone made it Full (a ZNS firmware journals
// these zone management changes; the journal's writes are not timed here). Reset needs no
// record: a reset zone's pages lose their out-of-band records at once (znserase.go), so
// the recovery scan finds none of them.
//
// What the specification asks (NVM Express Zoned Namespace Command Set Specification 1.1):
// the write pointer is the lowest-numbered unwritten LBA of the zone (section 2.1.1.2.1.1,
// writing in Sequential Write Required Zones); a write the controller could not complete
// leaves it within the command's range, one past its end, or invalid (same section); after
// an NVM Subsystem Reset or a shutdown the zone's initial state is Empty if the write
// pointer is at the zone's start, Closed if it is valid elsewhere, Full if it was Full, and
// Read Only or Offline if it was (2.1.1.3, "Zone State Machine"). With the NVM Command Set's
// Flush (data written before it is on non-volatile media once it completes), data a Flush
// or an FUA write covered must read back after the cut, so the write pointer must be past
// it. A zone's flushed pages that a later program of their word line destroyed are restored
// from the zone backup (znsbackup.go; Recovery.Restored).
//
// At the next power-on the write pointer of a zone is rebuilt from the recovered map:
// one past the highest logical page of the zone the scan found, so every page that
// survived the cut is below it, and with it every acknowledged write that was durable
// (flushed, written with FUA, or any acknowledged write with power-loss protection, as
// the checker of package powercut requires). Pages below it that did not survive (a
// volatile write acknowledged but not flushed, programmed on another die after a later
// page of the zone was) read as never written; the host rewrites nothing there, as the
// write pointer is past them. The state follows: Empty at the zone's start, Full at its
// capacity (or if it was finished), otherwise Closed: zones open at the cut come back
// Closed, as after a controller level reset (ZNS 1.1, "Zone State Machine": the opened
// states do not survive one).

// RecoveredZones returns namespace nsid's zones as the firmware rebuilds them from rec,
// the mapping recovered after a power cut (Recover), in Report Zones' terms.
func (f *Firmware) RecoveredZones(rec *Recovery, nsid uint32) ([]nvme.ZoneDescriptor, error) {
	if nsid == 0 || nsid > uint32(len(f.ns)) || f.ns[nsid-1].zns == nil {
		return nil, fmt.Errorf("firmware %s: namespace %d is not zoned", f.name, nsid)
	}
	ns := &f.ns[nsid-1]
	t := ns.zns
	per := t.zsze / t.zonePages // logical blocks a page
	out := make([]nvme.ZoneDescriptor, len(t.zones))
	for zi, zn := range t.zones {
		lo := ns.base + int64(zi)*t.zonePages
		var wp int64 // pages
		for k := t.zcap/per - 1; k >= 0; k-- {
			if rec.Map[lo+k] != ftl.NoUnit {
				wp = k + 1
				break
			}
		}
		d := nvme.ZoneDescriptor{Cap: uint64(t.zcap), Start: uint64(int64(zi) * t.zsze)}
		switch {
		case zn.state == nvme.ZoneReadOnly || zn.state == nvme.ZoneOffline:
			d.State, wp = zn.state, zn.wp/per
		case zn.finished || wp*per == t.zcap:
			d.State, wp = nvme.ZoneFull, t.zcap/per
		case wp == 0:
			d.State = nvme.ZoneEmpty
		default:
			d.State = nvme.ZoneClosed
		}
		d.WP = d.Start + uint64(wp*per)
		out[zi] = d
	}
	return out, nil
}
