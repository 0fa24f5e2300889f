package firmware

import "github.com/fastdrain-sim/fastdrain/sim"

// The zone layer's statistics (ftl/zones.go, znserase.go), present only on a drive with a
// zoned namespace (nvme.namespaces[].type: zoned): every run, fio, replay and uflip output
// of such a drive carries them, and the others' outputs are unchanged.
var (
	StatZonePages = &sim.Stat{Name: "zns_pages_placed", Unit: sim.UnitPages,
		Desc: "host pages the FTL placed in zones (each on its zone member's block)", Row: "ZNS: pages placed in zones / out of write-pointer order"}
	StatZoneReordered = &sim.Stat{Name: "zns_pages_reordered", Unit: sim.UnitPages,
		Desc: "zone pages placed at another page of their member block than the write pointer gave (an LRU buffer's read hits reorder evictions)",
		Row:  "ZNS: pages placed in zones / out of write-pointer order"}
	StatZoneBlocks = &sim.Stat{Name: "zns_blocks_opened", Unit: sim.UnitBlocks,
		Desc: "erase blocks opened as zone members (a zone's first page for a member takes one)", Row: "ZNS: member blocks opened / zone resets that erased blocks"}
	StatZoneResets = &sim.Stat{Name: "zns_zone_resets_erasing", Unit: sim.UnitCount,
		Desc: "zone resets that freed member blocks to erase (a reset of an empty zone frees none)",
		Row:  "ZNS: member blocks opened / zone resets that erased blocks"}
)

// ZNSStatList returns the zone layer's statistics, for a catalogue.
func ZNSStatList() []*sim.Stat {
	return []*sim.Stat{StatZonePages, StatZoneReordered, StatZoneBlocks, StatZoneResets}
}

// PutZNSStats puts the zone layer's statistics into sn when the FTL has a zoned area.
func (f *Firmware) PutZNSStats(sn *sim.StatSnapshot) {
	if !f.ftl.Zoned() {
		return
	}
	s := f.ftl.ZoneStats()
	sn.PutInt(StatZonePages, s.Pages)
	sn.PutInt(StatZoneReordered, s.Reordered)
	sn.PutInt(StatZoneBlocks, s.Blocks)
	sn.PutInt(StatZoneResets, s.Resets)
}
