package ufliprun

import (
	"errors"
	"fmt"
	"os"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Device is one device a uFLIP plan runs on: a simulated machine or a real file.
type Device struct {
	Name     string       // the preset's name, or "target"
	Dev      uflip.Device // what the plan's IOs go to
	Eng      *sim.Engine  // the engine the plan runs on (a bare one for a target)
	Capacity int64        // bytes
	// BufBytes is a simulated device's write buffer capacity in bytes (0 for a target).
	BufBytes int64
	// M is a simulated device's machine (nil for a target).
	M     *runner.Machine
	close func()

	Runs     []uflip.RunStats // every run of the plan, in order
	Trace    []uflip.IORecord // the traced run's records (rep 0, stream 0)
	Points   []uflip.Point    // the runs by point (uflip.Points)
	Findings []uflip.Finding  // with Suite.Findings
	// PowerLoss and Recovery are what a simulated device's scripted power cut did and
	// recovery found (runner.CutOutcome), and CutStep the plan step it stopped.
	PowerLoss *firmware.PowerLossReport
	Recovery  *firmware.Recovery
	CutStep   int
}

// Simulated builds the machine of configuration c as the device named name.
func Simulated(c platforms.Config, name string) (*Device, error) {
	m, err := runner.Open(c)
	if err != nil {
		return nil, err
	}
	bufBytes := int64(c.Firmware.Buffer.Pages) * int64(c.Firmware.PageSize)
	return &Device{Name: name, Dev: m.Dev, Eng: m.Eng, Capacity: m.Dev.Capacity(), BufBytes: bufBytes, M: m, close: m.Close}, nil
}

// Target opens the real file or block device at path with O_DIRECT, size bytes of it, as
// the device "target"; unless force, it refuses to write over a block device or a
// non-empty file (CheckTarget).
func Target(path string, size int64, force bool) (*Device, error) {
	if err := CheckTarget(path, force); err != nil {
		return nil, err
	}
	fd, err := uflip.OpenFileDevice(path, uflip.FileOptions{Size: size, Create: true})
	if err != nil {
		return nil, fmt.Errorf("--target: %w", err)
	}
	return &Device{Name: "target", Dev: fd, Eng: sim.NewEngine(), Capacity: size, close: func() { fd.Close() }}, nil
}

// Close releases the device.
func (d *Device) Close() { d.close() }

// logBlock tells whether a simulated device's FTL is the hybrid log-block one
// (firmware.ftl.mapping bast), whose findings differ.
func (d *Device) logBlock() bool {
	return d.M != nil && d.M.Config.Firmware.FTL.Mapping == ftl.BASTMapping
}

// ssd returns a simulated device's statistics (runner.MachineStats).
func (d *Device) ssd() *runner.Result {
	return runner.MachineStats(d.M.Machine, d.Name, d.M.WastedBefore)
}

// CheckTarget refuses to let uFLIP's writes destroy data by accident: a block device or a
// non-empty file is written over only with force; a new or empty file is fine.
func CheckTarget(path string, force bool) error {
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) || force {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--target: %w", err)
	}
	switch {
	case st.Mode()&os.ModeDevice != 0:
		return fmt.Errorf("--target %s is a device: uFLIP writes over it; give --force to do so", path)
	case st.Mode().IsRegular() && st.Size() > 0:
		return fmt.Errorf("--target %s exists and holds %d bytes: uFLIP writes over it; give --force to do so, or name a new file", path, st.Size())
	case !st.Mode().IsRegular():
		return fmt.Errorf("--target %s is not a regular file or a block device", path)
	}
	return nil
}
