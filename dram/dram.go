package dram

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Stats counts what a DRAM has done. Row outcomes are counted per row piece of an access
// (an access that crosses a row boundary touches two rows).
type Stats struct {
	Reads        int64 // Access calls that read
	Writes       int64 // Access calls that wrote
	BytesRead    int64 // bytes read
	BytesWritten int64 // bytes written
	RowHits      int64 // row pieces that found their row open
	RowMisses    int64 // row pieces that found their bank closed (activate only)
	RowConflicts int64 // row pieces that found another row open (precharge and activate)
	Refreshes    int64 // refresh commands issued
}

// bank is the state of one bank: which row is open and when each command may next issue.
// The bank is open while epoch is the DRAM's (a refresh closes every bank by starting a new
// epoch); a closed bank's times are stale and never read (its next activate sets them).
type bank struct {
	epoch    uint64
	row      uint64
	colReady sim.Time // earliest read/write command (activate + tRCD)
	preReady sim.Time // earliest precharge (tRAS, tRTP, tWR)
}

// timing holds the spec's parameters rounded up to whole clock cycles, in ps.
type timing struct {
	tck, cl, cwl, rcd, rp, ras, wr, rtp, wtr, rrd, faw, ccd, rfc, refi sim.Time

	burst  sim.Time // one BL8 burst on the bus: BL/2 cycles
	colGap sim.Time // spacing of back-to-back column commands in one row: max(tCCD, burst)
}

// DRAM is one controller DRAM rank. It keeps per-bank row state and books data-bus time on
// its bus resource; it is passive and schedules no events.
//
// Addresses map row:bank:column (row in the high bits): byte a is in column a mod RowSize
// of bank (a / RowSize) mod Banks, row a / (RowSize × Banks). Consecutive rows' worth of
// addresses therefore fall in consecutive banks, so a long sequential move activates the
// next bank while the current one streams.
type DRAM struct {
	name string
	spec Spec
	t    timing
	bus  *sim.Resource

	actRead, actWrite, actRefresh sim.Activity

	// Address decomposition; all sizes are powers of two.
	burstShift uint // log2 bytes per burst
	rowShift   uint // log2 RowSize
	bankShift  uint // log2 Banks
	bankMask   uint64

	banks       []bank
	lastAct     sim.Time    // last activate, any bank (tRRD)
	acts        [4]sim.Time // last four activates, ring (tFAW)
	actIdx      int
	lastCol     sim.Time // last column command (tCCD)
	wtrReady    sim.Time // earliest read command after the last write data (tWTR)
	nextRefresh sim.Time // when the next refresh falls due
	// epoch counts refreshes plus one: the banks with this epoch are open. refreshEnd is
	// when the last refresh ended, before which no bank may activate (tRFC), and openPre
	// the latest preReady of the banks open now (longAgo if none is): a bank's preReady
	// only grows while it is open, so this running maximum is the one a refresh needs,
	// without a walk over the banks.
	epoch      uint64
	refreshEnd sim.Time
	openPre    sim.Time
	stats      Stats
}

// longAgo stands for "no such command yet": far enough back that no constraint binds.
const longAgo = -sim.Second

// New returns an idle DRAM with all banks closed. It panics if the spec is invalid;
// configuration code calls Validate first.
func New(name string, spec Spec) *DRAM {
	if err := spec.Validate(); err != nil {
		panic(fmt.Sprintf("dram %s: invalid spec: %v", name, err))
	}
	tck := spec.TCK
	cyc := func(t sim.Time) sim.Time { return (t + tck - 1) / tck * tck }
	t := timing{
		tck: tck, cl: cyc(spec.CL), cwl: cyc(spec.CWL), rcd: cyc(spec.TRCD), rp: cyc(spec.TRP),
		ras: cyc(spec.TRAS), wr: cyc(spec.TWR), rtp: cyc(spec.TRTP), wtr: cyc(spec.TWTR),
		rrd: cyc(spec.TRRD), faw: cyc(spec.TFAW), ccd: cyc(spec.TCCD), rfc: cyc(spec.TRFC),
		refi: cyc(spec.TREFI),
		// Double data rate: BL beats take BL/2 cycles (docs/sources.md §4.1: BL8 = 4 tCK).
		burst: sim.Time(spec.BurstLength/2) * tck,
	}
	t.colGap = max(t.ccd, t.burst)
	d := &DRAM{
		name:       name,
		spec:       spec,
		t:          t,
		bus:        sim.NewResource(name+".bus", "read", "write", "refresh"),
		burstShift: log2(int64(spec.BusWidth / 8 * spec.BurstLength)),
		rowShift:   log2(int64(spec.RowSize)),
		bankShift:  log2(int64(spec.Banks)),
		bankMask:   uint64(spec.Banks - 1),
		banks:      make([]bank, spec.Banks),
		lastAct:    longAgo,
		lastCol:    longAgo,
		wtrReady:   longAgo,
		epoch:      1,
		openPre:    longAgo,
	}
	d.actRead, d.actWrite, d.actRefresh = d.bus.Activity("read"), d.bus.Activity("write"), d.bus.Activity("refresh")
	for i := range d.acts {
		d.acts[i] = longAgo
	}
	d.nextRefresh = sim.MaxTime
	if spec.Refresh {
		d.nextRefresh = t.refi
	}
	return d
}

