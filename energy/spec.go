package energy

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Spec is the energy model of one SSD: the supply currents and voltages of its NAND dies
// and controller DRAM (datasheet symbols), the power of its controller cores and PCIe
// link, and how finely power is traced over time. Sources of the defaults: docs/energy.md.
type Spec struct {
	NAND       NAND       `yaml:"nand"`       // every die and its ONFI I/O
	DRAM       DRAM       `yaml:"dram"`       // every device of the controller DRAM rank
	Controller Controller `yaml:"controller"` // every firmware core
	PCIe       PCIe       `yaml:"pcie"`       // the link, per lane and direction
	// Resolution is the length of the buckets of the power trace: the meter reads the
	// resource records at the end of each bucket (no events: sim.Engine.Observe).
	Resolution sim.Time `yaml:"resolution"`
	// PeakWindows are the windows of the peak-power figures ("1ms", "10ms"), each a whole
	// number of buckets; a window slides over the trace one bucket at a time.
	PeakWindows []sim.Time `yaml:"peak_windows"`
}

// NAND holds the DC characteristics of one die. The array currents flow on VCC while the
// die's array resource is busy; the I/O currents on VCCQ while the channel bus carries a
// command or data phase to or from it; ISB otherwise.
type NAND struct {
	VCC   Voltage `yaml:"vcc"`   // core supply
	VCCQ  Voltage `yaml:"vccq"`  // I/O supply
	ICC1  Current `yaml:"icc1"`  // array read (tR)
	ICC2  Current `yaml:"icc2"`  // array program (tPROG), every page type; also a suspension
	ICC3  Current `yaml:"icc3"`  // array erase (tBERS)
	ICC4R Current `yaml:"icc4r"` // I/O burst read: data-out phases
	ICC4W Current `yaml:"icc4w"` // I/O burst write: data-in and command/address phases
	ISB   Current `yaml:"isb"`   // standby, per die, while its array is idle
}

// DRAM holds the JEDEC IDD currents of one DRAM device at the model's speed bin and its
// data width; the rank has dram.bus_width / device_width devices.
type DRAM struct {
	VDD         Voltage `yaml:"vdd"`
	IDD0        Current `yaml:"idd0"`  // one bank activate-precharge, at tRC
	IDD2N       Current `yaml:"idd2n"` // precharge standby
	IDD3N       Current `yaml:"idd3n"` // active standby
	IDD4R       Current `yaml:"idd4r"` // burst read
	IDD4W       Current `yaml:"idd4w"` // burst write
	IDD5B       Current `yaml:"idd5b"` // burst refresh
	DeviceWidth int     `yaml:"device_width"`
}

// Controller holds the power of one firmware core while it runs work and while it waits.
type Controller struct {
	ActivePower Power `yaml:"active_power"` // per core while its resource is busy
	IdlePower   Power `yaml:"idle_power"`   // per core while idle (clock-gated, leakage)
}

// PCIe holds the link's power per lane and direction: IdlePowerPerLane while the
// direction is in L0, L0sPowerPerLane and L1PowerPerLane while it is in L0s or L1 (with
// pcie.aspm on; otherwise the link is always in L0), and EnergyPerBit on top for every bit
// a direction puts on the wire (its resource's busy time at the line rate).
type PCIe struct {
	IdlePowerPerLane Power        `yaml:"idle_power_per_lane"`
	L0sPowerPerLane  Power        `yaml:"l0s_power_per_lane"`
	L1PowerPerLane   Power        `yaml:"l1_power_per_lane"`
	EnergyPerBit     EnergyPerBit `yaml:"energy_per_bit"`
}

// DefaultSpec returns the energy model of docs/energy.md:
//   - NAND: SimpleSSD's Micron NAND power table (config/512GB_micron.xml, CAMELab 2019):
//     ICC1 = ICC2 = ICC3 = 25 mA, ICC4R = ICC4W = 10 mA, ISB 30 µA at VCC 3.3 V; the
//     same VCC is taken for VCCQ, as that table gives one supply.
//   - DRAM: Micron 2 Gb DDR3-1600 x16 (MT41J128M16, die rev. D) IDD values as tabulated
//     in DRAMPower's memspec MICRON_2Gb_DDR3-1600_16bit_D: IDD0 110, IDD2N 42, IDD3N 45,
//     IDD4R 270, IDD4W 280, IDD5B 215 mA at VDD 1.5 V — the device the default 512 MiB
//     x32 rank is built of (dram.DefaultSpec).
//   - Controller and PCIe: estimates (no datasheet figure; docs/energy.md says why):
//     100 mW per busy core, 10 mW idle; 30 mW per lane and direction in L0, 15 mW in
//     L0s and 3 mW in L1, plus 1.25 pJ/bit on the wire.
//   - Trace: 1 ms buckets, peak windows 1 ms and 10 ms.
func DefaultSpec() Spec {
	const mA, uA = Current(1_000_000), Current(1_000)
	const mW = Power(1_000_000)
	return Spec{
		NAND: NAND{VCC: 3_300_000, VCCQ: 3_300_000, ICC1: 25 * mA, ICC2: 25 * mA, ICC3: 25 * mA,
			ICC4R: 10 * mA, ICC4W: 10 * mA, ISB: 30 * uA},
		DRAM: DRAM{VDD: 1_500_000, IDD0: 110 * mA, IDD2N: 42 * mA, IDD3N: 45 * mA, IDD4R: 270 * mA,
			IDD4W: 280 * mA, IDD5B: 215 * mA, DeviceWidth: 16},
		Controller:  Controller{ActivePower: 100 * mW, IdlePower: 10 * mW},
		PCIe:        PCIe{IdlePowerPerLane: 30 * mW, L0sPowerPerLane: 15 * mW, L1PowerPerLane: 3 * mW, EnergyPerBit: 1250},
		Resolution:  sim.Millisecond,
		PeakWindows: []sim.Time{sim.Millisecond, 10 * sim.Millisecond},
	}
}

