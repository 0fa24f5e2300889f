package die

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/internal/bitset"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// SLCSpec is the die's pseudo-SLC (pSLC) mode: a block of a multi-level die programmed with
// one bit a cell, the medium of a drive's SLC cache. The controller selects the mode per
// operation with a prefix command (ONFI parts: the 3Bh prefix, or DAh/DFh to enter and leave
// the mode, or Set Features 91h; Intel's Agilex 5 HPS NAND controller manual, "Support of
// TLC (pSLC Mode) Devices"; Samsung's OBP parts: DAh before an SLC command), and a block
// keeps the mode it was first programmed in until it is erased. In SLC mode a block holds
// one page a word line, PagesPerBlock / bits pages ("TLC devices in pSLC mode do not have a
// continuous row address space because the number of pages per block is lower", the same
// manual), programmed page by page in order, each page's tPROG its own (no one-shot
// latching, no coarse/fine passes), every page read with one read level.
//
// The zero value means the die is used without an SLC mode.
type SLCSpec struct {
	TRead sim.Time `yaml:"t_read"` // tR of a page of a block in SLC mode
	TProg sim.Time `yaml:"t_prog"` // tPROG of a page (its word line) of a block in SLC mode
	// Endurance is how many P/E cycles in SLC mode wear a block as much as one in its native
	// mode (pSLC endurance over native: 3D TLC rated 3,000 cycles reaches 30,000 in pSLC
	// mode on earlier generations and up to 100,000 on current ones, Swissbit, "4 reasons to
	// use industrial 3D TLC NAND flash as pseudo-SLC", 2023: a ratio of 10 to 33). The fault
	// model's P/E count (FaultSpec, readerrors.go) counts a cycle in SLC mode as 1/Endurance
	// of one: Wear. 0 means 1 (the same wear).
	Endurance int `yaml:"endurance,omitempty"`
}

// Enabled reports whether the die has an SLC mode.
func (s SLCSpec) Enabled() bool { return s.TProg > 0 || s.TRead > 0 }

// validate reports the SLC mode's problems against the die's spec s.
func (s SLCSpec) validate(d Spec) []error {
	if !s.Enabled() && s.Endurance == 0 {
		return nil
	}
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if s.TRead <= 0 {
		bad("die.slc.t_read: %v must be positive for the SLC mode", s.TRead)
	}
	if s.TProg <= 0 {
		bad("die.slc.t_prog: %v must be positive for the SLC mode", s.TProg)
	}
	if s.Endurance < 0 || s.Endurance > 1000 {
		bad("die.slc.endurance: %d is not in 0 … 1000", s.Endurance)
	}
	if d.Cell == SLC {
		bad("die.slc: an SLC mode needs a multi-level die (mlc, tlc or qlc), not slc")
	} else if d.Bits() > 1 && d.PagesPerBlock > 0 && d.PagesPerBlock%d.Bits() != 0 {
		bad("die.slc: pages_per_block %d is not a multiple of the %d pages of a %v word line, so a block in SLC mode would not hold whole word lines",
			d.PagesPerBlock, d.Bits(), d.Cell)
	}
	return errs
}

// SLCPages returns the pages of a block in SLC mode, PagesPerBlock / bits (one a word line),
// or 0 if the die has no SLC mode.
func (s Spec) SLCPages() int {
	if !s.SLC.Enabled() || s.Bits() < 2 {
		return 0
	}
	return s.PagesPerBlock / s.Bits()
}

// slcState is a die's SLC-mode bookkeeping, allocated only with Spec.SLC.
type slcState struct {
	blocks bitset.Set // blocks in SLC mode (programmed in it since their last erase)
	erases []uint32   // erases of each block while in SLC mode
	pages  int        // Spec.SLCPages
	endur  uint32     // Spec.SLC.Endurance, at least 1
	// The SLC activities, registered on the array and the planes only with an SLC mode, so
	// other dies' utilization tables are unchanged.
	actRead, actProg, actErase sim.Activity
}

// newSLCState returns the SLC bookkeeping of a die of spec with nb blocks, or nil without an
// SLC mode.
func newSLCState(spec Spec, nb int) *slcState {
	if spec.SLCPages() == 0 {
		return nil
	}
	return &slcState{blocks: bitset.New(nb), erases: make([]uint32, nb), pages: spec.SLCPages(),
		endur: uint32(max(1, spec.SLC.Endurance))}
}

// IsSLC reports whether block (plane, block) is in SLC mode: programmed in it since its last
// erase.
func (d *Die) IsSLC(plane, block int) bool {
	return d.slc != nil && d.slc.blocks.Has(d.blockIndex(plane, block))
}

// isSLC is IsSLC by block index.
func (d *Die) isSLC(b int) bool { return d.slc != nil && d.slc.blocks.Has(b) }

// BlockPages returns the pages block (plane, block) holds in its mode: SLCPages in SLC mode,
// PagesPerBlock otherwise.
func (d *Die) BlockPages(plane, block int) int {
	if d.IsSLC(plane, block) {
		return d.slc.pages
	}
	return d.spec.PagesPerBlock
}

// Wear returns block (plane, block)'s P/E cycles as the fault model counts them: its native
// erases plus its erases in SLC mode divided by SLCSpec.Endurance (rounded down).
func (d *Die) Wear(plane, block int) int { return int(d.wear(d.blockIndex(plane, block))) }

// wear is Wear by block index.
func (d *Die) wear(b int) uint32 {
	if d.slc == nil {
		return d.erases[b]
	}
	s := d.slc.erases[b]
	return d.erases[b] - s + s/d.slc.endur
}

// SLCErases returns how many times block (plane, block) was erased in SLC mode (0 without
// an SLC mode).
func (d *Die) SLCErases(plane, block int) int {
	if d.slc == nil {
		return 0
	}
	return int(d.slc.erases[d.blockIndex(plane, block)])
}

// checkMode panics unless each address's block is in the mode the operation names: a
// block's mode is set by its first program (slc true: SLC mode) and kept until its erase, so
// a program of a programmed block, and a read of a programmed page, must name the same
// mode; the page must be within the block's pages in that mode. A read of a block that is
// erased may name either. Without an SLC mode slc must be false.
func (d *Die) checkMode(t sim.Time, op string, addrs []Addr, slc bool) {
	if d.slc == nil {
		if slc {
			d.fail(t, "%s of %v in SLC mode, but the die has none (die.slc)", op, addrs[0])
		}
		return
	}
	for _, a := range addrs {
		b := d.blockIndex(a.Plane, a.Block)
		if d.next[b] > 0 && d.slc.blocks.Has(b) != slc {
			d.fail(t, "%s of %v in %s mode, but the block is programmed in %s mode", op, a, modeName(slc), modeName(!slc))
		}
		if slc && a.Page >= d.slc.pages {
			d.fail(t, "%s of %v in SLC mode: a block in SLC mode holds %d pages", op, a, d.slc.pages)
		}
	}
}

// modeName names a block mode in messages.
func modeName(slc bool) string {
	if slc {
		return "SLC"
	}
	return "native"
}
