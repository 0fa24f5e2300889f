package hostos

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/hostos/nvmedrv"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// A zoned namespace's block device (/dev/nvme0nN of a ZNS namespace): the zone calls a
// program makes on it, as Linux's zoned block device ioctls (BLKREPORTZONE, BLKRESETZONE,
// BLKGETZONESZ) and its direct I/O rules. Writes must not cross a zone boundary (fio's zbd
// mode never issues one; Linux would split it at chunk_sectors, and the model refuses it
// instead of sending its parts down in an order the zone write plug cannot keep).

// ZoneBytes returns the device's zone size in bytes (BLKGETZONESZ), 0 for a conventional
// namespace.
func (d *RawDevice) ZoneBytes() int64 { return d.q.ZoneBytes() }

// Zones returns the device's zones with their write pointers (BLKREPORTZONE), nil for a
// conventional namespace.
func (d *RawDevice) Zones() []nvmedrv.Zone { return d.h.Driver.Namespace(d.nsid).ReportZones() }

// ReportZones is Zones as fio's zbd mode takes them (fio.ZonedTarget).
func (d *RawDevice) ReportZones() []fio.DeviceZone {
	zs := d.Zones()
	out := make([]fio.DeviceZone, len(zs))
	for i, z := range zs {
		out[i] = fio.DeviceZone{Start: z.Start, Cap: z.Cap, WP: z.WP,
			Offline: z.State == nvmectrl.ZoneOffline, ReadOnly: z.State == nvmectrl.ZoneReadOnly}
	}
	return out
}

// zoneSubmitAt returns when a write at offset may go down to the block layer: not before
// the zone's previous write from this device did (then in the order of the calls). A
// program's writes to a zone leave it in the order it issued them: fio queues a job's
// I/Os from one thread, while the model's I/O depth slots are processes of their own, on
// whichever cores, whose syscall costs could otherwise finish out of order.
func (d *RawDevice) zoneSubmitAt(offset int64, t sim.Time) sim.Time {
	zb := d.q.ZoneBytes()
	if zb == 0 {
		return t
	}
	if d.zoneLast == nil {
		d.zoneLast = map[int64]sim.Time{}
	}
	z := offset / zb
	t = max(t, d.zoneLast[z])
	d.zoneLast[z] = t
	return t
}

var _ fio.ZonedTarget = (*RawDevice)(nil)

// ZoneLimits returns the namespace's open and active zone limits (0: none).
func (d *RawDevice) ZoneLimits() (open, active int) {
	return d.h.Driver.Namespace(d.nsid).ZoneLimits()
}

// ResetZone resets the zone starting at offset (BLKRESETZONE: a zone reset request,
// NVMe Zone Management Send, Reset Zone) for process p and returns its latency.
func (d *RawDevice) ResetZone(p *sim.Proc, offset int64) (sim.Time, error) {
	zb := d.ZoneBytes()
	if zb == 0 {
		return 0, fmt.Errorf("hostos: raw device: zone reset on namespace %d, which is not zoned", d.nsid)
	}
	if offset < 0 || offset >= d.capacity || offset%zb != 0 {
		return 0, fmt.Errorf("hostos: raw device: zone reset at %d: not the start of one of the %d-byte zones", offset, zb)
	}
	return d.submit(p, blk.OpZoneReset, offset, 0, nil, 0)
}

// checkZoned refuses a write that crosses a zone boundary of a zoned device.
func (d *RawDevice) checkZoned(op blk.Op, offset, size int64) error {
	if zb := d.q.ZoneBytes(); zb > 0 && op == blk.OpWrite && offset/zb != (offset+size-1)/zb {
		return fmt.Errorf("hostos: raw device: write of %d B at %d crosses a zone boundary (zones of %d B)", size, offset, zb)
	}
	return nil
}

// ZoneAppend sends a Zone Append of size bytes to the zone starting at zoneStart by NVMe
// passthrough (io_uring_cmd on the namespace's generic character device /dev/ng0nN,
// blk/passthrough.go) for process p, with the command's FUA bit if fua (fio's writefua). It
// returns the latency and the byte offset the device wrote the data at (the completion's
// ALBA). The device picks the place: the zone's write pointer when it runs the command, so
// a zone may have several appends in flight at once. size is limited by the queue's
// largest request, max_sectors_kb (Linux bounds a passthrough buffer by max_hw_sectors, at
// least as large, and fails a larger one with EINVAL; the model keeps a request within
// the queue's limit); the device checks its own Zone Append Size Limit.
func (d *RawDevice) ZoneAppend(p *sim.Proc, zoneStart, size int64, fua bool) (sim.Time, int64, error) {
	zb := d.ZoneBytes()
	switch {
	case zb == 0:
		return 0, 0, fmt.Errorf("hostos: raw device: zone append on namespace %d, which is not zoned", d.nsid)
	case zoneStart < 0 || zoneStart >= d.capacity || zoneStart%zb != 0:
		return 0, 0, fmt.Errorf("hostos: raw device: zone append at %d: not the start of one of the %d-byte zones", zoneStart, zb)
	case size <= 0 || size%d.block != 0 || size > zb:
		return 0, 0, fmt.Errorf("hostos: raw device: zone append of %d B: not a positive multiple of the %d-byte block within the %d-byte zone", size, d.block, zb)
	case size > int64(d.q.Spec().MaxRequestBytes):
		return 0, 0, fmt.Errorf("hostos: raw device: zone append of %d B exceeds the queue's %d-byte largest request (max_sectors_kb)", size, d.q.Spec().MaxRequestBytes)
	}
	lat, alba, err := d.call(p, blk.OpZoneAppend, zoneStart, size, nil, 0, fua)
	return lat, int64(alba) * d.block, err
}
