package ftl

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/nand"
)

// PageKind is the speed class of a flash page within its word line: LSB pages program
// fastest, MSB slowest (docs/sources.md §3.4: 2D TLC 558 / 2,201 / 5,001 µs). It is the
// flash protocol's page type (nand.PageType); the page-type map is the die's, which the
// flash port hands over (hal.DieSpec.PageType, Geometry.Kind).
type PageKind = nand.PageType

// Page kinds. SLC pages are all LSB; MLC pages are LSB or MSB; QLC pages add TSB.
const (
	LSB      = nand.LSB
	CSB      = nand.CSB
	MSB      = nand.MSB
	TSB      = nand.TSB
	numKinds = nand.NumPageTypes
)

// Geometry is the shape of the flash array as the FTL sees it. Dies are numbered
// channel-major (die d is on channel d / DiesPerChannel); the allocators interleave
// consecutive allocations across channels first.
type Geometry struct {
	Channels       int
	DiesPerChannel int // ways × dies per package
	Planes         int
	BlocksPerPlane int
	PagesPerBlock  int
	// Kind maps a page index within a block to its kind (the die's page-type map).
	Kind func(page int) PageKind
	// UnitsPerPage is how many mapping units a physical page holds (sub-page mapping: a
	// 4 KiB unit in an 8 KiB or 16 KiB page): 1, 2 or 4; 0 means 1. The map, reverse map and
	// valid counts are in units; the allocators place pages.
	UnitsPerPage int
	// SLCPages is the pages of a block in the die's pSLC mode (hal.DieSpec.SLCPages), 0 if the
	// die has none; the SLC cache (slccache.go) needs it.
	SLCPages int
}

// MaxUnitsPerPage bounds Geometry.UnitsPerPage: a 16 KiB page of 4 KiB units (the page of
// die.DefaultSpec's TLC die, the largest the presets and the MQSim importer use; our
// bound), and the most slots a program's out-of-band stamps carry per plane in a
// transaction.
const MaxUnitsPerPage = 4

// Units returns the mapping units per physical page (UnitsPerPage, at least 1).
func (g Geometry) Units() int { return max(1, g.UnitsPerPage) }

// AllUnits returns the number of physical mapping units in the array: Pages · Units.
func (g Geometry) AllUnits() int64 { return g.Pages() * int64(g.Units()) }

// Validate reports every problem with the geometry.
func (g Geometry) Validate() error {
	var errs []error
	pos := func(name string, v int) {
		if v <= 0 {
			errs = append(errs, fmt.Errorf("ftl geometry: %s must be positive, got %d", name, v))
		}
	}
	pos("channels", g.Channels)
	pos("dies per channel", g.DiesPerChannel)
	pos("planes", g.Planes)
	pos("blocks per plane", g.BlocksPerPlane)
	pos("pages per block", g.PagesPerBlock)
	if g.PagesPerBlock > 65535 {
		errs = append(errs, fmt.Errorf("ftl geometry: pages per block %d exceeds 65535", g.PagesPerBlock))
	}
	if u := g.UnitsPerPage; u != 0 && u != 1 && u != 2 && u != 4 {
		errs = append(errs, fmt.Errorf("ftl geometry: %d mapping units per page; want 1, 2 or 4 (a 4 KiB unit in a 4, 8 or 16 KiB page)", u))
	} else if g.PagesPerBlock > 0 && g.PagesPerBlock*g.Units() > 65535 {
		errs = append(errs, fmt.Errorf("ftl geometry: %d pages per block of %d units exceed the 65535 units a block's valid count holds",
			g.PagesPerBlock, g.Units()))
	}
	if g.Kind == nil {
		errs = append(errs, errors.New("ftl geometry: page kind map is missing"))
	}
	if len(errs) == 0 && uint64(g.AllUnits()) >= uint64(NoPage) {
		if g.Units() > 1 {
			errs = append(errs, fmt.Errorf("ftl geometry: %d physical pages of %d mapping units do not fit 32-bit unit numbers", g.Pages(), g.Units()))
		} else {
			errs = append(errs, fmt.Errorf("ftl geometry: %d physical pages do not fit 32-bit page numbers", g.Pages()))
		}
	}
	return errors.Join(errs...)
}