// Name returns the DRAM's name.
func (d *DRAM) Name() string { return d.name }

// Spec returns the DRAM's configuration.
func (d *DRAM) Spec() Spec { return d.spec }

// Capacity returns the rank's size in bytes (Spec.Capacity): with Access, what the
// firmware's buffer memory port asks of it (firmware.BufferMemory).
func (d *DRAM) Capacity() uint64 { return uint64(d.spec.Capacity) }

// Bus returns the data-bus resource, busy with activities "read", "write" and "refresh".
// Bus time is booked when Access is called, so it may run ahead of the engine's clock.
func (d *DRAM) Bus() *sim.Resource { return d.bus }

// Stats returns the counters so far.
func (d *DRAM) Stats() Stats { return d.stats }

// PeakBandwidth returns the data bus's peak rate in bytes per second: two transfers per
// clock of BusWidth bits (docs/sources.md §4.1: 1600 MT/s × 4 B = 6.4 GB/s for x32).
func (d *DRAM) PeakBandwidth() int64 {
	return int64(d.spec.BusWidth/8) * 2 * int64(sim.Second) / int64(d.t.tck)
}

// Access moves bytes bytes at addr, reading or writing, on behalf of a caller at time now,
// and returns when the last byte has crossed the data bus. Work starts at the first clock
// edge at or after now. The access is split at row boundaries; each row piece activates its
// row if needed (precharging another open row first, no earlier than tRAS after its
// activate and tRTP/tWR after its last column access), then streams BL8 bursts on the data
// bus after CL (reads) or CWL (writes). A partial burst costs a whole one. Bus time is
// booked first-come first-served behind earlier calls, which is how concurrent movers
// contend. A zero-byte access returns now. Addresses beyond the capacity and negative sizes
// are model bugs and panic.
func (d *DRAM) Access(now sim.Time, addr uint64, bytes int, write bool) sim.Time {
	if bytes <= 0 {
		if bytes < 0 {
			d.fail(now, "access of %d bytes", bytes)
		}
		return now
	}
	n := uint64(bytes)
	if capacity := uint64(d.spec.Capacity); addr >= capacity || n > capacity-addr {
		d.fail(now, "access [%#x, %#x) beyond capacity %v", addr, addr+n, d.spec.Capacity)
	}
	start := (now + d.t.tck - 1) / d.t.tck * d.t.tck
	for d.nextRefresh <= start {
		if d.refreshIdle(start) {
			break
		}
		d.refresh()
	}
	if write {
		d.stats.Writes++
		d.stats.BytesWritten += int64(bytes)
	} else {
		d.stats.Reads++
		d.stats.BytesRead += int64(bytes)
	}
	var done sim.Time
	rowBytes := uint64(1) << d.rowShift
	for n > 0 {
		col := addr & (rowBytes - 1)
		piece := min(n, rowBytes-col)
		done = d.rowAccess(start, addr, col, piece, write)
		addr += piece
		n -= piece
	}
	return done
}

