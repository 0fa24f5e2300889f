package platforms

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
)

// PowerOn is the next power-on after a power cut of old, a machine of c whose firmware
// stopped and whose dies took the cut (CutFlash), and rec the recovery of old's firmware
// (firmware.Firmware.Recover): it builds the machine of c again on a new engine (time 0)
// — host with an empty page cache, controller, DRAM, channels and firmware, nothing
// preconditioned and no scripted cut — gives each new die the array of old's (die.Die.
// PowerOn: the flash survives, nothing else does), and mounts the new firmware on rec
// (firmware.Firmware.Mount), which it returns the report of. old must not be run again.
func PowerOn(c Config, old *Machine, rec *firmware.Recovery) (*Machine, ftl.MountReport, error) {
	if !old.SSD.FW.PoweredOff() {
		return nil, ftl.MountReport{}, fmt.Errorf("platforms: power-on of a machine whose firmware has not stopped after a cut")
	}
	c.Precondition = Precondition{}
	c.Firmware.PowerLoss.CutAt = 0
	m, err := Build(c)
	if err != nil {
		return nil, ftl.MountReport{}, err
	}
	if len(m.SSD.Channels) != len(old.SSD.Channels) {
		return nil, ftl.MountReport{}, fmt.Errorf("platforms: power-on with %d channels; the machine cut had %d", len(m.SSD.Channels), len(old.SSD.Channels))
	}
	for i, ch := range m.SSD.Channels {
		och := old.SSD.Channels[i]
		if ch.NumDies() != och.NumDies() {
			return nil, ftl.MountReport{}, fmt.Errorf("platforms: power-on with %d dies on channel %d; the machine cut had %d", ch.NumDies(), i, och.NumDies())
		}
		for d := range ch.NumDies() {
			if err := ch.Die(d).PowerOn(och.Die(d)); err != nil {
				return nil, ftl.MountReport{}, err
			}
		}
	}
	rep, err := m.SSD.FW.Mount(rec)
	if err != nil {
		return nil, rep, err
	}
	return m, rep, nil
}
