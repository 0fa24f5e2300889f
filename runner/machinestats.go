package runner

import "github.com/fastdrain-sim/fastdrain/platforms"

// MachineStats returns a Result that holds only machine m's device and host statistics so
// far — firmware, buffer, FTL, fault, page-cache counters, the buffer's mode changes and the
// engine's events — for StatValues and StatsTable: the device statistics run reports, for a
// command that drives the machine itself (replay). wastedBefore is the FTL's Stats.Wasted
// when the command started, so FlashWasted counts that command's skipped pages as run's
// does; the FTL's other counters start at zero after preconditioning.
func MachineStats(m *platforms.Machine, label string, wastedBefore int64) *Result {
	fw := m.SSD.FW
	r := &Result{Label: label, Config: m.Config, Events: m.Eng.Fired(), Firmware: fw.Stats, Faults: fw.FaultStats(),
		FTL: fw.FTL().Stats, Buffer: fw.Buffer().Stats, BufferPages: fw.Buffer().Capacity(), Cache: *m.Host.Cache.Stats(),
		ModeChanges: fw.ModeLog(), Health: healthOf(m)}
	r.Victims, r.Switches = r.Cache.Victims, r.Cache.Switches
	for _, k := range r.FTL.Programmed {
		r.FlashUsed += k
	}
	r.FlashWasted = r.FTL.Wasted - wastedBefore
	return r
}
