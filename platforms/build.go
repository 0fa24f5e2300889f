package platforms

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/dram"
	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hwadapter"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// SSD is one simulated SSD: link, controller, DRAM, flash channels and firmware, with
// hierarchical names (ssd.pcie, ssd.nvme, ssd.dram, ssd.ch[3].die[1], ssd.fw.core[0]).
type SSD struct {
	Link     *pcie.Link
	Ctrl     *nvmectrl.Controller
	DRAM     *dram.DRAM
	Channels []*channel.Channel
	FW       *firmware.Firmware
}

// BuildSSD wires the SSD of configuration c on eng, with the host memory the controller
// reaches over PCIe, and preconditions it. c must have been validated.
func BuildSSD(eng *sim.Engine, c Config, mem *nvmectrl.HostMemory) (*SSD, error) {
	s := &SSD{Link: pcie.NewLink("ssd.pcie", c.PCIe), DRAM: dram.New("ssd.dram", c.DRAM)}
	s.Ctrl = nvmectrl.New("ssd.nvme", c.NVMe, eng, s.Link, mem)
	cs := c.SSDChannelSpec()
	for i := 0; i < c.Flash.Channels; i++ {
		ch, err := channel.New(eng, fmt.Sprintf("ssd.ch[%d]", i), cs)
		if err != nil {
			return nil, err
		}
		s.Channels = append(s.Channels, ch)
	}
	flash, err := hwadapter.NewFlash(s.Channels)
	if err != nil {
		return nil, err
	}
	fw, err := firmware.New("ssd.fw", firmwareSpec(c), eng, firmware.Ports{Flash: flash, Memory: s.DRAM, Host: hwadapter.NewHost(s.Ctrl)})
	if err != nil {
		return nil, err
	}
	s.FW = fw
	for _, r := range s.Resources() {
		r.Follow(eng)
	}
	if p := c.Precondition; p.Fill > 0 {
		if err := fw.Precondition(p.Fill, p.Overwrite, p.Random, c.Seed); err != nil {
			return nil, fmt.Errorf("precondition: %w", err)
		}
	}
	return s, nil
}

// Resources returns every resource of the SSD in report order: PCIe directions, controller
// cores, DRAM bus, channel buses, dies. Call Sync first so link bookings are recorded.
func (s *SSD) Resources() []*sim.Resource {
	rs := []*sim.Resource{s.Link.Down, s.Link.Up}
	for _, c := range s.FW.Cores() {
		rs = append(rs, c.Res)
	}
	rs = append(rs, s.DRAM.Bus())
	for _, ch := range s.Channels {
		rs = append(rs, ch.Bus())
	}
	for _, ch := range s.Channels {
		for d := 0; d < ch.NumDies(); d++ {
			rs = append(rs, ch.Die(d).Array())
		}
	}
	return rs
}

// Sync records the link's pending bookings up to t (see pcie.Link.Sync).
func (s *SSD) Sync(t sim.Time) { s.Link.Sync(t) }

// Machine is one whole simulated machine: host and SSD on one engine.
type Machine struct {
	Config Config
	Eng    *sim.Engine
	Mem    *nvmectrl.HostMemory
	SSD    *SSD
	Host   *hostos.Host
	stall  *stallWatch // the stall detector (stall.go)
}

// Build validates c and wires a whole machine on a new engine. With a scripted power cut
// (firmware.power_loss.cut_at) the engine stops when the firmware does.
func Build(c Config) (*Machine, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	eng := sim.NewEngine()
	mem := nvmectrl.NewHostMemory()
	ssd, err := BuildSSD(eng, c, mem)
	if err != nil {
		return nil, err
	}
	capacity := ssd.FW.LogicalPages() * int64(c.Firmware.PageSize)
	h, err := hostos.New(eng, c.Host, ssd.Ctrl, capacity)
	if err != nil {
		return nil, err
	}
	m := &Machine{Config: c, Eng: eng, Mem: mem, SSD: ssd, Host: h}
	m.stall = watchStalls(m)
	if c.Firmware.PowerLoss.CutAt > 0 {
		// A scripted cut ends the simulation when the firmware stops: the host's commands
		// in flight never complete, and nothing after the stop would mean anything (the
		// host's timers and samplers would run on).
		ssd.FW.OnPowerOff = eng.Stop
	}
	// Every resource follows the engine's clock, so any backlog booked ahead (a DRAM bus
	// queue, a link) can be queried exactly at any later time.
	for _, r := range m.Resources() {
		r.Follow(eng)
	}
	return m, nil
}

// Resources returns every resource of the machine: host CPUs, then the SSD's.
func (m *Machine) Resources() []*sim.Resource {
	var rs []*sim.Resource
	for _, c := range m.Host.Cache.Cores() {
		rs = append(rs, c.Res)
	}
	for _, c := range m.Host.Driver.IRQCores() {
		rs = append(rs, c.Res)
	}
	return append(rs, m.SSD.Resources()...)
}

// PowerOnFlash builds the flash of configuration c as it is at the next power-on after a
// power cut, for firmware.RecoverOn: fresh channels and dies of the same spec on a fresh
// engine (the run's engine stops at the cut with the dies' interrupted work still
// queued). The dies hold no data: the recovery scan's reads take their timing from them,
// and the records from the firmware's copy of the spare areas. The caller closes eng.
func PowerOnFlash(c Config) (eng *sim.Engine, flash firmware.FlashPort, err error) {
	eng = sim.NewEngine()
	cs := c.SSDChannelSpec()
	chans := make([]*channel.Channel, 0, c.Flash.Channels)
	for i := 0; i < c.Flash.Channels; i++ {
		ch, err := channel.New(eng, fmt.Sprintf("ssd.ch[%d]", i), cs)
		if err != nil {
			return nil, nil, err
		}
		chans = append(chans, ch)
	}
	fl, err := hwadapter.NewFlash(chans)
	if err != nil {
		return nil, nil, err
	}
	return eng, fl, nil
}
