package platforms

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/dram"
	"github.com/fastdrain-sim/fastdrain/energy"
	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hwadapter"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/onfi"
	"github.com/fastdrain-sim/fastdrain/pcie"
)

// Config is one simulated machine.
type Config struct {
	Name         string        `yaml:"name"`         // preset or user name, for reports
	Description  string        `yaml:"description"`  // one line shown by `config show`
	Seed         uint64        `yaml:"seed"`         // root of every component's random stream
	Host         hostos.Spec   `yaml:"host"`         // the host OS: page cache, block layer, NVMe driver
	PCIe         pcie.Spec     `yaml:"pcie"`         // the link
	NVMe         nvmectrl.Spec `yaml:"nvme"`         // the controller front end
	DRAM         dram.Spec     `yaml:"dram"`         // controller DRAM (holds the write buffer)
	Flash        Flash         `yaml:"flash"`        // the flash array
	Firmware     firmware.Spec `yaml:"firmware"`     // SSD firmware
	Precondition Precondition  `yaml:"precondition"` // device state before the run
	Energy       energy.Spec   `yaml:"energy"`       // energy model of the SSD (docs/energy.md)
	Limits       Limits        `yaml:"limits"`       // what the simulation may ask of this machine (memory.go)
}

// Flash is the flash array: channels × ways × dies per package, each die with its planes.
type Flash struct {
	Channels       int            `yaml:"channels"`         // ONFI channels
	Ways           int            `yaml:"ways"`             // packages per channel
	DiesPerPackage int            `yaml:"dies_per_package"` // dies (LUNs) per package
	Policy         channel.Policy `yaml:"policy"`           // channel arbitration: fifo or read-first
	StatusPoll     bool           `yaml:"status_poll"`      // poll 70h/78h after array operations
	ONFI           onfi.Spec      `yaml:"onfi"`             // bus timing
	Die            die.Spec       `yaml:"die"`              // every die
}

// ChannelSpec returns the channel.Spec every channel of the array is built from.
func (f Flash) ChannelSpec() channel.Spec {
	return channel.Spec{Dies: f.Ways * f.DiesPerPackage, Policy: f.Policy, StatusPoll: f.StatusPoll,
		ONFI: f.ONFI, Die: f.Die}
}

// DieSpec returns the spec every die of c's SSD is built with: flash.die with one
// out-of-band stamp slot per mapping unit a page holds (die.Spec.Slots = flash.die.page_size
// / firmware.page_size: sub-page mapping), or one slot if the two sizes do not fit
// together (Validate reports why).
func (c Config) DieSpec() die.Spec {
	d := c.Flash.Die
	if k, err := c.Firmware.UnitsPerPage(d.PageSize); err == nil && k > 1 {
		d.Slots = k
	}
	return d
}

// FirmwareDie returns what the firmware knows of the dies (hwadapter.DieSpec of DieSpec).
func (c Config) FirmwareDie() hal.DieSpec { return hwadapter.DieSpec(c.DieSpec()) }

// SSDChannelSpec is Flash.ChannelSpec with the dies of DieSpec: the channels of c's SSD.
func (c Config) SSDChannelSpec() channel.Spec {
	cs := c.Flash.ChannelSpec()
	cs.Die = c.DieSpec()
	return cs
}

// Dies returns the number of dies in the array.
func (f Flash) Dies() int { return f.Channels * f.Ways * f.DiesPerPackage }

// Bytes returns the raw capacity of the array.
func (f Flash) Bytes() int64 {
	return int64(f.Dies()) * int64(f.Die.Planes) * int64(f.Die.BlocksPerPlane) *
		int64(f.Die.PagesPerBlock) * int64(f.Die.PageSize)
}

// Precondition is the device state before a run (firmware.Precondition).
type Precondition struct {
	Fill      float64 `yaml:"fill"`      // fraction of the logical space written once
	Overwrite float64 `yaml:"overwrite"` // fraction of those written again (invalid pages for GC)
	Random    bool    `yaml:"random"`    // random order instead of sequential
}

