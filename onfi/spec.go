package onfi

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Interface is a NAND data interface: SDR (ONFI 1.x), NV-DDR (2.x), NV-DDR2 (3.x–4.x),
// NV-DDR3 (4.x, and 5.x), NV-LPDDR4 (ONFI 5.x) or Toggle DDR (the Samsung/Kioxia interface,
// Toggle 2.0 … 5.0). In YAML it is written "sdr", "nv-ddr", "nv-ddr2", "nv-ddr3",
// "nv-lpddr4" or "toggle". The newer interfaces are given by their data rate (Spec.Rate)
// rather than a timing-mode number.
type Interface uint8

// The NAND data interfaces.
const (
	SDR Interface = iota
	NVDDR
	NVDDR2
	NVDDR3
	NVLPDDR4
	Toggle
)

var interfaceNames = [...]string{"sdr", "nv-ddr", "nv-ddr2", "nv-ddr3", "nv-lpddr4", "toggle"}

// maxRate is the fastest data rate Spec.Rate accepts, in MT/s: 3,600 MT/s, the top of the
// ONFI 5.x / Toggle 5 range the simulator covers (issue 34: "1.6–3.6 GT/s").
const maxRate = 3600

// String returns the interface's YAML name, e.g. "nv-ddr2".
func (i Interface) String() string {
	if int(i) < len(interfaceNames) {
		return interfaceNames[i]
	}
	return fmt.Sprintf("interface(%d)", uint8(i))
}

