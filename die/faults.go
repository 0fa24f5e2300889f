package die

import (
	"fmt"
	"math"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// FaultSpec is the die's fault model (YAML flash.die.faults): program and erase failures by
// rate or scripted, and factory bad blocks. Every field zero (the default) means no fault
// ever happens and the die behaves, and consumes random numbers, exactly as without it.
//
// A program or erase fails with probability
//
//	p(c) = rate × (1 + c / pe_scale)^pe_exponent
//
// where c is the block's P/E (erase) count before the operation. With pe_exponent 0 (the
// default) the rate is constant. The power law in P/E cycles is the shape Mielke et al.
// ("Bit error rate in NAND flash memories", IRPS 2008) fit to cycling-induced raw bit
// errors; program/erase status failures are used here with the same shape as a stand-in,
// since datasheets give no curve for them (Numonyx NAND08GW3C2A datasheet §9.2: "additional
// bad blocks may develop during the lifetime of the device", identified by a failed status
// in the Status Register). p is capped at 1.
//
// A failed program leaves the other pages of its block intact (the same datasheet: "the
// failure of a Page Program operation does not affect the data in other pages in the same
// block"); the firmware re-programs the data elsewhere and retires the block.
type FaultSpec struct {
	Seed        uint64  `yaml:"seed"`         // root of the per-die fault streams (each die's stream is named after the die)
	ProgramFail float64 `yaml:"program_fail"` // probability a page program fails, at 0 P/E cycles
	EraseFail   float64 `yaml:"erase_fail"`   // probability a block erase fails, at 0 P/E cycles
	PEScale     int     `yaml:"pe_scale"`     // P/E cycles of the growth law's unit (e.g. the rated endurance); 0 = no growth
	PEExponent  float64 `yaml:"pe_exponent"`  // exponent of the growth law; 0 = constant rate
	// FactoryBad is the number of bad blocks per die at build, chosen by the die's seeded
	// stream (Samsung's NAND reliability FAQ allows up to 2 % of blocks bad, initial and
	// grown together).
	FactoryBad int             `yaml:"factory_bad"`
	Scripted   []ScriptedFault `yaml:"scripted"` // faults at given places and times
	// Read is the read-error model (readerrors.go): RBER, ECC and read retry.
	Read ReadErrorSpec `yaml:"read,omitempty"`
}

// ScriptedFault makes one operation fail: the first program of (plane, block, page) — or
// erase of (plane, block), page ignored — on the named die at or after time After.
type ScriptedFault struct {
	Die   string   `yaml:"die"` // the die's hierarchical name, e.g. "ssd.ch[0].die[0]"
	Op    string   `yaml:"op"`  // "program" or "erase"
	Plane int      `yaml:"plane"`
	Block int      `yaml:"block"`
	Page  int      `yaml:"page"`
	After sim.Time `yaml:"after"` // earliest time (0: the first such operation)
}

// Enabled reports whether the spec can make anything fail.
func (f FaultSpec) Enabled() bool {
	return f.ProgramFail > 0 || f.EraseFail > 0 || f.FactoryBad > 0 || len(f.Scripted) > 0 || f.Read.Enabled()
}

// validate reports the fault spec's problems against the die's geometry s.
func (f FaultSpec) validate(s Spec) []error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	prob := func(name string, v float64) {
		if !(v >= 0 && v <= 1) { // also refuses NaN
			bad("die.faults.%s: %v is not a probability in 0 … 1", name, v)
		}
	}
	prob("program_fail", f.ProgramFail)
	prob("erase_fail", f.EraseFail)
	if f.PEScale < 0 {
		bad("die.faults.pe_scale: %d must not be negative", f.PEScale)
	}
	if !(f.PEExponent >= 0 && f.PEExponent <= 16) {
		bad("die.faults.pe_exponent: %v is not in 0 … 16", f.PEExponent)
	}
	if f.PEExponent > 0 && f.PEScale == 0 {
		bad("die.faults.pe_scale: must be positive when pe_exponent (%v) is set", f.PEExponent)
	}
	if n := s.Planes * s.BlocksPerPlane; f.FactoryBad < 0 || (n > 0 && f.FactoryBad >= n) {
		bad("die.faults.factory_bad: %d is not in 0 … %d (the die's blocks less one)", f.FactoryBad, n-1)
	}
	for i, sf := range f.Scripted {
		at := fmt.Sprintf("die.faults.scripted[%d]", i)
		if sf.Die == "" {
			bad("%s.die: missing (the die's name, e.g. \"ssd.ch[0].die[0]\")", at)
		}
		if sf.Op != "program" && sf.Op != "erase" {
			bad("%s.op: %q is not one of program, erase", at, sf.Op)
		}
		if sf.Plane < 0 || sf.Plane >= s.Planes {
			bad("%s.plane: %d is not in 0 … %d", at, sf.Plane, s.Planes-1)
		}
		if sf.Block < 0 || sf.Block >= s.BlocksPerPlane {
			bad("%s.block: %d is not in 0 … %d", at, sf.Block, s.BlocksPerPlane-1)
		}
		if sf.Page < 0 || sf.Page >= s.PagesPerBlock {
			bad("%s.page: %d is not in 0 … %d", at, sf.Page, s.PagesPerBlock-1)
		}
		if sf.After < 0 {
			bad("%s.after: %v must not be negative", at, sf.After)
		}
	}
	return append(errs, f.Read.validate(s)...)
}