// GeometryOf returns the geometry of an array of channels × diesPerChannel dies of spec d,
// with d's page-type map and one mapping unit per out-of-band stamp of its pages
// (hal.DieSpec.StampsPerPage).
func GeometryOf(channels, diesPerChannel int, d hal.DieSpec) Geometry {
	return Geometry{Channels: channels, DiesPerChannel: diesPerChannel, Planes: d.Planes,
		BlocksPerPlane: d.BlocksPerPlane, PagesPerBlock: d.PagesPerBlock, Kind: d.PageType,
		UnitsPerPage: d.StampsPerPage, SLCPages: d.SLCPages}
}

// Dies returns the number of dies.
func (g Geometry) Dies() int { return g.Channels * g.DiesPerChannel }

// Blocks returns the number of blocks in the array.
func (g Geometry) Blocks() int { return g.Dies() * g.Planes * g.BlocksPerPlane }

// Pages returns the number of physical pages in the array.
func (g Geometry) Pages() int64 { return int64(g.Blocks()) * int64(g.PagesPerBlock) }

// PPN is a physical page number: ((die·Planes + plane)·BlocksPerPlane + block)·PagesPerBlock + page.
type PPN uint32

// Unit is a physical mapping unit: PPN·UnitsPerPage + slot, the slot being the unit's place
// in its page (the PPN itself with one unit a page). The map holds units.
type Unit uint32

// NoUnit marks an unmapped logical page.
const NoUnit Unit = 0xFFFFFFFF

// UnitOf returns slot slot of page p.
func (g Geometry) UnitOf(p PPN, slot int) Unit { return Unit(int(p)*g.Units() + slot) }

// PageOf returns the page holding unit u.
func (g Geometry) PageOf(u Unit) PPN { return PPN(int(u) / g.Units()) }

// SlotOf returns unit u's slot in its page.
func (g Geometry) SlotOf(u Unit) int { return int(u) % g.Units() }

// BlockID is a global block number: (die·Planes + plane)·BlocksPerPlane + block.
type BlockID uint32

// NoPage marks an unmapped logical page or an unused slot.
const NoPage PPN = 0xFFFFFFFF

// Addr is a physical page address in components.
type Addr struct {
	Die, Plane, Block, Page int
}

// PPN returns the physical page number of a.
func (g Geometry) PPN(a Addr) PPN {
	return PPN(((a.Die*g.Planes+a.Plane)*g.BlocksPerPlane+a.Block)*g.PagesPerBlock + a.Page)
}

// Addr splits a physical page number into its components.
func (g Geometry) Addr(p PPN) Addr {
	v := int(p)
	page := v % g.PagesPerBlock
	v /= g.PagesPerBlock
	block := v % g.BlocksPerPlane
	v /= g.BlocksPerPlane
	return Addr{Die: v / g.Planes, Plane: v % g.Planes, Block: block, Page: page}
}

// BlockOf returns the block holding page p.
func (g Geometry) BlockOf(p PPN) BlockID { return BlockID(int(p) / g.PagesPerBlock) }

// FirstPage returns the PPN of page 0 of block b.
func (g Geometry) FirstPage(b BlockID) PPN { return PPN(int(b) * g.PagesPerBlock) }

// BlockAddr returns die, plane and block index within the plane of block b.
func (g Geometry) BlockAddr(b BlockID) (die, plane, block int) {
	v := int(b)
	block = v % g.BlocksPerPlane
	v /= g.BlocksPerPlane
	return v / g.Planes, v % g.Planes, block
}

// Channel returns the channel of die d.
func (g Geometry) Channel(d int) int { return d / g.DiesPerChannel }

// InterleavedDie returns the i-th die in channel-first interleaved order: consecutive
// values of i land on consecutive channels, then on the next die of each channel.
func (g Geometry) InterleavedDie(i int) int {
	i %= g.Dies()
	ch := i % g.Channels
	way := i / g.Channels
	return ch*g.DiesPerChannel + way
}

// SLCKind maps every page to LSB.
func SLCKind(int) PageKind { return LSB }
