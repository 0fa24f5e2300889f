// Package nand holds the NAND flash protocol data that the firmware and the flash model
// both speak, and nothing else: a page's address in a die (Addr: plane, block, page, the
// row address of an ONFI command), the page types of a multi-level cell (PageType), the
// word an erased page reads back (ErasedStamp) and the source of preconditioned pages'
// stamps (StampSource). It is not a hardware model: it imports nothing of the simulator,
// and package die re-exports its names (die.Addr is nand.Addr), so the firmware's flash
// commands pass their addresses to the channels without conversion.
package nand
