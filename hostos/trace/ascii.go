package trace

import (
	"fmt"
	"math"
)

// parseASCII reads one line of the two whitespace-separated formats, which share their
// layout and differ in units:
//
//	DiskSim (MQSim):  time_ns  device  lba_sectors   size_sectors  type
//	Replayer:         time_ms  device  offset_bytes  size_bytes    flag
//
// with type/flag 0 = write and 1 = read (testdata/traces/README.md at the repository root).
func (r *Reader) parseASCII(line []byte) (bool, error) {
	r.fs.splitSpace(line)
	if r.isPreamble() {
		return false, nil
	}
	if r.fs.n != 5 {
		return false, fmt.Errorf("%d columns, want 5 (time device address size type)", r.fs.n)
	}
	if err := r.timeField(0); err != nil {
		return false, err
	}
	if err := r.deviceField(1, "device"); err != nil {
		return false, err
	}
	addr, err := r.uintField(2, "address")
	if err != nil {
		return false, err
	}
	size, err := r.uintField(3, "size")
	if err != nil {
		return false, err
	}
	if r.format == DiskSim {
		if addr, err = mulSize(addr, 512); err != nil {
			return false, fieldErr("address", r.fs.get(2), err)
		}
		if size, err = mulSize(size, 512); err != nil {
			return false, fieldErr("size", r.fs.get(3), err)
		}
	}
	r.cur.off, r.cur.size, r.cur.flags = addr, size, 0
	switch t := r.fs.get(4); {
	case len(t) == 1 && t[0] == '0':
		r.cur.op = Write
	case len(t) == 1 && t[0] == '1':
		r.cur.op = Read
	default:
		return false, fmt.Errorf("type %q: unknown op (want 0 = write, 1 = read)", t)
	}
	return true, nil
}

// timeField parses field i as the request time.
func (r *Reader) timeField(i int) error {
	b := r.fs.get(i)
	ts, err := parseStamp(b, r.unit)
	if err != nil {
		return fieldErr("time", b, err)
	}
	r.cur.ts, r.cur.tsText = ts, b
	return nil
}

// deviceField parses field i as the device number.
func (r *Reader) deviceField(i int, name string) error {
	d, err := r.uintField(i, name)
	if err != nil {
		return err
	}
	if d > math.MaxInt32 {
		return fieldErr(name, r.fs.get(i), errRange)
	}
	r.cur.dev = int(d)
	return nil
}

// uintField parses field i as a non-negative integer.
func (r *Reader) uintField(i int, name string) (int64, error) {
	b := r.fs.get(i)
	v, err := parseUint(b)
	if err != nil {
		return 0, fieldErr(name, b, err)
	}
	return v, nil
}
