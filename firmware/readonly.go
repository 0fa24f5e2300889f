package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Read-only mode: the end of a drive's life. When a die has more bad blocks than its spare
// pool (ftl.SpareExhausted; factory and grown blocks count, the pool being what the NAND
// vendor allows a die), or when a die has no free block left to program a page into
// (ftl.GCRoom, which only a pool larger than the over-provisioning can let happen), the
// drive stops taking data: it "has been placed in read only mode" (NVMe SMART / Health log,
// critical warning bit 3) and stays so. Then:
//
//   - every command that would write the media (Write, Write Zeroes, Dataset Management,
//     and a Flush that finds data still to write) completes with Attempted Write to Read
//     Only Range (SCT 1h, SC 82h, with Do Not Retry). NVM Command Set Specification 1.0
//     lists it for those commands (§3.1, Figure 16) and defines it for Write (§3.2.6.1,
//     Figure 67): "The LBA range specified contains read-only blocks. The controller shall
//     not return this status value if the read-only condition on the media is a result of
//     a change in the write protection state of a namespace" — the condition the SMART
//     critical warning bit 3 describes ("all of the media has been placed in read only
//     mode", set under the same proviso). Namespace is Write Protected (generic 20h, NVMe
//     Base Specification 2.2, Figure 102) is the other case: "as a result of a change in
//     the namespace write protection state". Writes waiting for buffer room and flushes
//     waiting for the flash complete so too; a write already admitted (its data moving in)
//     is buffered as usual;
//   - reads are served as before, from the buffer and the flash;
//   - garbage collection stops (it would wear the dies further): the pages of retired
//     blocks stay where they are, readable (a failed program or erase leaves the other
//     pages of its block intact, Numonyx NAND08GW3C2A datasheet §9.2);
//   - nothing more is programmed: the evictor stops (dirty pages stay in the buffer, which
//     serves their reads; a Flush finding them fails, as above), and a program in flight
//     that fails is not programmed again: its data goes back to where it came from (a
//     buffered page to the buffer, dirty; a GC copy's logical page to its original). A
//     power cut's hold-up drain is the exception: with power-loss protection the
//     acknowledged pages still go to the flash where there is room (powerloss.go).

// Why the drive went read-only: what its die did.
const (
	roSpare  = "used up its spare pool"
	roNoRoom = "had no free block left to program into"
)

// readOnly is the drive's read-only mode: when it began and why.
type readOnly struct {
	f      *Firmware
	on     bool
	at     sim.Time
	die    int    // the die that caused it
	reason string // roSpare or roNoRoom
}

// enterReadOnly puts the drive in read-only mode now (once), because of die g. The writes
// and flushes waiting are given a look, in a step of their own after the current one, and
// fail there.
func (f *Firmware) enterReadOnly(g int, reason string) {
	ro := &f.ro
	if ro.on {
		return
	}
	ro.on, ro.at, ro.die, ro.reason = true, f.eng.Now(), g, reason
	f.at(ro.at, ro)
}

// HandleEvent fails the writes waiting for buffer room and the flushes waiting for the
// flash: each is given the look it gets when the room changes or the buffer empties
// (roomChanged, bufferEmptied), which in read-only mode completes it with the read-only
// status.
func (ro *readOnly) HandleEvent(*sim.Event) {
	f := ro.f
	if f.pl.cut {
		return
	}
	f.roomChanged()
	f.bufferEmptied()
}

// ReadOnly reports whether the drive is in read-only mode.
func (f *Firmware) ReadOnly() bool { return f.ro.on }

// statusReadOnly is the status of a command refused in read-only mode.
var statusReadOnly = nvme.StatusWriteReadOnlyRange.WithDNR()

// refuseWrite completes the worker's command with the read-only status, counting it.
func (wk *worker) refuseWrite() {
	wk.f.faults.RefusedWrites++
	wk.finish(statusReadOnly)
}

// gcRoom reports whether die g's GC stream can take another page (ftl.GCRoom); if not, the
// drive goes read-only: the die has no free block left.
func (f *Firmware) gcRoom(g int) bool {
	if f.ftl.GCRoom(g) {
		return true
	}
	f.enterReadOnly(g, roNoRoom)
	return false
}