// Validate reports every problem with the spec, each with its field path.
func (s Spec) Validate() error {
	var errs []error
	bad := func(field, format string, a ...any) {
		errs = append(errs, fmt.Errorf("energy."+field+": "+format, a...))
	}
	for _, v := range []struct {
		field string
		v     Voltage
	}{{"nand.vcc", s.NAND.VCC}, {"nand.vccq", s.NAND.VCCQ}, {"dram.vdd", s.DRAM.VDD}} {
		if v.v <= 0 {
			bad(v.field, "%v must be positive", v.v)
		}
	}
	n := s.NAND
	if n.ICC1 < n.ISB || n.ICC2 < n.ISB || n.ICC3 < n.ISB {
		bad("nand.isb", "%v is above an array current (icc1 %v, icc2 %v, icc3 %v): standby must be the least", n.ISB, n.ICC1, n.ICC2, n.ICC3)
	}
	d := s.DRAM
	switch {
	case d.IDD3N < d.IDD2N:
		bad("dram.idd3n", "%v is below idd2n %v: active standby draws at least precharge standby", d.IDD3N, d.IDD2N)
	case d.IDD0 < d.IDD3N:
		bad("dram.idd0", "%v is below idd3n %v: activate-precharge cycling draws at least active standby", d.IDD0, d.IDD3N)
	}
	for _, c := range []struct {
		field string
		v     Current
	}{{"idd4r", d.IDD4R}, {"idd4w", d.IDD4W}, {"idd5b", d.IDD5B}} {
		if c.v < d.IDD3N {
			bad("dram."+c.field, "%v is below idd3n %v: a burst draws at least active standby", c.v, d.IDD3N)
		}
	}
	if d.DeviceWidth != 4 && d.DeviceWidth != 8 && d.DeviceWidth != 16 {
		bad("dram.device_width", "%d is not one of 4, 8, 16 (bits)", d.DeviceWidth)
	}
	if s.Controller.ActivePower < s.Controller.IdlePower {
		bad("controller.active_power", "%v is below idle_power %v", s.Controller.ActivePower, s.Controller.IdlePower)
	}
	switch p := s.PCIe; {
	case p.L0sPowerPerLane < 0 || p.L0sPowerPerLane > p.IdlePowerPerLane:
		bad("pcie.l0s_power_per_lane", "%v is not between 0 and idle_power_per_lane %v: L0s draws no more than L0", p.L0sPowerPerLane, p.IdlePowerPerLane)
	case p.L1PowerPerLane < 0 || p.L1PowerPerLane > p.L0sPowerPerLane:
		bad("pcie.l1_power_per_lane", "%v is not between 0 and l0s_power_per_lane %v: L1 draws no more than L0s", p.L1PowerPerLane, p.L0sPowerPerLane)
	}
	if s.Resolution <= 0 {
		bad("resolution", "%v must be positive", s.Resolution)
	}
	if len(s.PeakWindows) == 0 {
		bad("peak_windows", "give at least one window, e.g. [1ms, 10ms]")
	}
	for i, w := range s.PeakWindows {
		if w <= 0 || (s.Resolution > 0 && w%s.Resolution != 0) {
			bad(fmt.Sprintf("peak_windows[%d]", i), "%v is not a positive whole number of buckets of %v (energy.resolution)", w, s.Resolution)
		}
	}
	return errors.Join(errs...)
}

// ValidateDRAM reports whether the rank's bus width (dram.bus_width) is a whole number of
// devices of DeviceWidth.
func (s Spec) ValidateDRAM(busWidth int) error {
	if w := s.DRAM.DeviceWidth; w > 0 && (busWidth < w || busWidth%w != 0) {
		return fmt.Errorf("energy.dram.device_width: %d does not divide dram.bus_width %d", w, busWidth)
	}
	return nil
}
