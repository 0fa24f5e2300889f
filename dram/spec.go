package dram

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Spec is the immutable configuration of a controller DRAM: one rank of DDR3 or DDR4
// devices sharing a data bus. Timing parameters are durations with units ("13.75ns"); the
// model rounds each up to whole clock cycles (nCK = ceil(t / tCK)), as a controller
// programs them. A parameter that the datasheet gives as max(n nCK, t ns) is written here
// as the larger of the two, already resolved.
type Spec struct {
	Kind        string   `yaml:"kind"`         // "ddr3" or "ddr4"
	Capacity    Size     `yaml:"capacity"`     // bytes of the whole rank, e.g. "512MiB"
	BusWidth    int      `yaml:"bus_width"`    // data bus width in bits: 8, 16, 32 or 64
	Banks       int      `yaml:"banks"`        // banks per device: 8 (DDR3), 8 or 16 (DDR4)
	RowSize     Size     `yaml:"row_size"`     // bytes of one row across the rank (page size × devices), a power of two
	BurstLength int      `yaml:"burst_length"` // beats per column command; only BL8 is modelled
	TCK         sim.Time `yaml:"t_ck"`         // clock period; the bus moves two beats per tCK
	CL          sim.Time `yaml:"cl"`           // read command to first data (tAA)
	CWL         sim.Time `yaml:"cwl"`          // write command to first data
	TRCD        sim.Time `yaml:"t_rcd"`        // activate to read/write command
	TRP         sim.Time `yaml:"t_rp"`         // precharge to activate
	TRAS        sim.Time `yaml:"t_ras"`        // activate to precharge, minimum
	TWR         sim.Time `yaml:"t_wr"`         // end of write data to precharge
	TRTP        sim.Time `yaml:"t_rtp"`        // read command to precharge
	TWTR        sim.Time `yaml:"t_wtr"`        // end of write data to read command
	TRRD        sim.Time `yaml:"t_rrd"`        // activate to activate, different banks
	TFAW        sim.Time `yaml:"t_faw"`        // window that holds at most four activates
	TCCD        sim.Time `yaml:"t_ccd"`        // column command to column command
	TRFC        sim.Time `yaml:"t_rfc"`        // refresh command duration
	TREFI       sim.Time `yaml:"t_refi"`       // average refresh interval
	Refresh     bool     `yaml:"refresh"`      // model a refresh (tRFC) every tREFI
}

// DefaultSpec returns a 512 MiB DDR3-1600 11-11-11 buffer (docs/sources.md §4.1): two x16 2 Gb
// devices side by side on a 32-bit bus, 6.4 GB/s peak. x32 is chosen over x64 because an
// SSD controller carries a few x16 chips, not a DIMM; 6.4 GB/s is above PCIe Gen3 x4
// (3.94 GB/s) yet low enough that a host transfer and flash evictions contend visibly.
// A x16 2 Gb DDR3 device has 8 banks of 16 K rows with a 2 KB page, so a row across the
// two devices is 4 KiB and 8 × 16 K × 4 KiB = 512 MiB. Refresh is on; callers copy and edit.
func DefaultSpec() Spec {
	const ns = sim.Nanosecond
	return Spec{
		Kind:        "ddr3",
		Capacity:    512 * MiB,
		BusWidth:    32,
		Banks:       8,
		RowSize:     4 * KiB,
		BurstLength: 8,
		TCK:         1250,      // docs/sources.md §4.1: tCK 1.25 ns (800 MHz, 1600 MT/s)
		CL:          13750,     // docs/sources.md §4.1: CL = 11 nCK = 13.75 ns
		CWL:         10 * ns,   // AS4C256M16D3B datasheet p.32: CWL 8 nCK at tCK 1.25 ns
		TRCD:        13750,     // docs/sources.md §4.1
		TRP:         13750,     // docs/sources.md §4.1
		TRAS:        35 * ns,   // docs/sources.md §4.1
		TWR:         15 * ns,   // docs/sources.md §4.1
		TRTP:        7500,      // docs/sources.md §4.1: max(4 nCK, 7.5 ns)
		TWTR:        7500,      // docs/sources.md §4.1: max(4 nCK, 7.5 ns)
		TRRD:        7500,      // docs/sources.md §4.1: max(4 nCK, 7.5 ns) for 2 KB pages
		TFAW:        40 * ns,   // docs/sources.md §4.1: 40 ns for 2 KB pages
		TCCD:        5 * ns,    // docs/sources.md §4.1: 4 nCK
		TRFC:        160 * ns,  // docs/sources.md §4.1: 2 Gb devices
		TREFI:       7800 * ns, // docs/sources.md §4.1: 7.8 µs below 85 °C
		Refresh:     true,
	}
}

