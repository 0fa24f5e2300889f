package runner

import (
	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Machine is a platform's machine as every command runs one (run's scenarios, fio's
// jobs, a replayed trace, a uFLIP plan): built from its configuration, with the raw block
// device of its namespace for workloads that drive the device themselves, and the
// firmware's counters as set-up (preconditioning) left them, so that the results are of the
// workload alone.
type Machine struct {
	*platforms.Machine
	// Dev is namespace 1's block device opened with O_DIRECT (hostos.RawDevice), its
	// capacity the firmware's logical pages.
	Dev *hostos.RawDevice
	// Before is the firmware's counters when the machine was built.
	Before firmware.Stats
	// WastedBefore is the pages the allocators had skipped by then (MachineStats).
	WastedBefore int64
	smp          *sim.Sampler // the timeline's counter tracks (Trace); nil without one
}

// Open builds the machine of configuration c: the one entry to a machine of every command.
func Open(c platforms.Config) (*Machine, error) {
	m, err := platforms.Build(c)
	if err != nil {
		return nil, err
	}
	dev, err := hostos.NewRawDevice(m.Host, m.SSD.FW.LogicalPages()*int64(c.Firmware.PageSize))
	if err != nil {
		m.Eng.Close()
		return nil, err
	}
	return &Machine{Machine: m, Dev: dev, Before: m.SSD.FW.Stats, WastedBefore: m.SSD.FW.FTL().Stats.Wasted}, nil
}

// Close releases the machine's engine.
func (m *Machine) Close() { m.Eng.Close() }

// Trace attaches timeline tl (nil: none) to the whole machine as replay and fio trace it:
// every resource, each NVMe command's slice and its flows, and the firmware's and the page
// cache's state sampled every 100 µs as counter tracks (Series).
func (m *Machine) Trace(tl *report.Timeline) {
	if tl == nil {
		return
	}
	tl.Attach(m.Resources()...)
	TraceFlows(m.SSD, tl)
	m.smp = sim.NewSampler(m.Eng, 100*sim.Microsecond)
	m.SSD.FW.Track(m.smp)
	m.Host.Cache.Track(m.smp)
}

// Series returns the timeline's counter tracks sampled so far (nil without Trace).
func (m *Machine) Series() []*sim.Series {
	if m.smp == nil {
		return nil
	}
	return m.smp.Series()
}

// Outcome ends a workload the command ran on the machine: the machine's statistics
// (MachineStats) under label, with what a scripted power cut did and what recovery found
// (CutOutcome) when one happened.
func (m *Machine) Outcome(label string) (*Result, error) {
	pl, rec, err := CutOutcome(m.Machine)
	if err != nil {
		return nil, err
	}
	r := MachineStats(m.Machine, label, m.WastedBefore)
	r.PowerLoss, r.Recovery = pl, rec
	return r, nil
}
