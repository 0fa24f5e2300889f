package nvmectrl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// pagesAt returns n page addresses starting at base, stride apart.
func pagesAt(base uint64, n int, stride uint64) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = base + uint64(i)*stride
	}
	return out
}

// TestPRPHandWorked walks PRPs built for docs/sources.md §1.7's examples and checks the entries and
// list reads against layouts worked out by hand.
func TestPRPHandWorked(t *testing.T) {
	const A = 0x4000_0000 // a page-aligned buffer
	cases := []struct {
		name      string
		addr      uint64
		length    int
		listPages int       // PRPListPages, by hand
		prp2      string    // "zero", "data" or "list"
		entries   int       // data pointers, PRP1 included
		lists     []Segment // list pieces read, relative to the list pages L0, L1, …
		listEnd   []int
	}{
		// 4 KiB aligned: PRP1 only.
		{"4KiB", A, 4096, 0, "zero", 1, nil, nil},
		// 8 KiB: PRP1 + PRP2 as a data pointer.
		{"8KiB", A, 8192, 0, "data", 2, nil, nil},
		// 128 KiB = 32 pages: PRP1 + a 31-entry list (248 B).
		{"128KiB", A, 128 << 10, 1, "list", 32, []Segment{{0, 31 * 8}}, []int{32}},
		// Offset 512 with 8 KiB: bytes 512..8703 touch 3 pages → PRP1 + 2-entry list.
		{"8KiB+512", A + 512, 8192, 1, "list", 3, []Segment{{0, 16}}, []int{3}},
		// Offset 512 with 3584 B ends exactly at the page end: PRP1 only.
		{"3584+512", A + 512, 3584, 0, "zero", 1, nil, nil},
		// Offset 512 with 3585 B spills one byte: PRP2 is a data pointer.
		{"3585+512", A + 512, 3585, 0, "data", 2, nil, nil},
		// 513 pages: exactly 512 list entries fill one list page, the last slot is data.
		{"513 pages", A, 513 * 4096, 1, "list", 513, []Segment{{0, 4096}}, []int{513}},
		// 514 pages: 513 entries; 511 + chain in the first list page, 2 in the second.
		{"514 pages", A, 514 * 4096, 2, "list", 514, []Segment{{0, 4096}, {1, 16}}, []int{512, 514}},
		// 1025 pages: 1024 entries = 511 + 511 + 2 over three list pages.
		{"1025 pages", A, 1025 * 4096, 3, "list", 1025, []Segment{{0, 4096}, {1, 4096}, {2, 16}}, []int{512, 1023, 1025}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := NewHostMemory()
			lists := pagesAt(0x8000_0000, 4, 2*PageSize) // not contiguous with each other
			require.Equal(t, c.listPages, PRPListPages(c.addr, c.length))
			prp1, prp2, used, err := BuildPRP(mem, c.addr, c.length, lists)
			require.NoError(t, err)
			require.Equal(t, c.listPages, used)
			require.Equal(t, c.addr, prp1)
			switch c.prp2 {
			case "zero":
				require.Zero(t, prp2)
			case "data":
				require.Equal(t, c.addr&^(PageSize-1)+PageSize, prp2)
			case "list":
				require.Equal(t, lists[0], prp2)
			}

			var p PRPs
			require.NoError(t, p.Walk(mem, prp1, prp2, c.length))
			require.Len(t, p.Entries, c.entries)
			require.Equal(t, c.addr, p.Entries[0])
			for i := 1; i < c.entries; i++ {
				require.Equal(t, c.addr&^(PageSize-1)+uint64(i)*PageSize, p.Entries[i], "entry %d", i)
			}
			var want []Segment
			for _, l := range c.lists {
				want = append(want, Segment{lists[l.Addr], l.Len})
			}
			require.Equal(t, want, p.Lists)
			require.Equal(t, c.listEnd, p.ListEnd)
			// The buffer is contiguous, so it is one segment.
			require.Equal(t, []Segment{{c.addr, c.length}}, p.Segments(nil, 0, c.length))
		})
	}
}

