package ftl

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/die"
)

// PageKind is the speed class of a flash page within its word line: LSB pages program
// fastest, MSB slowest (FACTS.md §3.4: 2D TLC 558 / 2,201 / 5,001 µs). It is the die's page
// type; the page-type maps live in package die (die.Spec.PageType).
type PageKind = die.PageType

// Page kinds. SLC pages are all LSB; MLC pages are LSB or MSB.
const (
	LSB      = die.LSB
	CSB      = die.CSB
	MSB      = die.MSB
	numKinds = 3
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
}

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
	if g.Kind == nil {
		errs = append(errs, errors.New("ftl geometry: page kind map is missing"))
	}
	if len(errs) == 0 && uint64(g.Pages()) >= uint64(NoPage) {
		errs = append(errs, fmt.Errorf("ftl geometry: %d physical pages do not fit 32-bit page numbers", g.Pages()))
	}
	return errors.Join(errs...)
}

// GeometryOf returns the geometry of an array of channels × diesPerChannel dies of spec d,
// with d's page-type map.
func GeometryOf(channels, diesPerChannel int, d die.Spec) Geometry {
	return Geometry{Channels: channels, DiesPerChannel: diesPerChannel, Planes: d.Planes,
		BlocksPerPlane: d.BlocksPerPlane, PagesPerBlock: d.PagesPerBlock, Kind: d.PageType}
}

// Dies returns the number of dies.
func (g Geometry) Dies() int { return g.Channels * g.DiesPerChannel }

// Blocks returns the number of blocks in the array.
func (g Geometry) Blocks() int { return g.Dies() * g.Planes * g.BlocksPerPlane }

// Pages returns the number of physical pages in the array.
func (g Geometry) Pages() int64 { return int64(g.Blocks()) * int64(g.PagesPerBlock) }

// PPN is a physical page number: ((die·Planes + plane)·BlocksPerPlane + block)·PagesPerBlock + page.
type PPN uint32

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

// TLCKind is the 2D TLC page-type map (die.Spec.PageType for 2D TLC).
func TLCKind(page int) PageKind { return tlc.PageType(page) }

// MLCKind is the MLC page-type map.
func MLCKind(page int) PageKind { return mlc.PageType(page) }

// SLCKind maps every page to LSB.
func SLCKind(int) PageKind { return LSB }

var (
	tlc = die.SpecFor(die.TLC)
	mlc = die.SpecFor(die.MLC)
)
