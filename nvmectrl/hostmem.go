package nvmectrl

import "encoding/binary"

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
type HostMemory struct {
	dense []*[PageSize]byte          // allocated pages, by page number − hostMemBase/PageSize
	pages map[uint64]*[PageSize]byte // pages outside what Alloc handed out; never iterated
	n     int                        // pages written
	next  uint64                     // bump allocator, page aligned
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
		delete(m.pages, pn)
	}
	return a
}

// Pages returns how many pages have been written.
func (m *HostMemory) Pages() int { return m.n }

// page returns the page holding addr, creating it if create is set; nil if absent.
// Allocated pages are found by indexing, the rest by a map lookup.
func (m *HostMemory) page(addr uint64, create bool) *[PageSize]byte {
	var slot **[PageSize]byte
	if i := addr/PageSize - hostMemBase/PageSize; addr >= hostMemBase && i < uint64(len(m.dense)) {
		slot = &m.dense[i]
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

// Write copies src into memory starting at addr.
func (m *HostMemory) Write(addr uint64, src []byte) {
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

// ReadCQE reads the completion queue entry at addr into c.
func (m *HostMemory) ReadCQE(addr uint64, c *CQE) {
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
