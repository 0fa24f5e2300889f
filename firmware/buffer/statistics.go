package buffer

import "github.com/fastdrain-sim/fastdrain/sim"

// The write buffer's statistics (sim.Stat): declared here, listed in a machine's
// catalogue (runner.Statistics), read at the end of a run by PutStats.
var (
	StatCapacity = &sim.Stat{Name: "buffer_capacity_pages", Unit: sim.UnitPages,
		Desc: "pages the controller's DRAM write buffer holds (0 = unbounded)", Row: "buffer capacity (pages)"}
	StatPeakOccupancy = &sim.Stat{Name: "buffer_peak_occupancy_pages", Unit: sim.UnitPages,
		Desc: "most pages the write buffer held at once", Row: "buffer peak occupancy (pages)"}
	StatReadHits = &sim.Stat{Name: "buffer_read_hits", Unit: sim.UnitPages,
		Desc: "host read pages served from the write buffer", Row: "buffer read hits / misses"}
	StatReadMisses = &sim.Stat{Name: "buffer_read_misses", Unit: sim.UnitPages,
		Desc: "host read pages the write buffer did not hold", Row: "buffer read hits / misses"}
)

// PutStats puts the buffer's statistics into sn.
func (b *Buffer) PutStats(sn *sim.StatSnapshot) {
	sn.PutInt(StatCapacity, int64(b.capacity))
	sn.PutInt(StatPeakOccupancy, int64(b.Stats.PeakOccupancy))
	sn.PutInt(StatReadHits, b.Stats.ReadHits)
	sn.PutInt(StatReadMisses, b.Stats.ReadMisses)
}
