package powercut

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// The checker on a zoned namespace (Workload.Zoned; namespace 1 of type zoned, nothing
// preconditioned). Each process owns a share of the zones and writes them as a zoned
// device must be written: at the write pointer (it waits for each command, so its writes
// reach the drive in order), resetting a zone it finds full; reads go below the write
// pointer. A reset changes the checker's record of the zone's pages: once it is issued
// the old versions are no longer durable (either they or nothing may be read), and once
// it is acknowledged nothing but what is written after it may be read, before or after
// a cut (the reset is durable).
//
// After the cut the zones are rebuilt as the firmware's next power-on would
// (firmware.RecoveredZones) and each write pointer is checked against what the spec
// promises: every durable write of the zone lies below it (so it reads back, as the page
// check confirms), and it is not past the pages issued to the zone since its last reset
// (a write pointer never covers blocks the host did not write), or, while a reset is in
// flight at the cut, since the reset before it (the drive may not have applied the reset:
// it completes only when acknowledged).

// zoneRecord is the checker's account of one zone.
type zoneRecord struct {
	issued int64 // pages issued since the last reset (the host's write pointer)
	// resetting is the pages issued before a reset that is in flight (issued, not yet
	// acknowledged): the drive may not have applied it when the power goes, and the zone
	// then keeps them, so they bound its write pointer too; 0 otherwise.
	resetting int64
}

// hostZoned is one host process of the zoned workload on zones [lo, lo+n).
func (r *cutRun) hostZoned(p *sim.Proc, rng *sim.RNG, lo, n int64) {
	buf := make([]uint64, r.w.MaxPages)
	for !r.dead && r.failure == nil {
		if r.w.pause(p); r.dead {
			return
		}
		zi := lo + rng.Int64N(n)
		z := &r.zones[zi]
		start := zi * r.zonePages
		switch op := rng.IntN(10); {
		case op < 6:
			if z.issued == r.zoneCap {
				r.resetZone(p, zi)
				continue
			}
			k := min(int64(1+rng.IntN(r.w.MaxPages)), r.zoneCap-z.issued)
			lpn := start + z.issued
			fua := r.w.FUAEvery > 0 && rng.IntN(r.w.FUAEvery) == 0
			for i := range k {
				r.version++
				buf[i] = firmware.Stamp(lpn+i, r.version)
				r.chk.issue(lpn+i, r.version, fua)
			}
			z.issued += k
			r.raw.SetFUA(fua)
			if _, err := r.raw.DoData(p, uflip.OpWrite, lpn*r.ps, k*r.ps, buf[:k]); err != nil {
				r.failure = err
				return
			}
			r.chk.ackCommand()
			r.out.Writes++
			for i := range k {
				_, v, _ := firmware.StampParts(buf[i])
				r.chk.acked(lpn+i, v)
			}
			if fua {
				r.watch.durable()
			}
		case op < 9:
			if z.issued == 0 {
				continue
			}
			k := min(int64(1+rng.IntN(r.w.MaxPages)), z.issued)
			lpn := start + rng.Int64N(z.issued-k+1)
			if _, err := r.raw.DoData(p, uflip.OpRead, lpn*r.ps, k*r.ps, buf[:k]); err != nil {
				if !r.unreadable(err, lpn, k) {
					r.failure = err
					return
				}
				continue
			}
			for i := range k {
				r.chk.read(lpn+i, buf[i])
			}
		default:
			upTo := r.chk.flushSubmitted()
			if _, err := r.raw.DoData(p, uflip.OpFlush, 0, 0, nil); err != nil {
				r.failure = err
				return
			}
			r.chk.flushed(upTo)
			r.watch.durable()
		}
	}
}

// resetZone resets zone zi through the host and records it.
func (r *cutRun) resetZone(p *sim.Proc, zi int64) {
	z := &r.zones[zi]
	start := zi * r.zonePages
	for lpn := start; lpn < start+z.issued; lpn++ {
		r.chk.resetIssued(lpn)
	}
	n := z.issued
	z.issued, z.resetting = 0, n
	if _, err := r.raw.ResetZone(p, start*r.ps); err != nil {
		r.failure = err
		return
	}
	z.resetting = 0
	for lpn := start; lpn < start+n; lpn++ {
		r.chk.resetAcked(lpn)
	}
	r.out.ZoneResets++
}

// checkZones compares the rebuilt zones with the record: each write pointer covers the
// zone's durable writes and no page not issued since the zone's last reset.
func (r *cutRun) checkZones(rec *firmware.Recovery) error {
	zs, err := r.fw.RecoveredZones(rec, 1)
	if err != nil {
		return err
	}
	lbas := r.ps / r.raw.BlockSize()
	for zi, d := range zs {
		wp := int64(d.WP-d.Start) / lbas // pages
		start := int64(zi) * r.zonePages
		var durableEnd int64
		for k := range r.zones[zi].issued {
			if r.chk.durableAt(start + k) {
				durableEnd = k + 1
			}
		}
		switch {
		case wp < durableEnd:
			r.out.ZoneErrors++
			if r.out.First == "" {
				r.out.First = fmt.Sprintf("zone %d's write pointer is %d pages from its start after recovery; durable writes reach page %d", zi, wp, durableEnd)
			}
		case wp > max(r.zones[zi].issued, r.zones[zi].resetting):
			r.out.ZoneErrors++
			if r.out.First == "" {
				r.out.First = fmt.Sprintf("zone %d's write pointer is %d pages from its start after recovery, past the %d issued since its last reset (%d before a reset in flight)",
					zi, wp, r.zones[zi].issued, r.zones[zi].resetting)
			}
		}
	}
	return nil
}
