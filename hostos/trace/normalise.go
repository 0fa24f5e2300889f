package trace

import (
	"fmt"
	"math"
)

// normalise turns r.cur into a Request: ordering check, relative and scaled time,
// alignment, device mapping and capacity, in that order (see the package comment).
func (r *Reader) normalise() (Request, error) {
	c := &r.cur
	if r.started && !r.unordered && c.ts.less(r.prev) {
		return Request{}, fmt.Errorf("time %q: earlier than the previous request (line %d)", c.tsText, r.prevLine)
	}
	base := r.base
	if !r.started && !r.unordered {
		base = c.ts
	}
	t, err := c.ts.since(base, r.unit)
	if err != nil {
		return Request{}, fieldErr("time", c.tsText, err)
	}
	t, ok := scaleTime(t, r.opt.TimeScale.Num, r.opt.TimeScale.Den)
	if !ok {
		return Request{}, fmt.Errorf("time %q: out of range after scaling by %s", c.tsText, r.opt.TimeScale)
	}
	req := Request{Time: t, Device: c.dev, Offset: c.off, Size: c.size, Op: c.op, Flags: c.flags, Line: r.line}
	rounded, wrapped := false, false
	if req.Op == Flush {
		req.Offset, req.Size = 0, 0
		if r.opt.Devices == Merged {
			req.Device = 0
		}
	} else {
		if rounded, err = r.align(&req); err != nil {
			return Request{}, err
		}
		if err = r.mapDevice(&req); err != nil {
			return Request{}, err
		}
		if wrapped, err = r.fit(&req); err != nil {
			return Request{}, err
		}
	}
	r.count(req, c.size, rounded, wrapped)
	if !r.started {
		if !r.unordered {
			r.base = c.ts
		}
		r.started = true
	}
	r.prev, r.prevLine = c.ts, r.line
	return req, nil
}

// align applies Options.Unaligned to a data request.
func (r *Reader) align(req *Request) (rounded bool, err error) {
	ss := r.opt.SectorSize
	if req.Size <= 0 {
		return false, fmt.Errorf("size 0: a %s must have data", req.Op)
	}
	if (req.Offset|req.Size)&(ss-1) == 0 {
		return false, nil
	}
	switch r.opt.Unaligned {
	case RoundOut:
		off, size, ok := roundOut(req.Offset, req.Size, ss)
		if !ok {
			return false, fmt.Errorf("range %d+%d: out of range", req.Offset, req.Size)
		}
		req.Offset, req.Size = off, size
		return true, nil
	case RejectUnaligned:
		return false, fmt.Errorf("range %d+%d: not aligned to %d B sectors", req.Offset, req.Size, ss)
	}
	return false, nil
}

// mapDevice applies Options.Devices.
func (r *Reader) mapDevice(req *Request) error {
	if r.opt.Devices != Merged {
		return nil
	}
	off, ok := r.opt.DeviceOffsets[req.Device]
	if !ok {
		if r.opt.DeviceStride != 0 && int64(req.Device) > math.MaxInt64/r.opt.DeviceStride {
			return fmt.Errorf("device %d: offset out of range", req.Device)
		}
		off = int64(req.Device) * r.opt.DeviceStride
	}
	if req.Offset > math.MaxInt64-off-req.Size {
		return fmt.Errorf("device %d: offset %d+%d out of range", req.Device, off, req.Offset)
	}
	req.Offset += off
	req.Device = 0
	return nil
}

// fit applies Options.Capacity and Options.PastCapacity.
func (r *Reader) fit(req *Request) (wrapped bool, err error) {
	capacity := r.opt.Capacity
	if req.Offset > math.MaxInt64-req.Size {
		return false, fmt.Errorf("range %d+%d: out of range", req.Offset, req.Size)
	}
	if capacity == 0 || req.End() <= capacity {
		return false, nil
	}
	if r.opt.PastCapacity == Reject || req.Size > capacity {
		return false, fmt.Errorf("range %d+%d: past capacity %d", req.Offset, req.Size, capacity)
	}
	req.Offset %= capacity
	if req.End() > capacity {
		req.Offset = capacity - req.Size
	}
	return true, nil
}

// count adds a returned request to the stats; asked is its size as the trace gave it.
func (r *Reader) count(req Request, asked int64, rounded, wrapped bool) {
	s := &r.stats
	s.Requests++
	switch req.Op {
	case Read:
		s.Reads++
		s.ReadBytes += req.Size
		s.ReadBytesAsked += asked
	case Write:
		s.Writes++
		s.WriteBytes += req.Size
		s.WriteBytesAsked += asked
	case Trim:
		s.Trims++
	case Flush:
		s.Flushes++
	}
	if rounded {
		s.Rounded++
	}
	if wrapped {
		s.Wrapped++
	}
	s.Last = req.Time
}
