package blk

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Zoned block devices (a zoned NVMe namespace: drivers/nvme/host/zns.c registers its zones
// with the block layer). The block layer keeps three rules for them, as Linux's
// block/blk-zoned.c does since 6.10, where zone write plugging replaced mq-deadline's zone
// write locking (blk_req_zone_write_trylock in block/mq-deadline.c, removed in 6.10):
//
//   - Zone write plugging (blk_zone_plug_bio, disk_zone_wplug_add_bio,
//     blk_zone_write_plug_bio_endio): a zone has at most one write bio in flight. A write
//     bio to a zone whose plug holds one waits in the plug's list, in submission order;
//     when the bio in flight completes, the next waiting one is submitted (Linux submits
//     it from the plug's work item; the work item's scheduling delay is not modelled). The
//     device so sees a zone's writes one at a time, in the order they were submitted, with
//     any I/O scheduler (none included): a scheduler cannot reorder what it never holds
//     two of.
//   - Requests never cross a zone boundary: a bio is split at zone boundaries as at
//     MaxRequestBytes (the zone size is the queue's chunk_sectors: blk_queue_chunk_sectors
//     in nvme_update_zone_info; bio_split_to_limits), and requests merge only within a
//     zone (blk_rq_get_max_sectors caps a merge at the chunk boundary).
//   - Zone management (OpZoneReset, REQ_OP_ZONE_RESET from blkdev_zone_mgmt, the
//     BLKRESETZONE ioctl) is a request of its own, with no data, that bypasses the I/O
//     scheduler as a flush does, and never merges. A zone's plug is not held by a reset:
//     the caller quiesces the zone's writes first, as fio does before it resets a zone
//     (io_u_quiesce in zbd.c).

// zones is a zoned queue's write plugs.
type zones struct {
	size  int64      // zone size in bytes, a power of two
	plugs []zonePlug // per zone
	free  [][]*Bio   // spare bio lists
	stats *ZoneStats // the queue's counters (in Stats)
}

// zonePlug is one zone's write plug: whether a write bio is in flight and the bios
// waiting, first in the order they were submitted.
type zonePlug struct {
	busy bool
	wait []*Bio
}

// ZoneStats are a zoned queue's counters.
type ZoneStats struct {
	Plugged int64 // write bios that waited in a zone's plug
	Resets  int64 // zone reset requests completed
}

// SetZoned makes q a zoned device's queue: zones zones of zoneBytes bytes (a power of two,
// a multiple of 512). Call it before any bio is submitted.
func (q *Queue) SetZoned(zoneBytes, zoneCount int64) error {
	if zoneBytes < 512 || zoneBytes&(zoneBytes-1) != 0 || zoneCount < 1 {
		return fmt.Errorf("blk: %d zones of %d bytes: a zoned queue needs at least one zone of a power-of-two size of at least 512 bytes", zoneCount, zoneBytes)
	}
	q.zones = &zones{size: zoneBytes, plugs: make([]zonePlug, zoneCount), stats: &q.stats.Zones}
	return nil
}

// ZoneBytes returns the zone size of a zoned queue, 0 for a conventional one.
func (q *Queue) ZoneBytes() int64 {
	if q.zones == nil {
		return 0
	}
	return q.zones.size
}

// plug takes write bio b into its zone's plug: it reports true if b may go on now (the
// plug was free and now holds it), false if it waits for the write in flight.
func (z *zones) plug(b *Bio) bool {
	p := &z.plugs[b.Offset/z.size]
	if !p.busy {
		p.busy = true
		return true
	}
	if p.wait == nil && len(z.free) > 0 {
		p.wait = z.free[len(z.free)-1]
		z.free = z.free[:len(z.free)-1]
	}
	p.wait = append(p.wait, b)
	z.stats.Plugged++
	return false
}

// unplug releases the plug of write bio b, which has completed, and returns the next bio
// waiting in it (the plug stays held for it), or nil.
func (z *zones) unplug(b *Bio) *Bio {
	p := &z.plugs[b.Offset/z.size]
	if len(p.wait) == 0 {
		p.busy = false
		return nil
	}
	next := p.wait[0]
	p.wait = p.wait[:copy(p.wait, p.wait[1:])]
	if len(p.wait) == 0 {
		z.free = append(z.free, p.wait)
		p.wait = nil
	}
	return next
}

// partLen returns the length of the part of a bio from off to end that one request may
// take: at most MaxRequestBytes and, on a zoned queue, not past the zone's end.
func (q *Queue) partLen(off, end int64) int64 {
	n := min(end-off, q.maxReq)
	if q.zones != nil {
		if zend := (off/q.zones.size + 1) * q.zones.size; off+n > zend {
			n = zend - off
		}
	}
	return n
}

// zonedParts returns how many requests bio b is split into on a zoned queue.
func (q *Queue) zonedParts(b *Bio) int64 {
	if b.Size == 0 {
		return 1
	}
	var n int64
	for off := b.Offset; off < b.End(); off += q.partLen(off, b.End()) {
		n++
	}
	return n
}

// zoneBoundary reports whether byte offset off is a zone boundary of a zoned queue (a
// request must not be merged across it).
func (q *Queue) zoneBoundary(off int64) bool { return q.zones != nil && off%q.zones.size == 0 }

// zoneBioDone applies the completion of bio b on a zoned queue: a write releases its
// zone's plug, and the next bio waiting in it is submitted from the plug's work item (an
// event now, outside the completion).
func (q *Queue) zoneBioDone(b *Bio) {
	switch b.Op {
	case OpWrite:
		if next := q.zones.unplug(b); next != nil {
			q.eng.Schedule(q.eng.Now(), plugWork{q}, next, 0)
		}
	case OpZoneReset:
		q.zones.stats.Resets++
	}
}

// plugWork submits a zone's next plugged write bio (ev.Data); it implements sim.Handler.
type plugWork struct{ q *Queue }

// HandleEvent implements sim.Handler.
func (w plugWork) HandleEvent(ev *sim.Event) { w.q.submit(ev.Data.(*Bio)) }
