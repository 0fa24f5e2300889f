package die

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/nand"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// CellType is the number of bits per cell: SLC, MLC, TLC or QLC. In YAML it is "slc", "mlc",
// "tlc" or "qlc".
type CellType uint8

// The cell types.
const (
	SLC CellType = 1
	MLC CellType = 2
	TLC CellType = 3
	QLC CellType = 4
)

// String returns the cell type's YAML name.
func (c CellType) String() string {
	switch c {
	case SLC:
		return "slc"
	case MLC:
		return "mlc"
	case TLC:
		return "tlc"
	case QLC:
		return "qlc"
	}
	return fmt.Sprintf("cell(%d)", uint8(c))
}

// MarshalText implements encoding.TextMarshaler.
func (c CellType) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (c *CellType) UnmarshalText(b []byte) error {
	for _, v := range []CellType{SLC, MLC, TLC, QLC} {
		if string(b) == v.String() {
			*c = v
			return nil
		}
	}
	return fmt.Errorf("die cell type %q is not one of slc, mlc, tlc, qlc", b)
}

// PageType is the kind of a page in a multi-level cell (nand.PageType): LSB, CSB (TLC and
// QLC), MSB, or TSB (the top page, QLC only). Every SLC page is LSB.
type PageType = nand.PageType

// The page types (package nand's).
const (
	LSB = nand.LSB
	CSB = nand.CSB
	MSB = nand.MSB
	TSB = nand.TSB // QLC's fourth (top) page

	// NumPageTypes is the number of page types; arrays indexed by PageType have this length.
	NumPageTypes = nand.NumPageTypes
)

// PerType holds one latency per page type.
type PerType struct {
	LSB sim.Time `yaml:"lsb"`
	CSB sim.Time `yaml:"csb"`
	MSB sim.Time `yaml:"msb"`
	TSB sim.Time `yaml:"tsb,omitempty"` // QLC only
}

// Of returns the latency of page type p.
func (l PerType) Of(p PageType) sim.Time {
	switch p {
	case CSB:
		return l.CSB
	case MSB:
		return l.MSB
	case TSB:
		return l.TSB
	}
	return l.LSB
}

// SectorSize is the 512-byte sector a page's data area is made of: page sizes are whole
// sectors (2, 4, 8 and 16 KiB pages in practice), so that the host's blocks and the
// firmware's mapping units divide them.
const SectorSize = 512

// Spec is the immutable configuration of a die.
type Spec struct {
	Cell    CellType `yaml:"cell"`     // slc, mlc, tlc or qlc
	OneShot bool     `yaml:"one_shot"` // 3D one-shot: a word line's pages program together (Scheme one-shot)
	// Scheme is the programming scheme (scheme.go): page (2D page by page, the default),
	// one-shot (the same as one_shot: true) or two-pass (3D coarse/fine).
	Scheme         Scheme `yaml:"scheme,omitempty"`
	Planes         int    `yaml:"planes"`           // planes per die, 1 … 64
	BlocksPerPlane int    `yaml:"blocks_per_plane"` // blocks in each plane
	PagesPerBlock  int    `yaml:"pages_per_block"`  // pages in each block, ≤ 65,535
	PageSize       int    `yaml:"page_size"`        // data bytes per page (moved on the bus), whole 512-byte sectors

	TRead  PerType  `yaml:"t_read"`  // tR per page type
	TProg  PerType  `yaml:"t_prog"`  // tPROG per page type (one-shot: of the whole word line, at its last page)
	TErase sim.Time `yaml:"t_erase"` // tBERS
	// TProgFine is the fine pass of a two-pass (coarse/fine) word line program; t_prog of
	// the word line's last page type is its coarse pass (scheme.go).
	TProgFine sim.Time `yaml:"t_prog_fine,omitempty"`

	// MultiPlaneSameBlock additionally requires the blocks of a multi-plane operation to have
	// the same index in their planes. Without it the rule is: distinct planes, same page index.
	MultiPlaneSameBlock bool `yaml:"multi_plane_same_block"`

	Suspend     bool     `yaml:"suspend"`      // a read may suspend a running program or erase
	TSuspend    sim.Time `yaml:"t_suspend"`    // time to suspend before the read's tR starts
	TResume     sim.Time `yaml:"t_resume"`     // time to resume after the read's tR ends
	MaxSuspends int      `yaml:"max_suspends"` // suspensions allowed per program/erase; 0 = no limit

	// Faults is the fault model (faults.go); the zero value, the default, fails nothing.
	Faults FaultSpec `yaml:"faults,omitempty"`

	// SLC is the pseudo-SLC mode (slc.go): blocks programmed with one bit a cell, an SLC
	// cache's medium. The zero value, the default: none.
	SLC SLCSpec `yaml:"slc,omitempty"`
	// IndependentPlaneReads lets a read start on a plane while other planes of the die are
	// reading (planes.go): each plane senses on its own, as parts with independent (or
	// asynchronous) multi-plane reads do. Without it a die reads one page (or one
	// multi-plane set) at a time.
	IndependentPlaneReads bool `yaml:"independent_plane_reads,omitempty"`
	// CacheProgram lets the channel load a program's data into the die's cache register
	// while the array programs the page before (ONFI Page Cache Program 80h–15h, and its
	// multi-plane form 80h–11h … 81h–15h; the Hynix H27UCG8T2M's §4.11: the device takes the
	// next 80h–15h while the array programs, within one block): the next program's data-in
	// overlaps the array time, and its tPROG starts when the one before ends
	// (package channel, cacheprog.go). Without it a die takes a program's data only when it
	// is free. The zero value, the default: off.
	CacheProgram bool `yaml:"cache_program,omitempty"`

	// Slots is how many out-of-band stamps a page keeps: one per mapping unit the firmware
	// packs into it (sub-page mapping, docs/firmware.md), 0 or 1 for one a page. It is not a
	// property of the flash but of how the firmware uses it, so it is not read from YAML:
	// the platform sets it to flash.die.page_size / firmware.page_size.
	Slots int `yaml:"-"`
}

