package hostos

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/hostos/nvmedrv"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// SectorSize is the block layer's sector: the smallest alignment of any direct I/O. A
// device whose namespace has larger logical blocks requires those instead (BlockSize).
const SectorSize = 512

// RawDevice is the host's raw NVMe block device (/dev/nvme0n1) opened with
// O_DIRECT|O_SYNC: every Do is one synchronous bio straight to the block layer, bypassing
// the page cache, with the calling process blocked until it completes. It implements
// uflip.Device, so uFLIP and fio-like jobs run on it.
//
// Offsets and sizes must be multiples of the device's logical block size (BlockSize: the
// namespace's LBA size, at least SectorSize), as Linux requires of O_DIRECT on a block device
// (block/fops.c checks the position and length against bdev_logical_block_size): a 512-byte
// IO on a namespace of 4 KiB blocks fails with EINVAL there, and with an error here.
//
// Each call charges one syscall (pagecache CPUSpec.SyscallCycles) on the calling process's
// host core, then submits one bio; the block layer splits it at MaxRequestBytes. Writes carry
// REQ_SYNC, and REQ_FUA when the host's page cache spec has DirectFUA set: Linux's block
// device direct I/O marks writes REQ_OP_WRITE|REQ_SYNC|REQ_IDLE and adds REQ_FUA for
// O_DSYNC/O_SYNC files (block/fops.c, dio_bio_write_op). SetFUA overrides that, e.g. to model
// O_DIRECT without O_SYNC.
//
// Bios and their completion signals come from a per-device pool that grows to the largest
// number of calls in flight at once, so steady-state I/O allocates nothing.
type RawDevice struct {
	h        *Host
	q        *blk.Queue // the namespace's block queue
	nsid     uint32
	capacity int64
	block    int64 // logical block size, bytes
	fua      bool
	syscall  int64 // cycles per call
	free     []*rawIO
	ios      int64
	// zoneLast is, per zone of a zoned namespace, when its last write went down
	// (zoneSubmitAt).
	zoneLast map[int64]sim.Time
}

// rawIO is one in-flight call: its bio, its data stamps and the signal its process waits on
// (the bio's Wake).
type rawIO struct {
	bio  blk.Bio
	data nvmedrv.Data
	sig  sim.Signal
	q    *blk.Queue
}

// HandleEvent submits the call's bio once its syscall cost is paid; it implements
// sim.Handler.
func (r *rawIO) HandleEvent(*sim.Event) { r.q.Submit(&r.bio) }

var _ uflip.Device = (*RawDevice)(nil)

// NewRawDevice opens h's block device, whose namespace holds capacity bytes (the capacity
// the host was built with; platforms.Machine gives it as the firmware's logical pages times
// the page size). capacity must be a positive multiple of the logical block size.
func NewRawDevice(h *Host, capacity int64) (*RawDevice, error) {
	if h == nil {
		return nil, fmt.Errorf("hostos: NewRawDevice needs a host")
	}
	block := max(int64(h.Driver.LogicalBlockSize()), SectorSize)
	if capacity <= 0 || capacity%block != 0 {
		return nil, fmt.Errorf("hostos: raw device capacity %d is not a positive multiple of the %d-byte block", capacity, block)
	}
	spec := h.Cache.Spec()
	return &RawDevice{h: h, q: h.Queue, nsid: 1, capacity: capacity, block: block, fua: spec.DirectFUA, syscall: spec.CPU.SyscallCycles}, nil
}

// NewNamespaceDevice opens namespace nsid's block device (/dev/nvme0nN) with
// O_DIRECT|O_SYNC, as NewRawDevice opens namespace 1's: its capacity and logical block size
// are the namespace's (Identify Namespace).
func NewNamespaceDevice(h *Host, nsid uint32) (*RawDevice, error) {
	if h == nil {
		return nil, fmt.Errorf("hostos: NewNamespaceDevice needs a host")
	}
	ns := h.Driver.Namespace(nsid)
	if ns == nil {
		return nil, fmt.Errorf("hostos: no namespace %d (the controller has %d)", nsid, len(h.Driver.Namespaces()))
	}
	block := max(int64(ns.LogicalBlockSize()), SectorSize)
	if ns.Capacity() <= 0 {
		return nil, fmt.Errorf("hostos: namespace %d has no capacity", nsid)
	}
	spec := h.Cache.Spec()
	return &RawDevice{h: h, q: h.Queues[nsid-1], nsid: nsid, capacity: ns.Capacity(), block: block, fua: spec.DirectFUA,
		syscall: spec.CPU.SyscallCycles}, nil
}

