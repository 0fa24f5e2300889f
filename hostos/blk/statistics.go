package blk

import "github.com/fastdrain-sim/fastdrain/sim"

// The block layer's zone statistics (zoned.go), present only when a queue is zoned (a
// zoned namespace's): summed over the machine's zoned queues.
var (
	StatZonePlugged = &sim.Stat{Name: "zns_writes_plugged", Unit: sim.UnitCount,
		Desc: "write bios that waited in a zone's write plug (one write in flight per zone)", Row: "ZNS block layer: writes plugged / zone resets"}
	StatZoneResets = &sim.Stat{Name: "zns_host_zone_resets", Unit: sim.UnitCount,
		Desc: "zone reset requests (REQ_OP_ZONE_RESET) the block layer completed", Row: "ZNS block layer: writes plugged / zone resets"}
)

// ZoneStatList returns the block layer's zone statistics, for a catalogue.
func ZoneStatList() []*sim.Stat { return []*sim.Stat{StatZonePlugged, StatZoneResets} }

// PutZoneStats puts the zone counters of the zoned queues among qs, summed, into sn; it puts
// nothing when none is zoned.
func PutZoneStats(sn *sim.StatSnapshot, qs []*Queue) {
	var sum ZoneStats
	zoned := false
	for _, q := range qs {
		if q.zones != nil {
			zoned = true
			sum.Plugged += q.stats.Zones.Plugged
			sum.Resets += q.stats.Zones.Resets
		}
	}
	if !zoned {
		return
	}
	sn.PutInt(StatZonePlugged, sum.Plugged)
	sn.PutInt(StatZoneResets, sum.Resets)
}