func TestPRPScatteredSegments(t *testing.T) {
	mem := NewHostMemory()
	// Pages: two contiguous, then a jump, then one more: 4 pages, 16 KiB from offset 0x100.
	pages := []uint64{0x10_0100, 0x10_1000, 0x20_0000, 0x20_1000, 0x30_0000}
	prp1, prp2, used, err := BuildPRPPages(mem, pages, 4*PageSize, []uint64{0x9000_0000})
	require.NoError(t, err)
	require.Equal(t, 1, used)
	require.Equal(t, uint64(0x10_0100), prp1)
	var p PRPs
	require.NoError(t, p.Walk(mem, prp1, prp2, 4*PageSize))
	require.Equal(t, pages, p.Entries) // 0x100 + 16384 B touches 5 pages
	// Byte 0 at 0x10_0100; page 0 holds 4096-256 = 3840 B; page 1 contiguous → first
	// segment 3840 + 4096 = 7936 B; then 0x20_0000.. two contiguous pages (8192 B); then
	// the last 256 B at 0x30_0000.
	require.Equal(t, []Segment{{0x10_0100, 7936}, {0x20_0000, 8192}, {0x30_0000, 256}}, p.Segments(nil, 0, 4*PageSize))
	// A middle range: bytes 7900..8000 straddle the jump.
	require.Equal(t, []Segment{{0x10_1000 + 4060, 36}, {0x20_0000, 64}}, p.Segments(nil, 7900, 100))
	require.Equal(t, uint64(0x20_0000+64), p.Addr(8000))
	require.Equal(t, 2, p.EntryOf(8000))
}

// TestPRPListPointerOffset hand-builds a list whose pointer has an offset: the piece runs to
// the end of its page, so the last slot there chains (docs/sources.md §1.7).
func TestPRPListPointerOffset(t *testing.T) {
	mem := NewHostMemory()
	const L1, L2 = 0x7000_0000, 0x7100_0000
	ptr := uint64(L1 + PageSize - 32) // room for 4 slots
	// 7 pages: PRP1 + 6 entries = 3 in the first piece + chain, 3 in the second.
	data := pagesAt(0x5000_0000, 7, PageSize)
	for i := range 3 {
		mem.PutUint64(ptr+uint64(8*i), data[1+i])
	}
	mem.PutUint64(ptr+24, L2)
	for i := range 3 {
		mem.PutUint64(L2+uint64(8*i), data[4+i])
	}
	var p PRPs
	require.NoError(t, p.Walk(mem, data[0], ptr, 7*PageSize))
	require.Equal(t, data, p.Entries)
	require.Equal(t, []Segment{{ptr, 32}, {L2, 24}}, p.Lists)
	require.Equal(t, []int{4, 7}, p.ListEnd)
}

func TestPRPErrors(t *testing.T) {
	mem := NewHostMemory()
	const A, L = 0x4000_0000, 0x6000_0000
	mem.PutUint64(L, A+PageSize+8) // a list entry with an offset
	cases := []struct {
		name       string
		prp1, prp2 uint64
		length     int
		msg        string
	}{
		{"negative", A, 0, -1, "negative transfer length"},
		{"zero prp1", 0, 0, 4096, "PRP1 is zero"},
		{"unaligned prp1", A + 2, 0, 4096, "not dword aligned"},
		{"prp2 offset", A, A + PageSize + 4, 8192, "PRP2"},
		{"prp2 zero", A, 0, 8192, "PRP2"},
		{"list unaligned", A, L + 4, 3 * 4096, "not qword aligned"},
		{"entry offset", A, L, 3 * 4096, "PRP list entry"},
		{"list at last slot", A, L + PageSize - 8, 4 * 4096, "no room"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p PRPs
			require.ErrorContains(t, p.Walk(mem, c.prp1, c.prp2, c.length), c.msg)
		})
	}
	var p PRPs
	require.NoError(t, p.Walk(mem, 0, 0, 0)) // no data, no pointers needed
	require.Empty(t, p.Entries)

	_, _, _, err := BuildPRP(mem, A, 3*4096, nil)
	require.ErrorContains(t, err, "need 1 list pages, got 0")
	_, _, _, err = BuildPRP(mem, A+1, 4096, nil)
	require.Error(t, err)
	_, _, _, err = BuildPRP(mem, A, 3*4096, []uint64{L + 8})
	require.ErrorContains(t, err, "lists[0]")
	_, _, _, err = BuildPRPPages(mem, []uint64{A, A + 8}, 8192, nil)
	require.ErrorContains(t, err, "pages[1]")
	_, _, _, err = BuildPRPPages(mem, []uint64{A}, 8192, nil)
	require.ErrorContains(t, err, "need 2 pages, got 1")
}