// NSID returns the namespace the device is.
func (d *RawDevice) NSID() uint32 { return d.nsid }

// Host returns the host the device belongs to.
func (d *RawDevice) Host() *Host { return d.h }

// Capacity returns the device size in bytes.
func (d *RawDevice) Capacity() int64 { return d.capacity }

// BlockSize returns the logical block size in bytes, the alignment of every IO.
func (d *RawDevice) BlockSize() int64 { return d.block }

// FUA reports whether writes carry REQ_FUA.
func (d *RawDevice) FUA() bool { return d.fua }

// SetFUA sets whether writes carry REQ_FUA (true: O_DIRECT|O_SYNC, false: O_DIRECT only).
func (d *RawDevice) SetFUA(on bool) { d.fua = on }

// IOs returns how many calls have completed.
func (d *RawDevice) IOs() int64 { return d.ios }

// Do performs one IO for process p and returns its latency: from the call (before the
// syscall's CPU cost) to the bio's completion. offset and size must be multiples of
// BlockSize, size positive and the range inside the device; OpFlush takes offset and size
// zero and sends a cache flush (REQ_OP_FLUSH, NVMe Flush); OpTrim discards the range
// (BLKDISCARD: REQ_OP_DISCARD, NVMe Dataset Management). A device error is returned with
// the latency.
func (d *RawDevice) Do(p *sim.Proc, op uflip.Op, offset, size int64) (sim.Time, error) {
	return d.DoData(p, op, offset, size, nil)
}

// DoData is Do carrying per-page data stamps (see nvmedrv.Stamper): for a write, stamps[i]
// is written into the first eight bytes of the i-th 4 KiB page starting inside the range; for
// a read, stamps is filled with what the device returns. stamps must hold
// nvmedrv.StampPages(offset, size) entries, or be nil for no data.
func (d *RawDevice) DoData(p *sim.Proc, op uflip.Op, offset, size int64, stamps []uint64) (sim.Time, error) {
	return d.DoStream(p, op, offset, size, stamps, 0)
}

// WriteStreams returns the write streams the namespace offers (Linux 6.16's
// max_write_streams: one per FDP placement identifier), 0 without Flexible Data Placement.
func (d *RawDevice) WriteStreams() int { return d.h.Driver.Namespace(d.nsid).WriteStreams() }

// DoStream is DoData with a write carrying write stream stream (1 … WriteStreams; 0 none),
// as io_uring's sqe->write_stream on an O_DIRECT write (Linux 6.16): the NVMe driver sends
// it with the stream's FDP placement identifier. Other operations ignore the stream.
func (d *RawDevice) DoStream(p *sim.Proc, op uflip.Op, offset, size int64, stamps []uint64, stream int) (sim.Time, error) {
	var bop blk.Op
	switch op {
	case uflip.OpRead:
		bop = blk.OpRead
	case uflip.OpWrite:
		bop = blk.OpWrite
	case uflip.OpFlush:
		bop = blk.OpFlush
	case uflip.OpTrim:
		bop, stamps = blk.OpDiscard, nil
	default:
		return 0, fmt.Errorf("hostos: raw device: unknown op %v", op)
	}
	if err := d.check(bop, offset, size); err != nil {
		return 0, err
	}
	if stamps != nil && bop != blk.OpFlush && len(stamps) < nvmedrv.StampPages(offset, size) {
		return 0, fmt.Errorf("hostos: raw device: %v of %d B at %d needs %d stamps, got %d",
			op, size, offset, nvmedrv.StampPages(offset, size), len(stamps))
	}
	if op != uflip.OpWrite {
		stream = 0
	} else if stream != 0 && (stream < 0 || stream > d.WriteStreams()) {
		return 0, fmt.Errorf("hostos: raw device: write stream %d; the namespace has %d (one per FDP placement identifier)", stream, d.WriteStreams())
	}
	return d.submit(p, bop, offset, size, stamps, uint8(stream))
}

