package nand

import "fmt"

// Addr is the address of one page in a die: plane, block within the plane, page within the
// block. A multi-plane operation takes one Addr per plane.
type Addr struct {
	Plane int
	Block int
	Page  int
}

// String formats the address as "plane 0 block 12 page 7".
func (a Addr) String() string {
	return fmt.Sprintf("plane %d block %d page %d", a.Plane, a.Block, a.Page)
}

// ErasedStamp is the word read back from a page that has not been programmed since its
// block was erased: all ones, as erased NAND reads 0xFF. It is also legal data: a page
// programmed with it reads back the same, and a die tells the two apart by its block's
// state (write pointer and skipped pages), never by the value.
const ErasedStamp = ^uint64(0)

// PageType is the kind of a page in a multi-level cell: LSB, CSB (TLC and QLC), MSB, or TSB
// (the top page, QLC only). Every SLC page is LSB. Which page of a block has which type is
// the die's page-type map (die.Spec.PageType).
type PageType uint8

// The page types.
const (
	LSB PageType = 0
	CSB PageType = 1
	MSB PageType = 2
	TSB PageType = 3 // QLC's fourth (top) page

	// NumPageTypes is the number of page types; arrays indexed by PageType have this length.
	NumPageTypes = 4
)

// String returns "lsb", "csb", "msb" or "tsb".
func (p PageType) String() string {
	switch p {
	case LSB:
		return "lsb"
	case CSB:
		return "csb"
	case MSB:
		return "msb"
	case TSB:
		return "tsb"
	}
	return fmt.Sprintf("pagetype(%d)", uint8(p))
}

// StampSource supplies the out-of-band stamps of pages filled lazily (die.Die.FillFrom):
// the factory image a preconditioned device starts from.
type StampSource interface {
	// FillStamp returns the stamp of page of block of plane, a page filled by FillFrom. It
	// must return the same value until the block is erased (any value: ErasedStamp too).
	FillStamp(plane, block, page int) uint64
}