func TestHostMemory(t *testing.T) {
	m := NewHostMemory()
	a := m.Alloc(1)
	b := m.Alloc(PageSize + 1)
	c := m.Alloc(PageSize)
	require.Equal(t, uint64(1<<20), a) // address 0 is never handed out
	require.Equal(t, a+PageSize, b)
	require.Equal(t, b+2*PageSize, c)
	require.Panics(t, func() { m.Alloc(0) })

	buf := []byte{1, 2, 3, 4, 5, 6}
	m.Write(b+PageSize-3, buf) // straddles a page boundary
	require.Equal(t, 2, m.Pages())
	got := make([]byte, 8)
	m.Read(b+PageSize-4, got)
	require.Equal(t, []byte{0, 1, 2, 3, 4, 5, 6, 0}, got)
	m.Read(0x9999_0000, got) // never written: zeros
	require.Equal(t, make([]byte, 8), got)
	m.PutUint64(c, 0x0102030405060708)
	require.Equal(t, uint64(0x0102030405060708), m.Uint64(c))
	m.Read(c, got[:2])
	require.Equal(t, []byte{8, 7}, got[:2]) // little-endian
}

func FuzzPRPWalk(f *testing.F) {
	f.Add(uint64(0x4000_0200), uint64(0x6000_0000), uint32(12288), []byte{0, 0x10, 0, 0x40})
	f.Add(uint64(0x4000_0000), uint64(0x4000_1000), uint32(8192), []byte{})
	f.Add(uint64(0x4000_0000), uint64(0x6000_0ff8), uint32(1<<21), []byte{0xff})
	f.Fuzz(func(t *testing.T, prp1, prp2 uint64, length uint32, list []byte) {
		length %= 8 << 20
		mem := NewHostMemory()
		mem.Write(prp2&^7, list) // whatever the list pointer points at
		var p PRPs
		if err := p.Walk(mem, prp1, prp2, int(length)); err != nil {
			return
		}
		if length == 0 {
			require.Empty(t, p.Entries)
			return
		}
		// One entry per page touched, and the segments cover the transfer exactly.
		require.Len(t, p.Entries, int((prp1%PageSize+uint64(length)+PageSize-1)/PageSize))
		total := 0
		for _, s := range p.Segments(nil, 0, int(length)) {
			total += s.Len
		}
		require.Equal(t, int(length), total)
	})
}

// TestHostMemoryWrittenBeforeAlloc: bytes written at an address before Alloc hands it out
// are still there afterwards (the page moves from the sparse map to the dense table).
func TestHostMemoryWrittenBeforeAlloc(t *testing.T) {
	m := NewHostMemory()
	a := m.Alloc(PageSize)
	m.PutUint64(a+PageSize+8, 42) // the next page, not yet allocated
	m.PutUint64(a, 7)
	require.Equal(t, 1, m.Pages(), "the word at a's start is held alone")
	b := m.Alloc(2 * PageSize)
	require.Equal(t, a+PageSize, b)
	require.Equal(t, uint64(42), m.Uint64(b+8))
	require.Equal(t, uint64(7), m.Uint64(a))
	require.Equal(t, uint64(0), m.Uint64(b+PageSize))
	require.Equal(t, 1, m.Pages())
}