// MarshalText implements encoding.TextMarshaler.
func (i Interface) MarshalText() ([]byte, error) { return []byte(i.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler; it accepts the names String returns.
func (i *Interface) UnmarshalText(b []byte) error {
	for k, n := range interfaceNames {
		if string(b) == n {
			*i = Interface(k)
			return nil
		}
	}
	return fmt.Errorf("onfi interface %q is not one of sdr, nv-ddr, nv-ddr2, nv-ddr3, nv-lpddr4, toggle", b)
}

// rates holds the data rate in MT/s per interface and timing mode, from the SimpleSSD table
// "Typical values from ONFi" (docs/sources.md §3.1, SimpleSSD branch 2.0 config/sample.cfg).
var rates = [...][]int{
	SDR:    {10, 20, 29, 33, 40, 50},
	NVDDR:  {40, 67, 100, 133, 167, 200},
	NVDDR2: {67, 80, 133, 167, 200, 267, 333, 400, 533},
	NVDDR3: {67, 80, 133, 167, 200, 267, 333, 400, 533, 667, 800},
	// NV-LPDDR4 and Toggle have no mode table here: Spec.Rate gives their rate.
	NVLPDDR4: nil,
	Toggle:   nil,
}

// RateMTps returns the data rate in mega-transfers per second of an interface's timing mode
// (docs/sources.md §3.1), and false if the mode does not exist for that interface.
func RateMTps(iface Interface, mode int) (int, bool) {
	if int(iface) >= len(rates) || mode < 0 || mode >= len(rates[iface]) {
		return 0, false
	}
	return rates[iface][mode], true
}

// Spec is the immutable timing configuration of one ONFI channel bus. The data rate follows
// from Interface and Mode (docs/sources.md §3.1); the command/address parameters are explicit so a
// platform can enter a datasheet's values. SpecFor fills them for a mode.
type Spec struct {
	Interface Interface `yaml:"interface"` // sdr, nv-ddr, nv-ddr2 or nv-ddr3
	Mode      int       `yaml:"mode"`      // timing mode, 0 … 5 (SDR, NV-DDR), 8 (NV-DDR2), 10 (NV-DDR3)
	// Rate is the data rate in MT/s, for the rates past the mode table: NV-DDR3 above
	// 800 MT/s (ONFI 4.1/4.2: 1,200 and 1,600 MT/s), NV-LPDDR4 (ONFI 5.x: 2,400 MT/s and up)
	// and Toggle (Toggle 4.0/5.0: 1,200 … 2,400 MT/s and up), up to 3,600 MT/s. When set it
	// replaces the mode's rate (Mode is then not used); required for nv-lpddr4 and toggle.
	Rate     int `yaml:"rate,omitempty"`
	BusWidth int `yaml:"bus_width"` // data bus width in bits: 8 (16 allowed, docs/sources.md §3.1)

	ColumnCycles int `yaml:"column_cycles"` // address cycles for the column (byte in page), usually 2
	RowCycles    int `yaml:"row_cycles"`    // address cycles for the row (page, block, LUN), usually 3

	TWC   sim.Time `yaml:"t_wc"`   // one command or address cycle (WE# cycle, or tCK in NV-DDR)
	TCAD  sim.Time `yaml:"t_cad"`  // minimum spacing of command/address cycles (NV-DDR and later)
	TADL  sim.Time `yaml:"t_adl"`  // last address cycle to first data-in cycle
	TWB   sim.Time `yaml:"t_wb"`   // confirm command to die busy (R/B# low)
	TWHR  sim.Time `yaml:"t_whr"`  // read-status command to status data out
	TCCS  sim.Time `yaml:"t_ccs"`  // change-column setup (random data out/in, plane select)
	TRR   sim.Time `yaml:"t_rr"`   // die ready to first data-out cycle
	TDBSY sim.Time `yaml:"t_dbsy"` // dummy busy after each non-last plane of a multi-plane command
	// TBurst is the fixed cost of every data burst (each data-in or data-out phase, and a
	// status byte): the DQS read/write preamble and postamble (tRPRE + tRPST, tWPRE +
	// tWPST) of the DDR interfaces, a few clock periods that matter at 1.6 GT/s and up
	// where a 4 KiB burst is 2.6 µs or less. 0 by default (not in docs/sources.md's tables): enter
	// the datasheet's value.
	TBurst sim.Time `yaml:"t_burst,omitempty"`
}

// SpecForRate returns the timing of a rate-given interface (NV-DDR3 past 800 MT/s,
// NV-LPDDR4, Toggle) at rate MT/s: the NV-DDR2/3 command timing of SpecFor (SimpleSSD
// sample.xml and Linux nand_timings.c, docs/sources.md §3.2) with the data clocked at rate.
func SpecForRate(iface Interface, rate int) (Spec, error) {
	if iface < NVDDR3 || int(iface) >= len(interfaceNames) {
		return Spec{}, fmt.Errorf("onfi.rate: %v is given by timing mode, not rate", iface)
	}
	if rate < 1 || rate > maxRate {
		return Spec{}, fmt.Errorf("onfi.rate: %d MT/s is not in 1 … %d", rate, maxRate)
	}
	s, err := SpecFor(NVDDR3, 10)
	if err != nil {
		return Spec{}, err
	}
	s.Interface, s.Mode, s.Rate = iface, 0, rate
	return s, nil
}

// DefaultSpec returns an NV-DDR2 timing-mode-6 bus: 333 MT/s on 8 bits, the rate of the
// SimpleSSD Intel 750 preset ("DMA 333 MT/s × 8-bit", docs/sources.md §4.2), with the NV-DDR2
// command timing of SimpleSSD's sample.xml (docs/sources.md §3.2).
func DefaultSpec() Spec {
	s, err := SpecFor(NVDDR2, 6)
	if err != nil {
		panic(err) // unreachable: mode 6 exists for NV-DDR2
	}
	return s
}

// SpecFor returns the timing of an interface's mode on an 8-bit bus with 2 column and 3 row
// address cycles. Sources (docs/sources.md §3.2):
//   - SDR: tWC = tRC = one transfer period (100 ns in mode 0, 20 ns in mode 5, as in Linux's
//     onfi_sdr_timings); tADL 400 ns; tWB 200 ns in mode 0, else 100 ns; tWHR 120 ns in
//     mode 0, else 80 ns; tCCS 500 ns.
//   - NV-DDR: command/address cycles are clocked, tWC = tCK = two transfer periods (50 ns in
//     mode 0 … 10 ns in mode 5, Linux nand_timings.c), spaced by tCAD 45 ns; tADL 400 ns,
//     tWB 100 ns, tWHR 80 ns, tCCS 500 ns.
//   - NV-DDR2/NV-DDR3: SimpleSSD v2.1 sample.xml: tWC 25 ns, tADL 70 ns, tWB 100 ns, with
//     fast tCAD 25 ns and Linux's tWHR 80 ns and tCCS 500 ns.
//
// For all: tRR 20 ns and tDBSY 500 ns (SimpleSSD sample.xml).
func SpecFor(iface Interface, mode int) (Spec, error) {
	rate, ok := RateMTps(iface, mode)
	if !ok {
		return Spec{}, fmt.Errorf("onfi.mode: %d is not a timing mode of %v", mode, iface)
	}
	ns := sim.Nanosecond
	period := sim.Time(1_000_000 / rate) // one transfer, in ps (MT/s → 10⁶ ps per transfer)
	s := Spec{Interface: iface, Mode: mode, BusWidth: 8, ColumnCycles: 2, RowCycles: 3,
		TRR: 20 * ns, TDBSY: 500 * ns, TCCS: 500 * ns, TWHR: 80 * ns, TWB: 100 * ns, TADL: 400 * ns}
	switch iface {
	case SDR:
		s.TWC = period
		if mode == 0 {
			s.TWB, s.TWHR = 200*ns, 120*ns
		}
	case NVDDR:
		s.TWC, s.TCAD = 2*period, 45*ns
	default:
		s.TWC, s.TCAD, s.TADL = 25*ns, 25*ns, 70*ns
	}
	return s, nil
}

// Validate reports every problem with the spec, each naming its field.
func (s Spec) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	switch {
	case int(s.Interface) >= len(rates):
		bad("onfi.interface: %v is not one of sdr, nv-ddr, nv-ddr2, nv-ddr3, nv-lpddr4, toggle", s.Interface)
	case s.Rate != 0 && s.Interface < NVDDR3:
		bad("onfi.rate: %d is set, but %v is given by its timing mode (onfi.mode)", s.Rate, s.Interface)
	case s.Rate < 0 || s.Rate > maxRate:
		bad("onfi.rate: %d MT/s is not in 1 … %d", s.Rate, maxRate)
	case s.Rate == 0 && s.Interface > NVDDR3:
		bad("onfi.rate: %v needs its data rate in MT/s (onfi.rate), e.g. 2400", s.Interface)
	case s.Rate == 0:
		if _, ok := RateMTps(s.Interface, s.Mode); !ok {
			bad("onfi.mode: %d is not a timing mode of %v (0 … %d)", s.Mode, s.Interface, len(rates[s.Interface])-1)
		}
	}
	if s.TBurst < 0 {
		bad("onfi.t_burst: %v must not be negative", s.TBurst)
	}
	if s.BusWidth != 8 && s.BusWidth != 16 {
		bad("onfi.bus_width: %d is not one of 8, 16", s.BusWidth)
	}
	if s.ColumnCycles < 1 || s.ColumnCycles > 4 {
		bad("onfi.column_cycles: %d is not in 1 … 4", s.ColumnCycles)
	}
	if s.RowCycles < 1 || s.RowCycles > 5 {
		bad("onfi.row_cycles: %d is not in 1 … 5", s.RowCycles)
	}
	if s.TWC <= 0 {
		bad("onfi.t_wc: %v must be positive", s.TWC)
	}
	for _, f := range []struct {
		name string
		v    sim.Time
	}{{"t_cad", s.TCAD}, {"t_adl", s.TADL}, {"t_wb", s.TWB}, {"t_whr", s.TWHR},
		{"t_ccs", s.TCCS}, {"t_rr", s.TRR}, {"t_dbsy", s.TDBSY}} {
		if f.v < 0 {
			bad("onfi.%s: %v must not be negative", f.name, f.v)
		}
	}
	return errors.Join(errs...)
}
