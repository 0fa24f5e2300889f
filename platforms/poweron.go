package platforms

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
)

// PowerOn is the next power-on after a power cut of old, a machine of c whose firmware
// stopped and whose dies took the cut (CutFlash), and rec the recovery of old's firmware
// (firmware.Firmware.Recover): it builds the machine of c again on a new engine (time 0)
// — host with an empty page cache, controller, DRAM, channels and firmware, nothing
// preconditioned and no scripted cut — gives each new die the array of old's (die.Die.
// PowerOn: the flash survives, nothing else does), and mounts the new firmware on rec
// (firmware.Firmware.Mount), which it returns the report of. old must not be run again.
func PowerOn(c Config, old *Machine, rec *firmware.Recovery) (*Machine, ftl.MountReport, error) {
	if err := Mountable(c); err != nil {
		return nil, ftl.MountReport{}, fmt.Errorf("platforms: %w", err)
	}
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

// Mountable returns why a machine of c cannot be powered on again after a cut (PowerOn:
// the firmware's Mount rebuilds page-level mapping only), nil if it can.
func Mountable(c Config) error {
	why := ""
	switch {
	case c.Firmware.FTL.Mapping == ftl.BASTMapping:
		why = "the hybrid mapping scheme (firmware.ftl.mapping bast: its data and log blocks are not rebuilt)"
	case c.Firmware.FTL.SLCCache.Enabled():
		why = "an SLC cache (firmware.ftl.slc_cache: its regions are not rebuilt)"
	case c.NVMe.FDP.Enabled:
		why = "Flexible Data Placement (nvme.fdp: its reclaim units are not rebuilt)"
	case c.Flash.Die.Faults.Enabled():
		why = "a fault model (flash.die.faults: grown bad blocks are not rebuilt)"
	}
	for _, ns := range c.NVMe.Namespaces {
		if why == "" && ns.Type == nvmectrl.NSZoned {
			why = "a zoned namespace (nvme.namespaces: its zones are not rebuilt)"
		}
	}
	if why == "" {
		return nil
	}
	return fmt.Errorf("mounting after a power cut is not modelled with %s", why)
}