// StampsPerPage returns the out-of-band stamps a page keeps: Slots, at least 1.
func (s Spec) StampsPerPage() int { return max(1, s.Slots) }

// DefaultSpec returns a 2D TLC die with the SimpleSSD LatencyTLC.cc timing of docs/sources.md §3.4:
// read 58/78/107 µs, program 558/2,201/5,001 µs (LSB/CSB/MSB), erase 2,274 µs. The geometry
// (2 planes × 1,024 blocks × 384 pages × 16 KiB, 12 GiB) is a round TLC-class choice that
// presets override; suspend is off.
func DefaultSpec() Spec { return SpecFor(TLC) }

// SpecFor returns the default die of a cell type, with the same geometry as DefaultSpec:
//   - TLC: docs/sources.md §3.4, SimpleSSD LatencyTLC.cc (see DefaultSpec).
//   - MLC: docs/sources.md §3.4, SimpleSSD LatencyMLC.cc: read 40/65 µs, program 500/1,300 µs,
//     erase 3.5 ms.
//   - SLC: docs/sources.md §3.4, HP white paper Table 1: read 25 µs, program 300 µs (top of its
//     200–300 µs range, the Micron typical value), erase 2 ms.
//   - QLC: a 3D QLC die programmed in two passes (16–16 coarse/fine, the scheme of Micron's
//     176-tier 1 Tb QLC, Pekny et al., ISSCC 2022, doi 10.1109/ISSCC42614.2022.9731691,
//     which gives the scheme, 4 planes and 16 KiB pages but, in its abstract, no array
//     times). The times are therefore derived: read 140 µs for every page type (QLC senses
//     up to 4–5 of its 15 read levels a page; twice TLC's ~70 µs), coarse pass 2,000 µs and
//     fine pass 2,800 µs per word line, so a plane's four 16 KiB pages take 4.8 ms, 13.7 MB/s
//     a plane — with 4 planes 55 MB/s a die, the order of Samsung's 96-WL 1 Tb QLC
//     (30 MB/s, ISSCC 2020 paper 13.2) and 176-tier parts' 33 % faster I/O; erase 10 ms.
//     The geometry is DefaultSpec's, with 4 planes.
func SpecFor(c CellType) Spec {
	us := sim.Microsecond
	s := Spec{Cell: c, Planes: 2, BlocksPerPlane: 1024, PagesPerBlock: 384, PageSize: 16384}
	switch c {
	case SLC:
		s.TRead = PerType{LSB: 25 * us}
		s.TProg = PerType{LSB: 300 * us}
		s.TErase = 2000 * us
	case MLC:
		s.TRead = PerType{LSB: 40 * us, MSB: 65 * us}
		s.TProg = PerType{LSB: 500 * us, MSB: 1300 * us}
		s.TErase = 3500 * us
	case QLC:
		s.Planes, s.Scheme = 4, TwoPass
		s.TRead = PerType{LSB: 140 * us, CSB: 140 * us, MSB: 140 * us, TSB: 140 * us}
		s.TProg = PerType{LSB: 2000 * us, CSB: 2000 * us, MSB: 2000 * us, TSB: 2000 * us}
		s.TProgFine = 2800 * us
		s.TErase = 10000 * us
	default:
		s.Cell = TLC
		s.TRead = PerType{LSB: 58 * us, CSB: 78 * us, MSB: 107 * us}
		s.TProg = PerType{LSB: 558 * us, CSB: 2201 * us, MSB: 5001 * us}
		s.TErase = 2274 * us
	}
	return s
}

