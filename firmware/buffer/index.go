package buffer

// lpnIndex maps a logical page number to its buffer slot: an open-addressing hash table
// with linear probing and backward-shift deletion, sized to twice the buffer's capacity (a
// power of two), so lookups touch one or two cache lines and heavy insert/delete churn
// (every eviction deletes, every new page inserts) leaves no tombstones behind.
type lpnIndex struct {
	cells []cell
	mask  uint64
	n     int
}

// cell is one table entry; slot < 0 marks an empty cell.
type cell struct {
	lpn  int64
	slot int32
}

// newLPNIndex returns an index for capacity entries; it grows past that if it must (an
// unbounded buffer).
func newLPNIndex(capacity int) lpnIndex {
	size := 16
	for size < 2*capacity {
		size *= 2
	}
	cells := make([]cell, size)
	for i := range cells {
		cells[i].slot = -1
	}
	return lpnIndex{cells: cells, mask: uint64(size - 1)}
}

// home is lpn's preferred cell (Fibonacci hashing).
func (x *lpnIndex) home(lpn int64) uint64 {
	return (uint64(lpn) * 0x9E3779B97F4A7C15) >> 32 & x.mask
}

// get returns lpn's slot.
func (x *lpnIndex) get(lpn int64) (int32, bool) {
	for i := x.home(lpn); ; i = (i + 1) & x.mask {
		c := &x.cells[i]
		if c.slot < 0 {
			return -1, false
		}
		if c.lpn == lpn {
			return c.slot, true
		}
	}
}

// put sets lpn's slot (inserting lpn if absent).
func (x *lpnIndex) put(lpn int64, slot int32) {
	for i := x.home(lpn); ; i = (i + 1) & x.mask {
		c := &x.cells[i]
		if c.slot < 0 {
			if x.n+1 > len(x.cells)/2 {
				x.grow() // an unbounded buffer outgrew the table
				x.put(lpn, slot)
				return
			}
			*c = cell{lpn: lpn, slot: slot}
			x.n++
			return
		}
		if c.lpn == lpn {
			c.slot = slot
			return
		}
	}
}

// del removes lpn if present. The entries after it in its probe run are shifted back so
// every entry stays reachable from its home cell.
func (x *lpnIndex) del(lpn int64) {
	i := x.home(lpn)
	for {
		c := &x.cells[i]
		if c.slot < 0 {
			return
		}
		if c.lpn == lpn {
			break
		}
		i = (i + 1) & x.mask
	}
	x.n--
	for j := (i + 1) & x.mask; ; j = (j + 1) & x.mask {
		c := &x.cells[j]
		if c.slot < 0 {
			break
		}
		// c may move to the hole at i only if its home is not in (i, j] (cyclically).
		if h := x.home(c.lpn); (j-h)&x.mask >= (j-i)&x.mask {
			x.cells[i] = *c
			i = j
		}
	}
	x.cells[i].slot = -1
}

// grow doubles the table and reinserts every entry.
func (x *lpnIndex) grow() {
	old := x.cells
	*x = newLPNIndex(len(old))
	for _, c := range old {
		if c.slot >= 0 {
			x.put(c.lpn, c.slot)
		}
	}
}

// len returns the number of entries.
func (x *lpnIndex) len() int { return x.n }