// rowAccess books one piece of an access that lies within one row and returns the end of
// its data on the bus.
func (d *DRAM) rowAccess(start sim.Time, addr, col, n uint64, write bool) sim.Time {
	t := &d.t
	unit := addr >> d.rowShift
	b := &d.banks[unit&d.bankMask]
	row := unit >> d.bankShift
	colAt := max(start, b.colReady)
	if b.epoch != d.epoch || b.row != row {
		colAt = d.activate(start, b, row) + t.rcd
		b.colReady = colAt
	} else {
		d.stats.RowHits++
	}
	colAt = max(colAt, d.lastCol+t.ccd)
	lat, act := t.cl, d.actRead
	if write {
		lat, act = t.cwl, d.actWrite
	} else {
		colAt = max(colAt, d.wtrReady)
	}
	// The first column command waits for the data bus to be free when its data would start.
	dataStart := d.bus.FreeAt(colAt + lat)
	colAt = dataStart - lat
	bursts := sim.Time((col+n-1)>>d.burstShift - col>>d.burstShift + 1)
	lastCol := colAt + (bursts-1)*t.colGap
	dataEnd := dataStart + (bursts-1)*t.colGap + t.burst
	d.bus.Occupy(dataStart, dataEnd, act)
	d.lastCol = lastCol
	if write {
		b.preReady = max(b.preReady, dataEnd+t.wr)
		d.wtrReady = dataEnd + t.wtr
	} else {
		b.preReady = max(b.preReady, lastCol+t.rtp)
	}
	d.openPre = max(d.openPre, b.preReady)
	return dataEnd
}

// activate opens row in bank b, precharging the open row first if there is one, and
// returns the time of the activate command.
func (d *DRAM) activate(start sim.Time, b *bank, row uint64) sim.Time {
	t := &d.t
	at := max(start, d.refreshEnd)
	if b.epoch == d.epoch {
		d.stats.RowConflicts++
		at = max(at, b.preReady+t.rp, start+t.rp)
	} else {
		d.stats.RowMisses++
	}
	// tRRD since the last activate anywhere; tFAW since the fourth-last.
	at = max(at, d.lastAct+t.rrd, d.acts[d.actIdx]+t.faw)
	d.lastAct = at
	d.acts[d.actIdx] = at
	d.actIdx = (d.actIdx + 1) & 3
	b.epoch, b.row = d.epoch, row
	b.preReady = at + t.ras
	d.openPre = max(d.openPre, b.preReady)
	return at
}

// refresh issues the refresh that is due: it precharges every open bank, holds the whole
// rank (and so the data bus) for tRFC, and leaves all banks closed. A refresh that falls
// due while the bus is booked waits for the bus (JEDEC lets refreshes be postponed).
func (d *DRAM) refresh() {
	t := &d.t
	at := max(d.bus.FreeAt(d.nextRefresh), d.refreshEnd)
	if d.openPre != longAgo {
		at = max(at, max(d.openPre, d.nextRefresh)+t.rp)
	}
	end := at + t.rfc
	d.bus.Occupy(at, end, d.actRefresh)
	d.epoch++
	d.refreshEnd, d.openPre = end, longAgo
	d.stats.Refreshes++
	d.nextRefresh += t.refi
}

// refreshIdle issues at once every refresh due by start when none of them waits (the bus is
// free from the next one on, no row is open, and the last refresh has ended), as refresh
// would one by one: each then holds the bus for tRFC from its due time. It reports whether
// it did; a stretch of idle simulated seconds is otherwise 128,000 calls a second (tREFI
// 7.8 µs).
func (d *DRAM) refreshIdle(start sim.Time) bool {
	t := &d.t
	next := d.nextRefresh
	if d.openPre != longAgo || d.refreshEnd > next || d.bus.FreeAt(next) != next || t.rfc > t.refi {
		return false
	}
	k := int64((start-next)/t.refi) + 1
	if k < 2 || !d.bus.OccupyPeriodic(next, t.refi, t.rfc, k, d.actRefresh) {
		return false
	}
	d.epoch += uint64(k)
	d.stats.Refreshes += k
	d.refreshEnd = next + sim.Time(k-1)*t.refi + t.rfc
	d.nextRefresh = next + sim.Time(k)*t.refi
	return true
}

// fail panics with the component name and simulated time: a model bug, not bad input.
func (d *DRAM) fail(now sim.Time, format string, args ...any) {
	panic(fmt.Sprintf("dram %s at %v: %s", d.name, now, fmt.Sprintf(format, args...)))
}
