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
	// The zone backup's (znsbackup.go), only where it runs: a zoned namespace with
	// firmware.power_loss.enabled.
	StatZoneBackupPages = &sim.Stat{Name: "zns_backup_pages", Unit: sim.UnitPages,
		Desc: "zone pages copied to the backup area for a Flush, an FUA write or the hold-up drain (provisional pages a zone may not pad)",
		Row:  "ZNS backup: pages copied / read back / blocks erased"}
	StatZoneBackupReads = &sim.Stat{Name: "zns_backup_reads", Unit: sim.UnitPages,
		Desc: "zone pages read back from flash to be copied (2D: the buffer had released them)", Row: "ZNS backup: pages copied / read back / blocks erased"}
	StatZoneBackupErases = &sim.Stat{Name: "zns_backup_erases", Unit: sim.UnitBlocks,
		Desc: "backup blocks erased once none of their pages was needed", Row: "ZNS backup: pages copied / read back / blocks erased"}
)

// ZNSStatList returns the zone layer's statistics, for a catalogue.
func ZNSStatList() []*sim.Stat {
	return []*sim.Stat{StatZonePages, StatZoneReordered, StatZoneBlocks, StatZoneResets,
		StatZoneBackupPages, StatZoneBackupReads, StatZoneBackupErases}
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
	if z := &f.zbak; z.on {
		sn.PutInt(StatZoneBackupPages, z.Pages)
		sn.PutInt(StatZoneBackupReads, z.Reads)
		sn.PutInt(StatZoneBackupErases, z.Erases)
	}
}
