package replay

import (
	"io"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/trace"
)

// Source yields the requests to replay in trace order; *trace.Reader implements it. Next
// returns io.EOF after the last request.
type Source interface {
	Next() (trace.Request, error)
}

// Slice is a Source over requests held in memory.
type Slice struct {
	reqs []trace.Request
	i    int
}

// FromSlice returns a Source that yields reqs in order. The slice is not copied.
func FromSlice(reqs []trace.Request) *Slice { return &Slice{reqs: reqs} }

// Next returns the next request, or io.EOF.
func (s *Slice) Next() (trace.Request, error) {
	if s.i >= len(s.reqs) {
		return trace.Request{}, io.EOF
	}
	s.i++
	return s.reqs[s.i-1], nil
}

// FitOptions returns opt adjusted to dev: the capacity becomes the device's (unless opt
// already sets a smaller one) and the sector size at least the device's logical block size,
// so that the reader rounds ranges out to whole blocks and wraps or rejects (per
// opt.PastCapacity) addresses past the end.
func FitOptions(opt trace.Options, dev *hostos.RawDevice) trace.Options {
	if opt.Capacity == 0 || opt.Capacity > dev.Capacity() {
		opt.Capacity = dev.Capacity()
	}
	opt.SectorSize = max(opt.SectorSize, dev.BlockSize())
	// The capacity must stay on the (possibly larger) sector grid.
	opt.Capacity -= opt.Capacity % opt.SectorSize
	return opt
}
