package pagecache

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
)

// DataCheck is the page cache's end-to-end data check (issue 22): with it on, every write
// gives the written page a new data word, the first eight bytes of its data, which the
// page cache holds with the page and writeback carries to the device (nvmedrv.Stamper);
// every page the cache reads back from the device must hold the word it last wrote there.
// A word is the device page in the high 32 bits and a version, counting from 1, in the low
// 32 (the layout of firmware.Stamp), so no word is 0, the value of a trimmed page.
//
// What the host has not written through the cache (pages preconditioning filled, O_DIRECT
// writes, which carry no words) is not checked: the first read of such a page learns its
// word. A discarded extent must read back as zeroes (NVMe deallocate with DLFEAT reads of
// zeroes, which the firmware implements).
type DataCheck struct {
	ref     []uint64 // per device page: the word last written, if known
	known   []bool
	words   []uint64 // per frame: the word of the page it holds
	version uint64
	wrapped bool // more than 2³² − 1 page writes: words are no longer new

	// Checked counts the pages read back from the device whose word was known; Mismatches
	// those that did not match, the first of them described in First.
	Checked, Mismatches int64
	First               string
}

// EnableDataCheck turns the end-to-end data check on for a cache on a device of
// devicePages pages (8 + 1 bytes a page) and returns it; call it before any I/O. With it
// off (the default) no words are kept and writeback sends zeroes, as before.
func (c *Cache) EnableDataCheck(devicePages int64) *DataCheck {
	c.check = &DataCheck{ref: make([]uint64, devicePages), known: make([]bool, devicePages)}
	return c.check
}

// PageStamps implements nvmedrv.Stamper (the driver finds it through the bio's Private
// value; the page cache does not import the driver): the data words of a read or write
// bio's pages, nil unless the data check is on.
func (r *req) PageStamps() []uint64 { return r.stamps }

// frameWord returns a slot for the word of frame fr.
func (d *DataCheck) frameWord(fr int32) *uint64 {
	if int(fr) >= len(d.words) {
		d.words = append(d.words, make([]uint64, int(fr)+1-len(d.words))...)
	}
	return &d.words[fr]
}

// wrote gives page idx of f, held in frame fr, the next version's word.
func (d *DataCheck) wrote(f *File, idx int64, fr int32) {
	if d.version == 1<<32-1 {
		// The versions would wrap into another write's word: stop checking (Err says so).
		d.wrapped = true
		return
	}
	d.version++
	dev, _ := f.devRun(idx)
	*d.frameWord(fr) = uint64(dev)<<32 | d.version
}

// submit prepares the words of a bio about to go to the device.
func (d *DataCheck) submit(c *Cache, r *req) {
	first := r.bio.Offset / PageSize
	switch r.kind {
	case reqRead:
		r.stamps = make([]uint64, r.n)
	case reqWriteback, reqSyncWrite:
		r.stamps = make([]uint64, r.n)
		for i := range r.n {
			w := *d.frameWord(r.f.pages[r.first+i])
			r.stamps[i] = w
			d.ref[first+i], d.known[first+i] = w, true
		}
	case reqDirect:
		if r.bio.Op == blk.OpWrite {
			for pg := first; pg < (r.bio.Offset+r.bio.Size+PageSize-1)/PageSize; pg++ {
				d.known[pg] = false // O_DIRECT data carries no words (zeroes on the device)
			}
		}
	case reqDiscard:
		for pg := first; pg < first+r.bio.Size/PageSize; pg++ {
			d.ref[pg], d.known[pg] = 0, true
		}
	}
}

// readDone checks the words a read brought back and gives the pages' frames their words.
func (d *DataCheck) readDone(r *req) {
	first := r.bio.Offset / PageSize
	for i := range r.n {
		w, pg := r.stamps[i], first+i
		if d.known[pg] {
			d.Checked++
			if w != d.ref[pg] {
				if d.Mismatches++; d.First == "" {
					d.First = fmt.Sprintf("page %d of %s (device page %d): read %#x, last written %#x", r.first+i, r.f.name, pg, w, d.ref[pg])
				}
			}
		} else {
			d.ref[pg], d.known[pg] = w, true
		}
		*d.frameWord(r.f.pages[r.first+i]) = w
	}
}

// Err returns an error describing the first mismatch, or nil if every checked page read
// back what was written.
func (d *DataCheck) Err() error {
	if d.wrapped {
		return fmt.Errorf("pagecache: data check: more than %d page writes, so versions would wrap; the check covers runs shorter than that", uint64(1<<32-1))
	}
	if d.Mismatches == 0 {
		return nil
	}
	return fmt.Errorf("pagecache: data check: %d of %d pages read back other data than last written; first: %s", d.Mismatches, d.Checked, d.First)
}

// SyncAll fsyncs every file, in inode order (sync(2) for the check): afterwards every page
// written through the cache is on the device. It returns the first error.
func (c *Cache) SyncAll(t *Task) error {
	var first error
	for _, f := range c.files {
		if f == nil || f.unlinked {
			continue
		}
		if err := c.Fsync(t, f); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// VerifyDevice reads back, through read, every device page whose word the check knows
// (written through the cache, discarded, or read once), in runs of up to 32 pages in
// device order, and compares each with that word, counting into Checked and Mismatches.
// Call it once the cache holds no dirty page (SyncAll) and nothing else writes. read fills
// words with the data words of the len(words) pages from devPage on.
func (d *DataCheck) VerifyDevice(read func(devPage int64, words []uint64) error) error {
	var buf [32]uint64
	for pg := int64(0); pg < int64(len(d.known)); {
		if !d.known[pg] {
			pg++
			continue
		}
		n := int64(1)
		for n < int64(len(buf)) && pg+n < int64(len(d.known)) && d.known[pg+n] {
			n++
		}
		if err := read(pg, buf[:n]); err != nil {
			return err
		}
		for i, w := range buf[:n] {
			d.Checked++
			if want := d.ref[pg+int64(i)]; w != want {
				if d.Mismatches++; d.First == "" {
					d.First = fmt.Sprintf("device page %d read back at the end: %#x, last written %#x", pg+int64(i), w, want)
				}
			}
		}
		pg += n
	}
	return nil
}
