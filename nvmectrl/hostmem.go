package nvmectrl

import (
	"encoding/binary"
	"slices"
)

// PageSize is the host memory page size in bytes: CC.MPS = 0, i.e. 4 KiB, the size Linux
// uses (docs/sources.md §1.7). PRP entries and PRP lists are laid out in these pages.
const PageSize = 4096

// hostMemBase is the first address Alloc hands out. Address 0 is never allocated, so a zero
// PRP entry or queue base is always a host bug the controller can catch.
const hostMemBase = 1 << 20

// HostMemory is the simulated host's physical memory: sparse and byte addressable. Pages
// come into existence when first written; unwritten memory reads as zeros. It holds the real
// bytes of SQ and CQ rings and PRP lists; data buffers are only address ranges (the
// simulator moves their timing, not their contents). It is shared by the host driver and the
// controller, so it belongs to neither: the platform builder creates it.
//
// An allocated page whose only write so far is the 8-byte word at its start (the data
// version stamp the host driver puts in each 4 KiB page of a DMA buffer, hostos/nvmedrv)
// is kept as that word alone, 8 bytes instead of a 4 KiB page: a run's buffers carry a
// stamp a page, and holding them as whole pages took 4 KiB of memory for every page of the
// largest request each command slot had carried (21–69 MB in the presets' default runs,
// issue 38). Any other access to such a page makes it a whole page holding the word.
type HostMemory struct {
	dense []*[PageSize]byte          // allocated pages, by page number − hostMemBase/PageSize
	first []uint64                   // dense pages not yet made: the word at their start
	pages map[uint64]*[PageSize]byte // pages outside what Alloc handed out; never iterated
	n     int                        // pages held whole
	next  uint64                     // bump allocator, page aligned
	// landers are the controllers writing CQEs into this memory, whose CQEs that have
	// landed are applied before the host reads one (Controller.landed).
	landers []*Controller
}

// NewHostMemory returns an empty host memory.
func NewHostMemory() *HostMemory {
	return &HostMemory{pages: make(map[uint64]*[PageSize]byte), next: hostMemBase}
}

// Alloc reserves bytes of host memory rounded up to whole pages and returns the
// page-aligned address of the first. Memory is never freed (the model's lifetime is one run).
// It panics if bytes < 1.
func (m *HostMemory) Alloc(bytes int) uint64 {
	if bytes < 1 {
		panic("nvmectrl: HostMemory.Alloc of a non-positive size")
	}
	a := m.next
	m.next += (uint64(bytes) + PageSize - 1) &^ (PageSize - 1)
	for len(m.dense) < int((m.next-hostMemBase)/PageSize) {
		// A page written before it was allocated moves from the map to its slot.
		pn := hostMemBase/PageSize + uint64(len(m.dense))
		m.dense = append(m.dense, m.pages[pn])
		m.first = append(m.first, 0)
		delete(m.pages, pn)
	}
	return a
}

// Reserve makes room in the page table for bytes more of Alloc, so allocating them grows
// it once, not an append at a time (whose outgrown copies stay in memory until a
// collection: five times the final table, issue 38). bytes must be what those Alloc calls
// round up to whole pages.
func (m *HostMemory) Reserve(bytes int) {
	n := len(m.dense) + (bytes+PageSize-1)/PageSize
	m.dense = slices.Grow(m.dense, n-len(m.dense))
	m.first = slices.Grow(m.first, n-len(m.first))
}

// Pages returns how many pages are held whole: written, except those whose only writes
// were the word at their start.
func (m *HostMemory) Pages() int { return m.n }

// page returns the page holding addr, creating it if create is set; nil if absent.
// Allocated pages are found by indexing, the rest by a map lookup. An allocated page held
// as its first word alone is made a whole page holding it, whether create is set or not.
func (m *HostMemory) page(addr uint64, create bool) *[PageSize]byte {
	var slot **[PageSize]byte
	if i := addr/PageSize - hostMemBase/PageSize; addr >= hostMemBase && i < uint64(len(m.dense)) {
		slot = &m.dense[i]
		if w := m.first[i]; w != 0 && *slot == nil {
			p := new([PageSize]byte)
			binary.LittleEndian.PutUint64(p[:], w)
			m.first[i] = 0
			*slot = p
			m.n++
			return p
		}
	} else {
		pn := addr / PageSize
		p := m.pages[pn]
		if p == nil && create {
			p = new([PageSize]byte)
			m.pages[pn] = p
			m.n++
		}
		return p
	}
	if *slot == nil && create {
		*slot = new([PageSize]byte)
		m.n++
	}
	return *slot
}

