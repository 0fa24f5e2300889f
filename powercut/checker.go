package powercut

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
)

// write is one host write of a logical page, as the checker keeps it.
type write struct {
	v   uint64 // the host's version (the page's data word is firmware.Stamp(lpn, v))
	ack int64  // its place in the order of acknowledgements, 1 on; 0 while not acknowledged
	fua bool   // written with Force Unit Access
	// failed: the device failed the write command (read-only mode). A failed Write is not
	// promised to leave its range as it was, and the firmware buffers a page already
	// admitted as usual (firmware/readonly.go), so a failed version may be read back (the
	// checker's choice: either the old or the failed data); it is never acknowledged, so
	// never durable.
	failed bool
	// base: the version the device held at its last power-on (preconditioning's version
	// 1, or the version the recovery before a mount found: rebase), durable from the start.
	base bool
}

// checker keeps, for every logical page, the versions the host wrote there and which of
// them were acknowledged and made durable, and judges what the device returns: during the
// run (every read must return the last acknowledged version) and after recovery (the
// version the rebuilt map points at must be one written there and not older than the last
// durable one).
//
// A write is durable if it completed with FUA, or completed before a Flush was submitted
// that then completed, or completed at all when the device has power-loss protection (it
// reports no volatile write cache, so every acknowledged write must survive). Preconditioned
// pages hold version 1, durable from the start.
type checker struct {
	plp bool
	// hist holds each page's writes since (and including) its last durable one, in the
	// order they were issued (the page's versions grow along it).
	hist    [][]write
	acks    int64 // acknowledgements so far
	durable int64 // writes acknowledged up to here are durable (the latest completed flush)
	stale   int64 // reads during the run that did not return the last acknowledged version
	first   string
}

// newChecker starts the record of pages logical pages, of which the first pre hold version
// 1 (preconditioning).
func newChecker(pages, pre int64, plp bool) *checker {
	c := &checker{plp: plp, hist: make([][]write, pages)}
	for lpn := range pre {
		c.hist[lpn] = []write{{v: 1, base: true}}
	}
	return c
}

// issue records that version v of lpn is being written (not yet acknowledged).
func (c *checker) issue(lpn int64, v uint64, fua bool) {
	c.hist[lpn] = append(c.hist[lpn], write{v: v, fua: fua})
}

// acked records that the write of version v of lpn completed; every page of one command
// shares its acknowledgement, so the caller numbers commands (ackCommand) first.
func (c *checker) acked(lpn int64, v uint64) {
	h := c.hist[lpn]
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].v == v {
			h[i].ack = c.acks
			break
		}
	}
	c.prune(lpn)
}

// failedWrite records that the write of version v of lpn failed: the device may return it
// until a later write of lpn is acknowledged.
func (c *checker) failedWrite(lpn int64, v uint64) {
	h := c.hist[lpn]
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].v == v {
			h[i].failed = true
			return
		}
	}
}

// ackCommand numbers the next acknowledged write command.
func (c *checker) ackCommand() { c.acks++ }

// flushSubmitted returns the acknowledgements so far: what a Flush submitted now makes
// durable once it completes (flushed).
func (c *checker) flushSubmitted() int64 { return c.acks }

// flushed records that a Flush submitted when upTo writes had been acknowledged completed.
func (c *checker) flushed(upTo int64) { c.durable = max(c.durable, upTo) }

// isDurable reports whether w is durable now.
func (c *checker) isDurable(w write) bool {
	return w.base || w.ack > 0 && (c.plp || w.fua || w.ack <= c.durable)
}

// prune drops the versions of lpn older than its last durable one: recovery may never
// return them, so their details are not needed.
func (c *checker) prune(lpn int64) {
	h := c.hist[lpn]
	for i := len(h) - 1; i > 0; i-- {
		if c.isDurable(h[i]) {
			c.hist[lpn] = append(h[:0], h[i:]...)
			return
		}
	}
}

// rebase records that the device was powered on again and mounted with got (0: no copy)
// as lpn's data, as the recovery before the mount found it: that version is lpn's only
// one now, durable from the start (the firmware serves it from then on; a later cut must
// not take it back), and the host writes newer ones.
func (c *checker) rebase(lpn int64, got uint64) {
	gl, gv, ok := firmware.StampParts(got)
	if got == 0 || !ok || gl != lpn {
		c.hist[lpn] = c.hist[lpn][:0]
		return
	}
	c.hist[lpn] = append(c.hist[lpn][:0], write{v: gv, base: true})
}