// Validate reports every problem with the spec, each naming its field.
func (s Spec) Validate() error {
	var errs []error
	badf := func(field string, format string, args ...any) {
		errs = append(errs, fmt.Errorf("dram."+field+": "+format, args...))
	}
	switch s.Kind {
	case "ddr3":
		if s.Banks != 8 {
			badf("banks", "%d is not 8 (every DDR3 device has 8 banks)", s.Banks)
		}
	case "ddr4":
		if s.Banks != 8 && s.Banks != 16 {
			badf("banks", "%d is not one of 8, 16 (DDR4 x16 has 8 banks, x4/x8 16)", s.Banks)
		}
	default:
		badf("kind", "%q is not one of ddr3, ddr4", s.Kind)
	}
	busOK := s.BusWidth == 8 || s.BusWidth == 16 || s.BusWidth == 32 || s.BusWidth == 64
	if !busOK {
		badf("bus_width", "%d is not one of 8, 16, 32, 64 (bits)", s.BusWidth)
	}
	if s.BurstLength != 8 {
		badf("burst_length", "%d is not 8 (only BL8 is modelled; BC4 chop is not)", s.BurstLength)
	}
	rowOK := s.RowSize > 0 && s.RowSize&(s.RowSize-1) == 0
	if !rowOK {
		badf("row_size", "%v is not a positive power of two", s.RowSize)
	} else if busOK && s.BurstLength == 8 && int64(s.RowSize) < int64(s.BusWidth) {
		// One BL8 burst moves BusWidth bits × 8 = BusWidth bytes; a row must hold one.
		badf("row_size", "%v is smaller than one burst (%d B)", s.RowSize, s.BusWidth)
	}
	switch {
	case s.Capacity <= 0:
		badf("capacity", "%v must be positive", s.Capacity)
	case rowOK && s.Banks > 0 && int64(s.Capacity)%(int64(s.RowSize)*int64(s.Banks)) != 0:
		badf("capacity", "%v is not a whole number of rows across all banks (%d × %v)",
			s.Capacity, s.Banks, s.RowSize)
	}
	if s.TCK <= 0 {
		badf("t_ck", "%v must be positive", s.TCK)
	}
	for _, p := range []struct {
		field string
		v     sim.Time
	}{{"cl", s.CL}, {"cwl", s.CWL}, {"t_rcd", s.TRCD}, {"t_rp", s.TRP}, {"t_ras", s.TRAS}} {
		if p.v <= 0 {
			badf(p.field, "%v must be positive", p.v)
		}
	}
	for _, p := range []struct {
		field string
		v     sim.Time
	}{{"t_wr", s.TWR}, {"t_rtp", s.TRTP}, {"t_wtr", s.TWTR}, {"t_rrd", s.TRRD},
		{"t_faw", s.TFAW}, {"t_ccd", s.TCCD}, {"t_rfc", s.TRFC}, {"t_refi", s.TREFI}} {
		if p.v < 0 {
			badf(p.field, "%v must not be negative", p.v)
		}
	}
	if s.Refresh {
		if s.TRFC <= 0 {
			badf("t_rfc", "%v must be positive when refresh is on", s.TRFC)
		}
		if s.TREFI <= s.TRFC {
			badf("t_refi", "%v must be longer than t_rfc (%v) when refresh is on", s.TREFI, s.TRFC)
		}
	}
	return errors.Join(errs...)
}

// log2 returns the base-two logarithm of a positive power of two.
func log2(v int64) uint { return uint(bits.TrailingZeros64(uint64(v))) }