// Read copies len(dst) bytes starting at addr into dst.
func (m *HostMemory) Read(addr uint64, dst []byte) {
	for len(dst) > 0 {
		off := int(addr % PageSize)
		n := min(len(dst), PageSize-off)
		if p := m.page(addr, false); p != nil {
			copy(dst[:n], p[off:])
		} else {
			clear(dst[:n])
		}
		dst, addr = dst[n:], addr+uint64(n)
	}
}

// Write copies src into memory starting at addr. A page's first word alone (the version
// stamp a read returns in each page, firmware's readDone) is stored as PutUint64 stores it.
func (m *HostMemory) Write(addr uint64, src []byte) {
	if len(src) == 8 && addr%PageSize == 0 {
		m.PutUint64(addr, binary.LittleEndian.Uint64(src))
		return
	}
	for len(src) > 0 {
		off := int(addr % PageSize)
		n := min(len(src), PageSize-off)
		copy(m.page(addr, true)[off:], src[:n])
		src, addr = src[n:], addr+uint64(n)
	}
}

// The fixed-size accessors below read or write within one page directly (queue entries
// are aligned, so theirs always are), which the compiler turns into a few moves, and fall
// back to Read and Write across a page boundary. They are written out one by one on
// purpose: a shared helper handing back the bytes as a slice of their page cost 1 % of a
// whole-stack write (it is not inlined, and each caller checks the slice again).

// Uint64 reads the little-endian 64-bit value at addr.
func (m *HostMemory) Uint64(addr uint64) uint64 {
	if off := addr % PageSize; off <= PageSize-8 {
		if i := addr/PageSize - hostMemBase/PageSize; off == 0 && addr >= hostMemBase && i < uint64(len(m.dense)) && m.dense[i] == nil {
			return m.first[i]
		}
		if p := m.page(addr, false); p != nil {
			return binary.LittleEndian.Uint64(p[off:])
		}
		return 0
	}
	var b [8]byte
	m.Read(addr, b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// PutUint64 writes v little-endian at addr.
func (m *HostMemory) PutUint64(addr uint64, v uint64) {
	if off := addr % PageSize; off <= PageSize-8 {
		if i := addr/PageSize - hostMemBase/PageSize; off == 0 && addr >= hostMemBase && i < uint64(len(m.dense)) && m.dense[i] == nil {
			m.first[i] = v
			return
		}
		binary.LittleEndian.PutUint64(m.page(addr, true)[off:], v)
		return
	}
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	m.Write(addr, b[:])
}

// ReadSQE reads the submission queue entry at addr into e.
func (m *HostMemory) ReadSQE(addr uint64, e *SQE) {
	if off := addr % PageSize; off <= PageSize-SQESize {
		if p := m.page(addr, false); p != nil {
			*e = SQE(p[off : off+SQESize])
		} else {
			*e = SQE{}
		}
		return
	}
	m.Read(addr, e[:])
}

// WriteSQE writes e at addr.
func (m *HostMemory) WriteSQE(addr uint64, e *SQE) {
	if off := addr % PageSize; off <= PageSize-SQESize {
		*(*SQE)(m.page(addr, true)[off : off+SQESize]) = *e
		return
	}
	m.Write(addr, e[:])
}

// ReadCQE reads the completion queue entry at addr into c, as the host sees it now: the
// CQEs that controllers writing here have landed by now are put in first.
func (m *HostMemory) ReadCQE(addr uint64, c *CQE) {
	for _, l := range m.landers {
		l.landed(l.eng.Now())
	}
	if off := addr % PageSize; off <= PageSize-CQESize {
		if p := m.page(addr, false); p != nil {
			*c = CQE(p[off : off+CQESize])
		} else {
			*c = CQE{}
		}
		return
	}
	m.Read(addr, c[:])
}

// WriteCQE writes c at addr.
func (m *HostMemory) WriteCQE(addr uint64, c *CQE) {
	if off := addr % PageSize; off <= PageSize-CQESize {
		*(*CQE)(m.page(addr, true)[off : off+CQESize]) = *c
		return
	}
	m.Write(addr, c[:])
}