// Default returns the built-in defaults: every package's DefaultSpec, with a 4 KiB-page
// flash array of 8 channels × 4 ways of TLC dies and a 4 KiB-LBA namespace.
func Default() Config {
	d := die.DefaultSpec()
	d.PageSize = 4096
	nv := nvmectrl.DefaultSpec()
	nv.LBASize = 4096
	return Config{
		Name: "default", Seed: 1,
		Host:     hostos.DefaultSpec(),
		PCIe:     pcie.DefaultSpec(),
		NVMe:     nv,
		DRAM:     dram.DefaultSpec(),
		Flash:    Flash{Channels: 8, Ways: 4, DiesPerPackage: 1, Policy: channel.FIFO, ONFI: onfi.DefaultSpec(), Die: d},
		Firmware: firmware.DefaultSpec(),
		Energy:   energy.DefaultSpec(),
		Limits:   Limits{StallTimeout: DefaultStallTimeout},
	}
}

// Validate reports every problem with the configuration, each with its field path.
func (c Config) Validate() error {
	var errs []error
	add := func(section string, err error) {
		errs = append(errs, prefixed(section, err)...)
	}
	if _, err := c.Host.WithProfile(c.Host.Profile); err != nil {
		errs = append(errs, err)
	}
	add("host.pagecache", c.Host.PageCache.Validate())
	add("host.block", c.Host.Block.Validate())
	add("host.nvme", c.Host.Driver.Validate())
	add("pcie", c.PCIe.Validate())
	add("nvme", c.NVMe.Validate())
	add("dram", c.DRAM.Validate())
	f := c.Flash
	if f.Channels < 1 || f.Channels > 256 {
		errs = append(errs, fmt.Errorf("flash.channels: %d is not in 1 … 256", f.Channels))
	}
	if f.Ways < 1 || f.DiesPerPackage < 1 || f.Ways*f.DiesPerPackage > 64 {
		errs = append(errs, fmt.Errorf("flash.ways (%d) × flash.dies_per_package (%d) must be 1 … 64 dies per channel",
			f.Ways, f.DiesPerPackage))
	} else {
		add("flash", f.ChannelSpec().Validate())
		errs = append(errs, f.validateFaultDies()...)
	}
	add("firmware", firmwareSpec(c).Validate())
	// The FTL section against the array it will manage (the geometry-free checks alone if
	// the array's shape is itself wrong): ftl.New would reject the same at build time.
	var geo ftl.Geometry
	if f.Channels >= 1 && f.Ways >= 1 && f.DiesPerPackage >= 1 {
		geo = ftl.GeometryOf(f.Channels, f.Ways*f.DiesPerPackage, c.FirmwareDie())
	}
	add("firmware", c.Firmware.ValidateFTL(geo))
	if k, err := c.Firmware.UnitsPerPage(f.Die.PageSize); err != nil {
		errs = append(errs, err)
	} else if k > 1 {
		errs = append(errs, c.subPageLimits(k)...)
	}
	// nvme.Validate reports a non-positive lba_size; only a positive one can divide.
	if c.NVMe.LBASize > 0 && c.Firmware.PageSize%c.NVMe.LBASize != 0 {
		errs = append(errs, fmt.Errorf("nvme.lba_size: %d does not divide firmware.page_size %d", c.NVMe.LBASize, c.Firmware.PageSize))
	}
	if !c.Firmware.Buffer.Policy.Unbounded() && c.Firmware.PageSize > 0 {
		// Compared in pages: pages × page size can overflow int64 (2⁶⁰ pages did, and passed).
		if fit := int64(c.DRAM.Capacity) / int64(c.Firmware.PageSize); int64(c.Firmware.Buffer.Pages) > fit {
			errs = append(errs, fmt.Errorf("firmware.buffer.pages: %d pages of %d bytes do not fit in dram.capacity %v (%d pages)",
				c.Firmware.Buffer.Pages, c.Firmware.PageSize, c.DRAM.Capacity, fit))
		}
	}
	add("energy", c.Energy.Validate())
	if err := c.Energy.ValidateDRAM(c.DRAM.BusWidth); err != nil {
		errs = append(errs, err)
	}
	p := c.Precondition
	if p.Fill < 0 || p.Fill > 1 {
		errs = append(errs, fmt.Errorf("precondition.fill: %v is not in 0 … 1", p.Fill))
	}
	if p.Overwrite < 0 || p.Overwrite > 4 {
		errs = append(errs, fmt.Errorf("precondition.overwrite: %v is not in 0 … 4", p.Overwrite))
	}
	if c.Limits.Memory < 0 {
		errs = append(errs, fmt.Errorf("limits.memory: %v must not be negative (0 means the machine's memory)", int64(c.Limits.Memory)))
	}
	if c.Limits.StallTimeout < 0 {
		errs = append(errs, fmt.Errorf("limits.stall_timeout: %v must not be negative (0 means the default, %v)", c.Limits.StallTimeout, DefaultStallTimeout))
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	// The models' own limits on the whole machine (what firmware.New and hostos.New would
	// refuse), then the resource guard, which needs a machine the models accept.
	dpc := f.Ways * f.DiesPerPackage
	if err := errors.Join(c.Firmware.ValidateGeometry(c.FirmwareDie(), f.Channels, dpc), c.Host.ValidateWith(c.NVMe)); err != nil {
		return err
	}
	if err := c.Firmware.ValidateNamespaces(hwadapter.HostSpec(c.NVMe), c.FirmwareDie(), f.Channels, dpc); err != nil {
		return err
	}
	if err := c.Firmware.ValidatePrecondition(c.FirmwareDie(), f.Channels, dpc, p.Fill, p.Overwrite); err != nil {
		return err
	}
	return c.CheckMemory()
}

// prefixed returns the leaf errors of err, each prefixed with section unless its message
// already starts with the section's last name (packages name their own fields, e.g.
// "pcie.lanes: …").
func prefixed(section string, err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, prefixed(section, e)...)
		}
		return out
	}
	msg := err.Error()
	last := section[strings.LastIndex(section, ".")+1:]
	for _, p := range []string{last, section} {
		if strings.HasPrefix(msg, p+".") || strings.HasPrefix(msg, p+":") || strings.HasPrefix(msg, p+" ") {
			return []error{err}
		}
	}
	return []error{fmt.Errorf("%s: %w", section, err)}
}

