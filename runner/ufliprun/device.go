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

// Devices says which devices a plan runs on: a real file or block device (Target, with
// Size and Force), else the simulated machine of Preset; then the simulated machines of
// the Vs presets. Every simulated machine is configured by Variant, Files and Sets over its
// preset.
type Devices struct {
	Target string // --target ("" = simulate Preset)
	Size   int64  // bytes of the target the plan covers
	Force  bool   // --force: let the plan write over an existing target
	Preset string
	Vs     []string // --vs: more presets
	// Variant, Files and Sets configure every simulated machine (--variant, --config, --set).
	Variant     string
	Files, Sets []string
}

// Open opens the devices in order: the target or Preset, then every Vs preset. uFLIP issues
// IOs down to 512 B, so a simulated namespace has 512-byte LBAs unless Sets chooses
// otherwise (the firmware merges sub-page writes into its 4 KiB mapping units). A preset
// named twice is refused; on an error every device opened is closed.
func (ds Devices) Open() ([]*Device, error) {
	var devs []*Device
	names := map[string]bool{}
	fail := func(err error) ([]*Device, error) {
		for _, d := range devs {
			d.Close()
		}
		return nil, err
	}
	if ds.Target != "" {
		d, err := Target(ds.Target, ds.Size, ds.Force)
		if err != nil {
			return nil, err
		}
		names["target"] = true
		devs = append(devs, d)
	}
	presets := ds.Vs
	if ds.Target == "" {
		presets = append([]string{ds.Preset}, ds.Vs...)
	}
	for _, p := range presets {
		if names[p] {
			return fail(fmt.Errorf("--vs: %s is already one of the devices", p))
		}
		names[p] = true
		c, err := platforms.Load(platforms.Options{Preset: p, Variant: ds.Variant, Files: ds.Files,
			Sets: append([]string{"nvme.lba_size=512"}, ds.Sets...)})
		var d *Device
		if err == nil {
			d, err = Simulated(c, p)
		}
		if err != nil {
			if len(devs) > 0 {
				err = fmt.Errorf("--vs %s: %w", p, err)
			}
			return fail(err)
		}
		devs = append(devs, d)
	}
	return devs, nil
}
