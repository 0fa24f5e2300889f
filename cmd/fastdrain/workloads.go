package main

import (
	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/runner"
)

// simDevice builds the machine of cf and returns it with its raw block device.
func simDevice(cf *configFlags) (*platforms.Machine, *hostos.RawDevice, error) {
	c, err := cf.load()
	if err != nil {
		return nil, nil, err
	}
	m, err := platforms.Build(c)
	if err != nil {
		return nil, nil, err
	}
	capacity := m.SSD.FW.LogicalPages() * int64(c.Firmware.PageSize)
	dev, err := hostos.NewRawDevice(m.Host, capacity)
	if err != nil {
		return nil, nil, err
	}
	return m, dev, nil
}

// openMachine builds the machine of cf (runner.Open).
func openMachine(cf *configFlags) (*runner.Machine, error) {
	c, err := cf.load()
	if err != nil {
		return nil, err
	}
	return runner.Open(c)
}
