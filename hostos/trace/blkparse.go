package trace

import "fmt"

// parseBlkparse reads one line of blkparse(1) default output:
//
//	8,16   5        2     0.000001850 18615  Q   R 1444645666 + 256 [java]
//	maj,min cpu     seq   time_s      pid    act rwbs sector + nsectors [process]
//
// Only the action chosen by Options.BlkparseEvent (D by default) gives requests; other
// actions (A, G, I, M, P, U, m, …) are ignored, and so is everything from the summary
// section that blkparse prints at the end ("CPU0 (8,16):", "Total (8,16):", …). An event
// without "+ nsectors" (a flush completion such as "C WS 1950885322 [0]") has size 0.
//
// RWBS letters (blkparse(1), "RWBS"): an optional leading F (preflush), then one of
// R (read), W (write), D (discard → Trim) or N (no data), then any of F (FUA), A (read
// ahead), B (barrier), S (sync), M (metadata), E (secure erase, with D). A write or N with
// no data is a Flush (the empty preflush or barrier request); an N without F moves no data
// and is ignored (a passthrough command).
func (r *Reader) parseBlkparse(line []byte) (bool, error) {
	if r.summary {
		return false, nil
	}
	r.fs.splitSpace(line)
	if r.fs.n == 0 {
		return false, nil
	}
	f0 := r.fs.get(0)
	if isSummaryStart(f0) {
		r.summary = true
		return false, nil
	}
	dev, ok := parseDevPair(f0)
	if !ok {
		return false, fmt.Errorf("device %q: not a blkparse event (want major,minor)", f0)
	}
	if r.fs.n < 6 {
		return false, fmt.Errorf("%d columns, want at least 6 (dev cpu seq time pid action)", r.fs.n)
	}
	act := r.fs.get(5)
	if len(act) != 1 || act[0] != r.opt.BlkparseEvent.action() {
		return false, nil
	}
	if r.fs.n < 7 {
		return false, fmt.Errorf("%d columns, want at least 7 (dev cpu seq time pid action rwbs …)", r.fs.n)
	}
	if err := r.timeField(3); err != nil {
		return false, err
	}
	var sector, nsec int64
	var err error
	switch {
	case r.fs.n == 9 && string(r.fs.get(8)) == "+":
		return false, fmt.Errorf("9 columns: \"+\" without a sector count")
	case r.fs.n >= 10 && string(r.fs.get(8)) == "+":
		if sector, err = r.uintField(7, "sector"); err != nil {
			return false, err
		}
		if nsec, err = r.uintField(9, "sectors"); err != nil {
			return false, err
		}
	case r.fs.n >= 8 && isDigits(r.fs.get(7)):
		if sector, err = r.uintField(7, "sector"); err != nil {
			return false, err
		}
	}
	if r.cur.off, err = mulSize(sector, 512); err != nil {
		return false, fieldErr("sector", r.fs.get(7), err)
	}
	if r.cur.size, err = mulSize(nsec, 512); err != nil {
		return false, fieldErr("sectors", r.fs.get(9), err)
	}
	keep, err := r.rwbs(r.fs.get(6))
	if err != nil || !keep {
		return false, err
	}
	r.cur.dev = r.blkDevice(dev)
	return true, nil
}

// rwbs decodes the RWBS field into r.cur.op and r.cur.flags; keep is false for requests
// that move no data and are not flushes.
func (r *Reader) rwbs(b []byte) (keep bool, err error) {
	var flags Flags
	i := 0
	if len(b) >= 2 && b[0] == 'F' && isRWBSOp(b[1]) {
		flags |= FlagPreFlush
		i = 1
	}
	if i >= len(b) || !isRWBSOp(b[i]) {
		if string(b) == "F" { // newer kernels: REQ_OP_FLUSH
			r.cur.op, r.cur.flags = Flush, 0
			return true, nil
		}
		return false, fmt.Errorf("rwbs %q: unknown op (want R, W, D or N)", b)
	}
	op := b[i]
	for _, c := range b[i+1:] {
		switch c {
		case 'F':
			flags |= FlagFUA
		case 'A':
			flags |= FlagAhead
		case 'B':
			flags |= FlagBarrier
		case 'S':
			flags |= FlagSync
		case 'M':
			flags |= FlagMeta
		case 'E':
			if op != 'D' {
				return false, fmt.Errorf("rwbs %q: E (secure erase) without D", b)
			}
		default:
			return false, fmt.Errorf("rwbs %q: unknown flag %q", b, c)
		}
	}
	r.cur.flags = flags
	switch {
	case op == 'R':
		r.cur.op = Read
	case op == 'D':
		r.cur.op = Trim
	case r.cur.size == 0 && (op == 'W' || flags&FlagPreFlush != 0):
		r.cur.op = Flush
	case op == 'W':
		r.cur.op = Write
	default: // N with data, or N without F: not a data request
		return false, nil
	}
	return true, nil
}

func isRWBSOp(c byte) bool { return c == 'R' || c == 'W' || c == 'D' || c == 'N' }

// isSummaryStart reports whether a line's first field opens blkparse's closing summary:
// "CPU0 (8,16):" or "Total (8,16):".
func isSummaryStart(f0 []byte) bool {
	if string(f0) == "Total" {
		return true
	}
	return len(f0) > 3 && string(f0[:3]) == "CPU" && isDigits(f0[3:])
}

// parseDevPair parses "major,minor" into major<<32 | minor.
func parseDevPair(b []byte) (uint64, bool) {
	for i, c := range b {
		if c == ',' {
			maj, err1 := parseUint(b[:i])
			min, err2 := parseUint(b[i+1:])
			if err1 != nil || err2 != nil || maj > 0xffffffff || min > 0xffffffff {
				return 0, false
			}
			return uint64(maj)<<32 | uint64(min), true
		}
	}
	return 0, false
}

// blkDevice returns the index of a blkparse device, adding it on first sight. Traces hold
// one or a few devices, so a linear search beats a map and keeps numbering by appearance.
func (r *Reader) blkDevice(dev uint64) int {
	for i, d := range r.blkDevs {
		if d == dev {
			return i
		}
	}
	r.blkDevs = append(r.blkDevs, dev)
	return len(r.blkDevs) - 1
}
