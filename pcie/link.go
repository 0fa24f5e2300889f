package pcie

import (
	"fmt"
	"slices"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Stats counts what one direction of a link carried.
type Stats struct {
	TLPs      [NumKinds]int64 // TLPs sent, by kind
	Payload   int64           // payload bytes as the callers asked for them
	Overhead  int64           // header, framing, ECRC and doubleword padding bytes
	Transfers int64           // bursts booked: one per operation and direction
}

// TLPBytes returns the TLP bytes the direction carried: payload plus overhead.
func (s Stats) TLPBytes() int64 { return s.Payload + s.Overhead }

// Link is one PCIe link between the host (root complex) and the device. Down carries
// host→device traffic and Up device→host traffic; each records busy intervals named by TLP
// kind (see the package documentation). DownStats and UpStats count TLPs and bytes.
//
// Operations book wire time and return arrival times; they never schedule events. A booking
// reaches Down and Up once an operation is called at a time after its start, or on Sync:
// call Sync(t) before reading the resources at t.
type Link struct {
	Down      *sim.Resource // host→device wire time
	Up        *sim.Resource // device→host wire time
	DownStats Stats
	UpStats   Stats

	name  string
	spec  Spec
	rates rates
	down  direction
	up    direction
	pm    aspmState // with spec.ASPM on: the idle gaps the power states follow
	aspm  bool      // spec.ASPM.On()
	// shapes caches the bursts of recent transfer sizes (see shapeOf).
	shapes [shapeSlots]shape
}

// NewLink returns an idle link. It panics if the spec is invalid: configuration is checked
// with Spec.Validate before a platform is built.
func NewLink(name string, spec Spec) *Link {
	if err := spec.Validate(); err != nil {
		panic(fmt.Sprintf("pcie %s: invalid spec: %v", name, err))
	}
	l := &Link{name: name, spec: spec, rates: spec.rates(), aspm: spec.ASPM.On()}
	l.down.init(name+".down", &l.DownStats)
	l.up.init(name+".up", &l.UpStats)
	l.Down, l.Up = l.down.res, l.up.res
	return l
}

// Name returns the link's name.
func (l *Link) Name() string { return l.name }

// Spec returns the link's configuration.
func (l *Link) Spec() Spec { return l.spec }

// MaxReadRequest returns the link's MRRS in bytes: the most one read request asks for.
func (l *Link) MaxReadRequest() int { return l.spec.MRRS }

// MMIOWrite books a host→device posted memory write of bytes (a 4 B doorbell, say), split
// at MPS, and returns when its last byte arrives at the device.
func (l *Link) MMIOWrite(now sim.Time, bytes int) sim.Time {
	l.check("MMIOWrite", now, bytes)
	return l.write(&l.down, now, MWr, bytes)
}

// DMAWrite books a device→host posted memory write of bytes (read data, a CQE), split at
// MPS, and returns when its last byte arrives in host memory.
func (l *Link) DMAWrite(now sim.Time, bytes int) sim.Time {
	l.check("DMAWrite", now, bytes)
	return l.write(&l.up, now, MWr, bytes)
}

// MSIX books a device→host MSI-X message (a 4 B posted memory write) and returns when it
// arrives at the host.
func (l *Link) MSIX(now sim.Time) sim.Time {
	l.check("MSIX", now, msixBytes)
	return l.write(&l.up, now, MSIX, msixBytes)
}

// DMARead books a device read of bytes of host memory: read requests of at most MRRS go up;
// the host starts returning completions (of at most MPS, or RCB with RCBChunks) down as soon
// as the first request has arrived, Latency after it left the wire. It returns when the last
// completion byte arrives at the device, so an isolated read takes two Latencies plus the
// first request's and all completions' wire time.
func (l *Link) DMARead(now sim.Time, bytes int) sim.Time {
	l.check("DMARead", now, bytes)
	return l.read(&l.up, &l.down, now, bytes)
}

// HostDMARead books a host read of bytes of device memory (an MMIO register read): the
// mirror image of DMARead, requests down and completions up. It returns when the last
// completion byte arrives at the host.
func (l *Link) HostDMARead(now sim.Time, bytes int) sim.Time {
	l.check("HostDMARead", now, bytes)
	return l.read(&l.down, &l.up, now, bytes)
}

// Sync records on Down and Up every booked transfer that starts before t. Operations do
// this for the times they are called at; call Sync(t) before reading the resources at t, and
// Sync(sim.MaxTime) at the end of a run. Transfers booked later never start before what
// Sync recorded.
func (l *Link) Sync(t sim.Time) {
	l.down.commit(t)
	l.up.commit(t)
}

// check panics on a transfer of no bytes or at a negative time (out of line), and notes
// in both directions that an operation was called at now, recording what can no longer
// move. With nothing to record it does not call commit: commit's tail (run and the
// compaction) changes nothing while head stays where it was.
func (l *Link) check(op string, now sim.Time, bytes int) {
	if bytes <= 0 || now < 0 {
		l.badOp(op, now, bytes)
	}
	// Written out for both directions: a helper for the pair of lines is over the inlining
	// budget, and a call for each direction, or a loop over the two, cost 130 instructions
	// per whole-stack write.
	d, u := &l.down, &l.up
	d.mark, u.mark = max(d.mark, now), max(u.mark, now)
	if d.head < len(d.pending) && d.pending[d.head].start.whole < d.mark {
		d.commit(d.mark)
	}
	if u.head < len(u.pending) && u.pending[u.head].start.whole < u.mark {
		u.commit(u.mark)
	}
}

// badOp panics on a bad operation (see check).
//
//go:noinline
func (l *Link) badOp(op string, now sim.Time, bytes int) {
	if bytes <= 0 {
		panic(fmt.Sprintf("pcie %s: %s of %d bytes at %v", l.name, op, bytes, now))
	}
	panic(fmt.Sprintf("pcie %s: %s at negative time %v", l.name, op, now))
}

func (l *Link) write(d *direction, now sim.Time, k Kind, bytes int) sim.Time {
	if l.aspm {
		return l.writeASPM(d, now, k, bytes)
	}
	_, end := d.book(l.rates.tlp.den, now, k, &l.shapeOf(bytes).write, bytes)
	return end + l.spec.Latency
}

func (l *Link) read(req, cpl *direction, now sim.Time, bytes int) sim.Time {
	if l.aspm {
		return l.readASPM(req, cpl, now, bytes)
	}
	sh, den, lat := l.shapeOf(bytes), l.rates.tlp.den, l.spec.Latency
	first, _ := req.book(den, now, MRd, &sh.rq, 0)
	_, end := cpl.book(den, first+lat, CplD, &sh.cpl, bytes)
	return end + lat
}

// writeASPM is write with the power states: the burst waits for the direction's exit from
// L0s or the link's from L1 (see wake).
func (l *Link) writeASPM(d *direction, now sim.Time, k Kind, bytes int) sim.Time {
	x := l.dirIndex(d)
	_, end := d.book(l.rates.tlp.den, l.wake(x, now), k, &l.shapeOf(bytes).write, bytes)
	l.busyUntil(x, end)
	return end + l.spec.Latency
}

// readASPM is read with the power states: the request waits for its direction's exit, and
// the completions for theirs (none after an L1 exit, which woke both directions).
func (l *Link) readASPM(req, cpl *direction, now sim.Time, bytes int) sim.Time {
	sh, den, lat := l.shapeOf(bytes), l.rates.tlp.den, l.spec.Latency
	rx, cx := l.dirIndex(req), l.dirIndex(cpl)
	first, rqEnd := req.book(den, l.wake(rx, now), MRd, &sh.rq, 0)
	l.busyUntil(rx, rqEnd)
	_, end := cpl.book(den, l.wake(cx, first+lat), CplD, &sh.cpl, bytes)
	l.busyUntil(cx, end)
	return end + lat
}

// dirIndex returns 0 for the down direction and 1 for up.
func (l *Link) dirIndex(d *direction) int {
	if d == &l.down {
		return 0
	}
	return 1
}

// direction is one side of the link. Transfers are booked into the first idle gap that
// fits them at or after the requested time, so a doorbell is not held behind completions
// booked for the future. A booking is recorded on the resource once no later call can place
// anything before it: when it starts before the latest time an operation was called at.
type direction struct {
	res   *sim.Resource
	act   [NumKinds]sim.Activity
	dllp  sim.Activity
	stats *Stats
	// pending[head:] are booked but not yet recorded, sorted and disjoint. Bookings from
	// index run on are back to back (no gaps), so a gap search stops there.
	pending []booking
	head    int
	run     int
	floor   exact    // end of the last recorded booking: nothing is placed before it
	mark    sim.Time // latest time an operation was called at
	windows int      // ASPM exit windows among pending[head:] (see Link.block)
}

// booking is one burst: TLPs over [start, mid), their DLLP share over [mid, end). Kind
// exitWindow marks an ASPM exit instead, which carries nothing (see Link.block).
type booking struct {
	start, mid, end exact
	kind            Kind
}

func (d *direction) init(name string, st *Stats) {
	d.res = sim.NewResource(name)
	for k := range NumKinds {
		d.act[k] = d.res.Activity(k.String())
	}
	d.dllp = d.res.Activity(DLLPActivity)
	d.stats = st
	d.pending = make([]booking, 0, 16)
}

// commit records every pending booking that starts before t, in order.
func (d *direction) commit(t sim.Time) {
	if d.windows > 0 {
		d.commitWindows(t)
	}
	for d.head < len(d.pending) && d.pending[d.head].start.whole < t {
		b := &d.pending[d.head]
		d.res.OccupyPair(b.start.ceil(), b.mid.ceil(), b.end.ceil(), d.act[b.kind], d.dllp)
		d.floor = b.end
		d.head++
	}
	d.run = max(d.run, d.head)
	if h := d.head; h > 0 && (h == len(d.pending) || h >= max(compactAfter, len(d.pending)/2)) {
		// Compact, amortized O(1) per booking; when every booking is recorded (the common
		// case) there is nothing to move.
		n := 0
		if h < len(d.pending) {
			n = copy(d.pending, d.pending[h:])
		}
		d.pending = d.pending[:n]
		d.run -= h
		d.head = 0
	}
}

// commitWindows is commit's loop while ASPM exit windows are pending (only with ASPM on):
// it passes over the windows without recording them, up to t or the last window. Kept out
// of commit's loop, which would otherwise test every booking's kind with ASPM off too.
func (d *direction) commitWindows(t sim.Time) {
	for d.windows > 0 && d.head < len(d.pending) && d.pending[d.head].start.whole < t {
		b := &d.pending[d.head]
		if b.kind == exitWindow {
			d.windows--
		} else {
			d.res.OccupyPair(b.start.ceil(), b.mid.ceil(), b.end.ceil(), d.act[b.kind], d.dllp)
		}
		d.floor = b.end
		d.head++
	}
}

// exitWindow is the kind of a booking that is an ASPM exit window, not a burst of TLPs.
const exitWindow = NumKinds

// compactAfter is the fewest recorded bookings commit moves the pending ones down for
// (unless none is pending): moving a few at every call cost more than the room it saves.
const compactAfter = 8

// book places a burst (payload bytes of data) in the first gap at or after t and returns when
// its first lead bytes and the whole burst leave the wire. den is the rates' denominator.
// The common case, a burst after everything booked, is appended in place.
func (d *direction) book(den uint64, t sim.Time, k Kind, bu *burst, payload int) (leadEnd, end sim.Time) {
	cur := laterOf(at(t), d.floor)
	dur := bu.dur
	n := len(d.pending)
	i := n
	if d.head < n && cur.less(d.pending[n-1].end) {
		i, cur = d.gap(den, cur, dur)
	}
	if i < n {
		d.pending = slices.Insert(d.pending, i, booking{start: cur, mid: cur.plus(bu.raw, den), end: cur.plus(dur, den), kind: k})
		d.run++ // the back-to-back tail moved up by one
	} else {
		if n == d.head || d.pending[n-1].end != cur {
			d.run = n // a new tail starts with this burst
		}
		if n == cap(d.pending) {
			d.pending = slices.Grow(d.pending, 1)
		}
		d.pending = d.pending[:n+1]
		b := &d.pending[n]
		b.start, b.mid, b.end, b.kind = cur, cur.plus(bu.raw, den), cur.plus(dur, den), k
	}
	st := d.stats
	st.TLPs[k] += int64(bu.tlps)
	st.Payload += int64(payload)
	st.Overhead += int64(bu.tlpBytes - payload)
	st.Transfers++
	return cur.plus(bu.lead, den).ceil(), cur.plus(dur, den).ceil()
}

// gap returns where a burst of dur that may start at cur, which is before the end of the
// last pending booking, goes: the index of the first pending booking after the first gap
// at or after cur that fits it (len(pending) if none does), and its start.
func (d *direction) gap(den uint64, cur, dur exact) (int, exact) {
	n := len(d.pending)
	for i := d.head; i < n; i++ {
		p := &d.pending[i]
		if !p.start.less(cur.plus(dur, den)) {
			return i, cur // fits in the gap before p
		}
		cur = laterOf(cur, p.end)
		if i >= d.run {
			break // no gaps from here on: after the last booking
		}
	}
	return n, laterOf(cur, d.pending[n-1].end)
}
