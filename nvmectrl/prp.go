package nvmectrl

import (
	"errors"
	"fmt"
)

// prpSlots is the number of 8-byte PRP entries in one list page: 512 for 4 KiB (docs/sources.md §1.7).
const prpSlots = PageSize / 8

// Segment is a physically contiguous piece of host memory.
type Segment struct {
	Addr uint64 // first byte
	Len  int    // bytes
}

// PRPs is the decoded PRP chain of one command: the data page pointers in transfer order and
// the PRP list pieces that had to be read to find them. It is reused from command to command,
// so walking allocates nothing once its slices have grown.
type PRPs struct {
	// Entries holds one pointer per host page the transfer touches. Entries[0] is PRP1 with
	// its offset; the rest are page aligned.
	Entries []uint64
	// Lists holds each piece of PRP list read, in chain order: from the list pointer (PRP2 or
	// a chain entry) to the last slot used, chain pointer included.
	Lists []Segment
	// ListEnd[i] is the number of Entries known once Lists[0..i] have been read.
	ListEnd []int
	// Length is the transfer length in bytes.
	Length int
}

// Walk decodes the PRP chain of a transfer of length bytes from prp1 and prp2, reading list
// pages from mem (docs/sources.md §1.7): PRP1 may carry a dword-aligned offset; if the transfer fits
// in PRP1's page plus one more, PRP2 is a page pointer, else it points to a PRP list; a list
// piece runs from its pointer to the end of that page, and if more entries remain than it has
// slots, its last slot points to the next piece. It returns an error naming the first
// malformed pointer. A zero pointer is malformed: address 0 is never host memory here.
func (p *PRPs) Walk(mem *HostMemory, prp1, prp2 uint64, length int) error {
	p.Entries, p.Lists, p.ListEnd, p.Length = p.Entries[:0], p.Lists[:0], p.ListEnd[:0], length
	switch {
	case length < 0:
		return fmt.Errorf("prp: negative transfer length %d", length)
	case length == 0:
		return nil
	case prp1 == 0:
		return errors.New("prp: PRP1 is zero")
	case prp1&3 != 0:
		return fmt.Errorf("prp: PRP1 %#x is not dword aligned", prp1)
	}
	n := int((prp1%PageSize + uint64(length) + PageSize - 1) / PageSize)
	p.Entries = append(p.Entries, prp1)
	switch {
	case n == 1:
		return nil
	case n == 2:
		if err := checkPage("PRP2", prp2); err != nil {
			return err
		}
		p.Entries = append(p.Entries, prp2)
		return nil
	}
	return p.walkList(mem, prp2, n-1)
}

// walkList reads need data pointers from the list that starts at ptr.
func (p *PRPs) walkList(mem *HostMemory, ptr uint64, need int) error {
	what := "PRP2 list pointer"
	for need > 0 {
		if ptr == 0 || ptr&7 != 0 {
			return fmt.Errorf("prp: %s %#x is zero or not qword aligned", what, ptr)
		}
		slots := int(PageSize-ptr%PageSize) / 8
		take, chain := need, false
		if need > slots {
			if slots < 2 {
				return fmt.Errorf("prp: %s %#x leaves no room for an entry before the chain", what, ptr)
			}
			take, chain = slots-1, true
		}
		for i := range take {
			e := mem.Uint64(ptr + uint64(8*i))
			if err := checkPage("PRP list entry", e); err != nil {
				return err
			}
			p.Entries = append(p.Entries, e)
		}
		used := take
		if chain {
			used++
		}
		p.Lists = append(p.Lists, Segment{Addr: ptr, Len: 8 * used})
		p.ListEnd = append(p.ListEnd, len(p.Entries))
		need -= take
		if chain {
			ptr, what = mem.Uint64(ptr+uint64(8*take)), "PRP list chain pointer"
		}
	}
	return nil
}

func checkPage(what string, e uint64) error {
	if e == 0 || e%PageSize != 0 {
		return fmt.Errorf("prp: %s %#x is zero or has a non-zero offset", what, e)
	}
	return nil
}

// Addr returns the host address of transfer byte b (0 ≤ b < Length).
func (p *PRPs) Addr(b int) uint64 {
	x := p.Entries[0]%PageSize + uint64(b)
	return p.Entries[x/PageSize]&^(PageSize-1) + x%PageSize
}

// EntryOf returns the index in Entries of the page holding transfer byte b.
func (p *PRPs) EntryOf(b int) int { return int((p.Entries[0]%PageSize + uint64(b)) / PageSize) }