// TestHostMemoryFixedSizeAccessors: the 8-byte, SQE and CQE accessors agree byte for byte
// with Read and Write at every offset around a page boundary (inside a page they copy
// directly, across it they go byte-range by byte-range), and read zeros where nothing was
// written.
func TestHostMemoryFixedSizeAccessors(t *testing.T) {
	m := NewHostMemory()
	base := m.Alloc(3 * PageSize)
	for _, off := range []uint64{0, 8, 16, PageSize - 64, PageSize - 63, PageSize - 16, PageSize - 9, PageSize - 8, PageSize - 1, PageSize} {
		a := base + off
		var e SQE
		for i := range e {
			e[i] = byte(off) + byte(i) + 1
		}
		m.WriteSQE(a, &e)
		got := make([]byte, SQESize)
		m.Read(a, got)
		require.Equal(t, e[:], got, "SQE written at +%d", off)
		var back SQE
		m.ReadSQE(a, &back)
		require.Equal(t, e, back, "SQE read at +%d", off)

		c := CQE(e[:CQESize])
		c[0] ^= 0xFF
		m.WriteCQE(a, &c)
		m.Read(a, got[:CQESize])
		require.Equal(t, c[:], got[:CQESize], "CQE written at +%d", off)
		var cb CQE
		m.ReadCQE(a, &cb)
		require.Equal(t, c, cb, "CQE read at +%d", off)

		v := 0x1122334455667788 ^ off
		m.PutUint64(a, v)
		m.Read(a, got[:8])
		require.Equal(t, []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24), byte(v >> 32), byte(v >> 40), byte(v >> 48), byte(v >> 56)}, got[:8], "u64 at +%d", off)
		require.Equal(t, v, m.Uint64(a), "u64 at +%d", off)
	}
	// Never written: zeros, whatever the accessor.
	far := uint64(0x7000_0000)
	var e SQE
	e[3] = 9
	m.ReadSQE(far, &e)
	require.Equal(t, SQE{}, e)
	c := CQE{1}
	m.ReadCQE(far+PageSize-8, &c)
	require.Equal(t, CQE{}, c)
	require.Equal(t, uint64(0), m.Uint64(far+PageSize-4))
}

// TestHostMemoryFirstWord: a page written only at its first word holds that word alone (no
// whole page: Pages stays 0); any other access makes it a whole page holding the word, so
// every reader sees the same bytes either way.
func TestHostMemoryFirstWord(t *testing.T) {
	m := NewHostMemory()
	a := m.Alloc(3 * PageSize)
	m.PutUint64(a, 0x0102030405060708)
	m.PutUint64(a+PageSize, 9)
	m.PutUint64(a+PageSize, 10) // rewritten
	require.Equal(t, 0, m.Pages())
	require.Equal(t, uint64(0x0102030405060708), m.Uint64(a))
	require.Equal(t, uint64(10), m.Uint64(a+PageSize))
	require.Equal(t, uint64(0), m.Uint64(a+2*PageSize))
	// A read of the bytes makes the page whole, the word first.
	b := make([]byte, 10)
	m.Read(a, b)
	require.Equal(t, []byte{8, 7, 6, 5, 4, 3, 2, 1, 0, 0}, b)
	require.Equal(t, 1, m.Pages())
	// A write elsewhere in a word page keeps the word.
	m.PutUint64(a+PageSize+8, 11)
	require.Equal(t, 2, m.Pages())
	require.Equal(t, uint64(10), m.Uint64(a+PageSize))
	require.Equal(t, uint64(11), m.Uint64(a+PageSize+8))
	// A whole page's first word is written in the page.
	m.PutUint64(a+PageSize, 12)
	require.Equal(t, uint64(12), m.Uint64(a+PageSize))
	var e SQE
	m.ReadSQE(a+PageSize, &e)
	require.Equal(t, byte(12), e[0])
	require.Equal(t, 2, m.Pages())
}