// resetIssued records that a zone reset covering lpn was issued: its versions are no
// longer durable (the reset may or may not have happened when a cut comes).
func (c *checker) resetIssued(lpn int64) {
	for i := range c.hist[lpn] {
		w := &c.hist[lpn][i]
		w.ack, w.fua, w.failed = 0, false, true
	}
}

// resetAcked records that the reset covering lpn completed: nothing written before it
// may be read again.
func (c *checker) resetAcked(lpn int64) { c.hist[lpn] = c.hist[lpn][:0] }

// durableAt reports whether lpn holds a durable version now.
func (c *checker) durableAt(lpn int64) bool {
	for _, w := range c.hist[lpn] {
		if c.isDurable(w) {
			return true
		}
	}
	return false
}

// durableVersion returns lpn's last durable version, 0 if none.
func (c *checker) durableVersion(lpn int64) uint64 {
	var v uint64
	for _, w := range c.hist[lpn] {
		if c.isDurable(w) {
			v = max(v, w.v)
		}
	}
	return v
}

// lastAcked returns the data word of lpn's last acknowledged version, 0 (an unmapped
// page's) if none.
func (c *checker) lastAcked(lpn int64) uint64 {
	h := c.hist[lpn]
	for i := len(h) - 1; i >= 0; i-- {
		if w := h[i]; w.ack > 0 || w.base {
			return firmware.Stamp(lpn, w.v)
		}
	}
	return 0
}

// read checks a read of lpn during the run, which returned got: the last acknowledged
// version, or a failed write's newer than it (failedWrite).
func (c *checker) read(lpn int64, got uint64) {
	want := c.lastAcked(lpn)
	if got == want {
		return
	}
	h := c.hist[lpn]
	for i := len(h) - 1; i >= 0 && h[i].ack == 0 && !h[i].base; i-- {
		if h[i].failed && firmware.Stamp(lpn, h[i].v) == got {
			return
		}
	}
	c.stale++
	if c.first == "" {
		c.first = fmt.Sprintf("a read of logical page %d returned %#x, the last acknowledged write was %#x", lpn, got, want)
	}
}

// unreadable records that a read of pages [lpn, lpn+n) during the run failed with an
// unrecovered read error: each page that had an acknowledged version is a stale read (the
// drive lost what it acknowledged).
func (c *checker) unreadable(lpn, n int64, err error) {
	for p := lpn; p < lpn+n; p++ {
		if c.lastAcked(p) == 0 {
			continue
		}
		c.stale++
		if c.first == "" {
			c.first = fmt.Sprintf("a read of logical page %d failed (%v); the last acknowledged write was %#x", p, err, c.lastAcked(p))
		}
	}
}

// verdict is what the check of the recovered device found.
type verdict struct {
	checked int64 // logical pages checked
	// durableLoss counts pages recovered older than their last durable version; volatile
	// those older than their last acknowledged one but not than the durable one (legal
	// without power-loss protection); foreign those holding data never written there.
	durableLoss, volatile, foreign int64
	first                          string // the first durable loss or foreign page, described
}

// judge checks logical page lpn, which the recovered map makes read got (0: no copy).
func (c *checker) judge(v *verdict, lpn int64, got uint64) {
	v.checked++
	var durable, last uint64
	for _, w := range c.hist[lpn] {
		if c.isDurable(w) {
			durable = max(durable, w.v)
		}
		if w.ack > 0 || w.base {
			last = max(last, w.v)
		}
	}
	var ver uint64
	if got != 0 {
		gl, gv, ok := firmware.StampParts(got)
		known := false
		for _, w := range c.hist[lpn] {
			known = known || w.v == gv
		}
		if !ok || gl != lpn || !known && gv >= durable {
			v.foreign++
			if v.first == "" {
				v.first = fmt.Sprintf("logical page %d reads %#x after recovery, which was never written there", lpn, got)
			}
			return
		}
		ver = gv
	}
	switch {
	case ver < durable:
		v.durableLoss++
		if v.first == "" {
			v.first = fmt.Sprintf("logical page %d reads version %d after recovery; version %d was durable (last acknowledged %d)", lpn, ver, durable, last)
		}
	case ver < last:
		v.volatile++
	}
}

// wouldLose reports whether recovering the map rec (a cut now, without protection) would
// lose a durable version: the lookahead of the schedule that cuts there. read gives the
// data word at a recovered unit.
func (c *checker) wouldLose(m []ftl.Unit, read func(ftl.Unit) uint64) bool {
	for lpn := range c.hist {
		durable := c.durableVersion(int64(lpn))
		if durable == 0 {
			continue
		}
		_, ver, _ := firmware.StampParts(read(m[lpn]))
		if ver < durable {
			return true
		}
	}
	return false
}