// faults is a die's running fault state: its random stream, its scripted faults not yet
// fired, and its factory bad blocks.
type faults struct {
	spec     FaultSpec
	rng      *sim.RNG
	scripted []ScriptedFault // this die's, not yet fired
	factory  []Addr          // factory bad blocks (Page 0), in block order
}

// newFaults returns the fault state of die name, or nil if the spec can fail nothing on it.
// The factory bad blocks are drawn first from the die's stream, without repetition.
func newFaults(name string, s Spec) *faults {
	fs := s.Faults
	if !fs.Enabled() {
		return nil
	}
	x := &faults{spec: fs, rng: sim.NewRNG(fs.Seed, name+".faults")}
	for _, sf := range fs.Scripted {
		if sf.Die == name {
			x.scripted = append(x.scripted, sf)
		}
	}
	if fs.FactoryBad > 0 {
		n := s.Planes * s.BlocksPerPlane
		picked := make([]bool, n)
		for k := 0; k < fs.FactoryBad; {
			b := x.rng.IntN(n)
			if !picked[b] {
				picked[b] = true
				k++
			}
		}
		for b, p := range picked {
			if p {
				x.factory = append(x.factory, Addr{Plane: b / s.BlocksPerPlane, Block: b % s.BlocksPerPlane})
			}
		}
	}
	return x
}

// fails decides whether op ("program" or "erase") of a at t fails, its block having been
// erased pe times: a scripted fault for it fires (once), or the rate's draw. The stream is
// drawn only when the operation's rate is positive.
func (x *faults) fails(t sim.Time, op string, a Addr, pe uint32) bool {
	for i, sf := range x.scripted {
		if sf.Op == op && sf.Plane == a.Plane && sf.Block == a.Block && (op == "erase" || sf.Page == a.Page) && t >= sf.After {
			x.scripted = append(x.scripted[:i], x.scripted[i+1:]...)
			return true
		}
	}
	rate := x.spec.ProgramFail
	if op == "erase" {
		rate = x.spec.EraseFail
	}
	if rate <= 0 {
		return false
	}
	return x.rng.Float64() < x.spec.rateAt(rate, pe)
}

// rateAt returns base × (1 + pe/pe_scale)^pe_exponent, capped at 1.
func (f FaultSpec) rateAt(base float64, pe uint32) float64 {
	if f.PEExponent == 0 || f.PEScale == 0 {
		return base
	}
	return math.Min(1, base*math.Pow(1+float64(pe)/float64(f.PEScale), f.PEExponent))
}

// FactoryBad returns the die's factory bad blocks (Page 0), in block order: the blocks a
// real die's bad-block markers name, which firmware scans at first boot. Programming or
// erasing one is not refused (firmware must not), but nothing is promised about it.
func (d *Die) FactoryBad() []Addr {
	if d.faults == nil {
		return nil
	}
	return d.faults.factory
}

// Failed returns the planes whose part of the last program or erase failed (bit p for plane
// p), 0 if it succeeded: the die's status register after the operation (ONFI Read Status
// FAIL bit, per plane with Read Status Enhanced); after a read, the planes whose page stays
// uncorrectable after ReadRetries retry steps (the ECC's verdict, here the die's). The
// channel copies it into the transaction.
func (d *Die) Failed() uint64 { return d.failed }