// Bits returns the number of bits per cell, which is also the number of pages per word line.
func (s Spec) Bits() int { return int(s.Cell) }

// PageType returns the type of page index page of a block:
//   - SLC: every page is LSB.
//   - MLC: page % 2 (0 LSB, 1 MSB), the SimpleSSD LatencyMLC.cc map (docs/sources.md §3.4).
//   - 2D TLC: pages 0–5 LSB, 6–7 CSB, then ((page−8)>>1) % 3 with 0 LSB, 1 CSB, 2 MSB, the
//     SimpleSSD LatencyTLC.cc shadow-program order (docs/sources.md §3.4).
//   - 3D one-shot or two-pass TLC and QLC: page % bits (word line page/bits holds LSB, CSB,
//     MSB and, for QLC, TSB, programmed together).
//   - QLC page by page: page % 4 (word line page/4 holds LSB, CSB, MSB, TSB in that order).
func (s Spec) PageType(page int) PageType {
	if s.ProgramScheme() != PageByPage && s.Bits() > 1 {
		return PageType(page % s.Bits())
	}
	switch s.Cell {
	case QLC:
		return PageType(page % 4)
	case MLC:
		if page%2 == 1 {
			return MSB
		}
		return LSB
	case TLC:
		switch {
		case page <= 5:
			return LSB
		case page <= 7:
			return CSB
		}
		return PageType(((page - 8) >> 1) % 3)
	}
	return LSB
}

// Validate reports every problem with the spec, each naming its field.
func (s Spec) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if s.Cell < SLC || s.Cell > QLC {
		bad("die.cell: %v is not one of slc, mlc, tlc, qlc", s.Cell)
	}
	errs = append(errs, s.validateScheme()...)
	if s.Planes < 1 || s.Planes > 64 {
		bad("die.planes: %d is not in 1 … 64", s.Planes)
	}
	if s.BlocksPerPlane < 1 {
		bad("die.blocks_per_plane: %d must be positive", s.BlocksPerPlane)
	}
	if s.PagesPerBlock < 1 || s.PagesPerBlock > 65535 {
		bad("die.pages_per_block: %d is not in 1 … 65535", s.PagesPerBlock)
	} else if s.ProgramScheme() != PageByPage && s.Bits() > 1 && s.PagesPerBlock%s.Bits() != 0 {
		bad("die.pages_per_block: %d is not a multiple of the %d pages of a %v word line",
			s.PagesPerBlock, s.Bits(), s.Cell)
	}
	if s.PageSize < 1 || s.PageSize%SectorSize != 0 {
		bad("die.page_size: %d is not a positive multiple of the %d-byte sector", s.PageSize, SectorSize)
	}
	for _, pt := range s.usedTypes() {
		if s.TRead.Of(pt) <= 0 {
			bad("die.t_read.%v: %v must be positive for %v", pt, s.TRead.Of(pt), s.Cell)
		}
		if s.TProg.Of(pt) <= 0 {
			bad("die.t_prog.%v: %v must be positive for %v", pt, s.TProg.Of(pt), s.Cell)
		}
	}
	if s.Slots < 0 || s.Slots > 64 {
		bad("die.slots: %d stamps per page is not in 0 … 64", s.Slots)
	}
	if s.TErase <= 0 {
		bad("die.t_erase: %v must be positive", s.TErase)
	}
	if s.TSuspend < 0 {
		bad("die.t_suspend: %v must not be negative", s.TSuspend)
	}
	if s.TResume < 0 {
		bad("die.t_resume: %v must not be negative", s.TResume)
	}
	if s.MaxSuspends < 0 {
		bad("die.max_suspends: %d must not be negative", s.MaxSuspends)
	}
	errs = append(errs, s.Faults.validate(s)...)
	errs = append(errs, s.SLC.validate(s)...)
	return errors.Join(errs...)
}

// usedTypes returns the page types a cell type has.
func (s Spec) usedTypes() []PageType {
	switch s.Cell {
	case MLC:
		return []PageType{LSB, MSB}
	case TLC:
		return []PageType{LSB, CSB, MSB}
	case QLC:
		return []PageType{LSB, CSB, MSB, TSB}
	}
	return []PageType{LSB}
}