// unplaced ends op, a program that failed when its die had no room to program its data
// again (gcRoom): the data goes back to where it came from, losing nothing. A buffered
// page becomes dirty again in the buffer (which serves its reads) and its logical page is
// unmapped from the failed page; a GC copy's logical page maps back to the original, which
// GC has not erased (a victim is erased only after its moves' programs complete, a retired
// block never).
func (f *Firmware) unplaced(now sim.Time, op *flashOp) {
	f.faults.Unplaced++
	// op's erase guards stay (eraseguard.go): the newer copy went back to the buffer, not to
	// flash, so the blocks holding the copies it superseded are not erased.
	u := ftl.Unit(op.ppn) // one unit a page: the configuration refuses program faults with sub-page mapping
	f.pending.done(u, op.stamp)
	f.inflightBlock[f.geo.BlockOf(op.ppn)]--
	f.gc.programsDone(f)
	switch op.kind {
	case opEvict:
		f.ftl.Unmap(u)
		f.buf.EvictFailed(op.victim)
		if op.bg {
			f.evict.bgInFlight--
		}
		f.evict.notify()
	case opGCProgram:
		f.ftl.Restore(u, op.from)
		f.release(now, op.w)
	default:
		panic(fmt.Sprintf("firmware %s at %v: program of kind %d has no data to put back", f.name, now, op.kind))
	}
}

// Health is the drive's health as NVMe's SMART / Health Information log reports it
// (nvme.HealthInfo), with the read-only mode's cause.
type Health struct {
	SparePool      int      // each die's spare pool, in blocks
	SpareLeft      int      // the least spare blocks a die has left (negative: a die is past its pool)
	AvailableSpare int      // per cent of the pool left on the worst die (ftl.AvailableSpare)
	Threshold      int      // the Available Spare Threshold, per cent
	ReadOnly       bool     // the drive is in read-only mode
	ReadOnlyAt     sim.Time // when it went read-only
	ReadOnlyDie    int      // the die that caused it
	ReadOnlyReason string   // what its die did: "used up its spare pool" or "had no free block left to program into"
	GrownBad       int      // the grown bad blocks of that die (of every die if not read-only)
}

// Health returns the drive's health now.
func (f *Firmware) Health() Health {
	h := Health{SparePool: f.ftl.SparePool(), SpareLeft: f.ftl.SparePool(), AvailableSpare: f.ftl.AvailableSpare(),
		Threshold: f.spec.FTL.SpareThreshold, ReadOnly: f.ro.on, ReadOnlyAt: f.ro.at, ReadOnlyDie: f.ro.die,
		ReadOnlyReason: f.ro.reason}
	for g := 0; g < f.geo.Dies(); g++ {
		h.SpareLeft = min(h.SpareLeft, f.ftl.SpareLeft(g))
		if !f.ro.on {
			h.GrownBad += f.ftl.GrownBad(g)
		}
	}
	if f.ro.on {
		h.GrownBad = f.ftl.GrownBad(f.ro.die)
	}
	return h
}

// HealthInfo implements hal.HostReports: the firmware's part of the SMART / Health
// Information log page. Critical warning: bit 0 when the available spare is below the
// threshold; bits 2 (reliability degraded by media errors) and 3 (all the media read-only)
// in read-only mode. Media and Data Integrity Errors counts the page reads the ECC could
// not correct after every read-retry step (host and GC reads); Number of Error Information
// Log Entries, the commands completed with an error status. The host command and data
// counters are the firmware's; the data units are thousands of 512-byte units, rounded up.
func (f *Firmware) HealthInfo() nvme.HealthInfo {
	h := nvme.HealthInfo{AvailableSpare: uint8(f.ftl.AvailableSpare()),
		AvailableSpareThreshold: uint8(f.spec.FTL.SpareThreshold),
		HostReadCommands:        uint64(f.Stats.Reads), HostWriteCommands: uint64(f.Stats.Writes),
		DataUnitsRead:    dataUnits(f.Stats.ReadPages, f.spec.PageSize),
		DataUnitsWritten: dataUnits(f.Stats.WritePages, f.spec.PageSize),
		MediaErrors:      uint64(f.faults.Uncorrectable), ErrorLogEntries: uint64(f.Stats.Errors),
		PowerCycles: 1}
	if int(h.AvailableSpare) < f.spec.FTL.SpareThreshold {
		h.CriticalWarning |= nvme.CriticalSpare
	}
	if f.ro.on {
		h.CriticalWarning |= nvme.CriticalReliability | nvme.CriticalReadOnly
	}
	return h
}

// dataUnits returns pages of pageSize bytes in NVMe data units: thousands of 512-byte
// units, rounded up.
func dataUnits(pages int64, pageSize int) uint64 {
	units := uint64(pages) * uint64(pageSize) / 512
	return (units + 999) / 1000
}