// Segments appends to dst the physically contiguous pieces of transfer bytes [off, off+n),
// merging adjacent pages, and returns it.
func (p *PRPs) Segments(dst []Segment, off, n int) []Segment {
	for n > 0 {
		a := p.Addr(off)
		l := min(n, PageSize-int(a%PageSize))
		if k := len(dst) - 1; k >= 0 && dst[k].Addr+uint64(dst[k].Len) == a {
			dst[k].Len += l
		} else {
			dst = append(dst, Segment{Addr: a, Len: l})
		}
		off, n = off+l, n-l
	}
	return dst
}

// PRPListPages returns how many PRP list pages a transfer of length bytes starting at host
// address addr needs when BuildPRP lays it out: none up to two pages, then one page per 511
// entries, the last page holding up to 512 (docs/sources.md §1.7).
func PRPListPages(addr uint64, length int) int {
	if length <= 0 {
		return 0
	}
	return listPagesFor(int((addr%PageSize+uint64(length)+PageSize-1)/PageSize) - 1)
}

// listPagesFor returns the list pages needed for e entries after PRP1.
func listPagesFor(e int) int {
	switch {
	case e <= 1:
		return 0
	case e <= prpSlots:
		return 1
	}
	return 1 + (e-prpSlots+prpSlots-2)/(prpSlots-1)
}

// BuildPRP lays out the PRP entries for a physically contiguous host buffer of length bytes
// at addr, the way Linux nvme_pci_setup_prps does (docs/sources.md §1.7): PRP1 = addr; PRP2 = the
// second page, or the first of lists, a PRP list written into mem. lists supplies
// page-aligned pages for the list; used says how many it took (see PRPListPages). It
// allocates nothing.
func BuildPRP(mem *HostMemory, addr uint64, length int, lists []uint64) (prp1, prp2 uint64, used int, err error) {
	if length <= 0 || addr == 0 || addr&3 != 0 {
		return 0, 0, 0, fmt.Errorf("prp: cannot build PRPs for %d bytes at %#x", length, addr)
	}
	base := addr &^ (PageSize - 1)
	n := int((addr%PageSize + uint64(length) + PageSize - 1) / PageSize)
	return buildPRP(mem, n, addr, func(i int) uint64 { return base + uint64(i)*PageSize }, lists)
}

// BuildPRPPages is BuildPRP for a buffer scattered over host pages: pages[0] is the first
// data pointer (it may have a dword-aligned offset), the others are page aligned, and the
// transfer is length bytes. pages must cover the transfer.
func BuildPRPPages(mem *HostMemory, pages []uint64, length int, lists []uint64) (prp1, prp2 uint64, used int, err error) {
	if length <= 0 || len(pages) == 0 || pages[0] == 0 || pages[0]&3 != 0 {
		return 0, 0, 0, fmt.Errorf("prp: cannot build PRPs for %d bytes over %d pages", length, len(pages))
	}
	n := int((pages[0]%PageSize + uint64(length) + PageSize - 1) / PageSize)
	if n > len(pages) {
		return 0, 0, 0, fmt.Errorf("prp: %d bytes need %d pages, got %d", length, n, len(pages))
	}
	for i, pg := range pages[1:n] {
		if err := checkPage(fmt.Sprintf("pages[%d]", i+1), pg); err != nil {
			return 0, 0, 0, err
		}
	}
	return buildPRP(mem, n, pages[0], func(i int) uint64 { return pages[i] }, lists)
}

// buildPRP writes n data pointers (entry(0) = first, with offset) as PRP1/PRP2/lists.
func buildPRP(mem *HostMemory, n int, first uint64, entry func(int) uint64, lists []uint64) (prp1, prp2 uint64, used int, err error) {
	switch n {
	case 1:
		return first, 0, 0, nil
	case 2:
		return first, entry(1), 0, nil
	}
	need := listPagesFor(n - 1)
	if len(lists) < need {
		return 0, 0, 0, fmt.Errorf("prp: %d entries need %d list pages, got %d", n-1, need, len(lists))
	}
	for j, l := range lists[:need] {
		if err := checkPage(fmt.Sprintf("lists[%d]", j), l); err != nil {
			return 0, 0, 0, err
		}
	}
	i := 1 // next data entry
	for j := range need {
		slot := 0
		for ; i < n && (slot < prpSlots-1 || n-i == 1); slot++ {
			mem.PutUint64(lists[j]+uint64(8*slot), entry(i))
			i++
		}
		if i < n {
			mem.PutUint64(lists[j]+uint64(8*slot), lists[j+1]) // chain (docs/sources.md §1.7)
		}
	}
	return first, lists[0], need, nil
}
