package runner

import (
	"github.com/fastdrain-sim/fastdrain/energy"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// NewEnergyMeter returns an energy meter of m's SSD under m's energy configuration, for
// commands that drive a machine without Run (fio, replay).
func NewEnergyMeter(m *platforms.Machine) (*energy.Meter, error) {
	return energy.New(m.Config.Energy, energyParts(m))
}

// energyParts returns what the energy meter reads of m's SSD: every die array, channel
// bus, firmware core, both link directions and the DRAM bus, the DRAM's activates (row
// misses plus conflicts) and the firmware's host command and written-page counts.
func energyParts(m *platforms.Machine) energy.Parts {
	s := m.SSD
	p := energy.Parts{Link: [2]*sim.Resource{s.Link.Down, s.Link.Up}, PCIe: m.Config.PCIe,
		DRAM: s.DRAM.Bus(), DRAMSpec: m.Config.DRAM, Sync: s.Sync,
		Residency: s.Link.Residency}
	for _, ch := range s.Channels {
		p.Buses = append(p.Buses, ch.Bus())
		for d := 0; d < ch.NumDies(); d++ {
			p.Dies = append(p.Dies, ch.Die(d).Array())
		}
	}
	for _, c := range s.FW.Cores() {
		p.Cores = append(p.Cores, c.Res)
	}
	p.DRAMActivates = func() int64 {
		st := s.DRAM.Stats()
		return st.RowMisses + st.RowConflicts
	}
	pageSize := int64(m.Config.Firmware.PageSize)
	p.HostCommands = func() int64 { return s.FW.Stats.Commands }
	p.HostWriteBytes = func() int64 { return s.FW.Stats.WritePages * pageSize }
	return p
}