// validateFaultDies checks that every scripted fault names a die of the array, as BuildSSD
// names them ("ssd.ch[c].die[d]", d counting the channel's ways × dies per package): a
// fault on a die that does not exist would silently never fire.
func (f Flash) validateFaultDies() []error {
	var errs []error
	for i, sf := range f.Die.Faults.Scripted {
		var c, d int
		n, err := fmt.Sscanf(sf.Die, "ssd.ch[%d].die[%d]", &c, &d)
		if err != nil || n != 2 || fmt.Sprintf("ssd.ch[%d].die[%d]", c, d) != sf.Die {
			errs = append(errs, fmt.Errorf("flash.die.faults.scripted[%d].die: %q is not a die name of the form ssd.ch[C].die[D]", i, sf.Die))
			continue
		}
		if c < 0 || c >= f.Channels || d < 0 || d >= f.Ways*f.DiesPerPackage {
			errs = append(errs, fmt.Errorf("flash.die.faults.scripted[%d].die: %q is not in the array (channels 0 … %d, dies 0 … %d a channel)",
				i, sf.Die, f.Channels-1, f.Ways*f.DiesPerPackage-1))
		}
	}
	return errs
}

// subPageLimits reports the features that keep one logical page a flash page, which
// sub-page mapping (k mapping units a page) cannot be combined with yet: program failures
// (their re-program moves one page's data, not several units'). Erase failures, factory bad
// blocks, read errors and power-loss recovery (a record a unit) work.
func (c Config) subPageLimits(k int) []error {
	var errs []error
	why := fmt.Sprintf("not supported with sub-page mapping (%d mapping units of firmware.page_size %d in flash.die.page_size %d)",
		k, c.Firmware.PageSize, c.Flash.Die.PageSize)
	if c.Flash.Die.Faults.ProgramFail > 0 {
		errs = append(errs, fmt.Errorf("flash.die.faults.program_fail: %v: %s", c.Flash.Die.Faults.ProgramFail, why))
	}
	for i, sf := range c.Flash.Die.Faults.Scripted {
		if sf.Op == "program" {
			errs = append(errs, fmt.Errorf("flash.die.faults.scripted[%d].op: program: %s", i, why))
		}
	}
	return errs
}