// Discard deallocates size bytes at offset (BLKDISCARD: REQ_OP_DISCARD, NVMe Dataset
// Management) for process p and returns its latency.
func (d *RawDevice) Discard(p *sim.Proc, offset, size int64) (sim.Time, error) {
	if err := d.check(blk.OpDiscard, offset, size); err != nil {
		return 0, err
	}
	return d.submit(p, blk.OpDiscard, offset, size, nil, 0)
}

// check validates the range of one call.
func (d *RawDevice) check(op blk.Op, offset, size int64) error {
	if op == blk.OpFlush {
		if offset != 0 || size != 0 {
			return fmt.Errorf("hostos: raw device: flush with offset %d and size %d, want 0 and 0", offset, size)
		}
		return nil
	}
	if offset < 0 || size <= 0 || offset%d.block != 0 || size%d.block != 0 {
		return fmt.Errorf("hostos: raw device: %v of %d B at offset %d: offset and size must be multiples of the %d-byte block, size positive",
			op, size, offset, d.block)
	}
	if size > d.capacity || offset > d.capacity-size {
		return fmt.Errorf("hostos: raw device: %v of %d B at offset %d ends past the capacity %d B", op, size, offset, d.capacity)
	}
	return d.checkZoned(op, offset, size)
}

// submit charges the syscall, sends one bio and blocks p until it completes. It returns the
// latency and the bio's completion status.
func (d *RawDevice) submit(p *sim.Proc, op blk.Op, offset, size int64, stamps []uint64, stream uint8) (sim.Time, error) {
	lat, _, err := d.call(p, op, offset, size, stamps, stream, op == blk.OpWrite && d.fua)
	return lat, err
}

// call is submit with the bio's FUA flag given, also returning the bio's Result.
func (d *RawDevice) call(p *sim.Proc, op blk.Op, offset, size int64, stamps []uint64, stream uint8, fua bool) (sim.Time, uint64, error) {
	start := p.Now()
	io := d.get()
	// O_DIRECT: REQ_SYNC, and REQ_IDLE on writes (dio_bio_write_op), which wbt does not
	// throttle.
	// io.bio is zero (put clears it, get's new record is zero): set only what differs, field
	// by field (a literal holding interfaces is built in a temporary and copied over).
	b := &io.bio
	b.Op, b.Offset, b.Size, b.Sync, b.Idle = op, offset, size, true, op == blk.OpWrite
	b.FUA, b.Wake = fua, &io.sig
	b.WriteStream = stream
	io.q = d.q
	if stamps != nil {
		io.data.Stamps = stamps
		io.bio.Private = &io.data
	}
	// The syscall's cost is booked on the task's core and the bio goes down when it is paid
	// (an event), so the process switches once per call: it sleeps until the completion.
	submit := start
	if d.syscall > 0 {
		t := d.h.Task(p)
		t.Place()
		submit = t.Core.Book(start, t.KernelActivity(), d.syscall)
	}
	if op == blk.OpWrite && d.q.ZoneBytes() > 0 {
		submit = d.zoneSubmitAt(offset, submit)
	}
	if submit > start {
		p.Engine().Schedule(submit, io, nil, 0)
	} else {
		d.q.Submit(&io.bio)
	}
	for !io.bio.Finished() {
		p.Wait(&io.sig)
	}
	err, result := io.bio.Err, io.bio.Result
	d.ios++
	d.put(io)
	if err != nil {
		err = devErr(err) // the block layer's error names the operation and sector
	}
	return p.Now() - start, result, err
}

// devErr marks err, the error of a bio the device failed (blk.IOError), as an I/O error
// (uflip.ErrIO), so a workload can tell it from bad input.
func devErr(err error) error {
	var e *blk.IOError
	if errors.As(err, &e) {
		return fmt.Errorf("%w: %w", uflip.ErrIO, err)
	}
	return err
}

// get takes a call record from the pool, or makes one when all are in flight.
func (d *RawDevice) get() *rawIO {
	if n := len(d.free); n > 0 {
		io := d.free[n-1]
		d.free = d.free[:n-1]
		return io
	}
	return &rawIO{}
}

// put returns a completed call record to the pool, dropping its references.
func (d *RawDevice) put(io *rawIO) {
	io.bio = blk.Bio{}
	io.data.Stamps = nil
	d.free = append(d.free, io)
}
