package firmware

import (
	"github.com/fastdrain-sim/fastdrain/firmware/buffer"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// FlowTracer is told which host command caused which flash transaction and DRAM transfer,
// for a timeline's flow arrows. The command is named by its flow id (hal.HostCmd.Flow,
// which the controller's CommandTracer gave it) and the time of the cause, when the
// command's work asked for it. The links are the ones the firmware knows as facts:
//   - a host read's flash read (and a partial write's read of the old data): the command
//     queued it;
//   - a write's data landing in its buffer slots in DRAM: the command's data;
//   - an eviction program: it carries the buffered version of a page, and the write that
//     stored that version is recorded when it did (from then on, for that page).
//
// GC reads, programs and erases are not linked: no host command asked for them.
type FlowTracer interface {
	// Flash is called when transaction tx on die g (channel-major) completes, once per
	// operation it carries that a command caused (a multi-plane program can carry several).
	Flash(id uint64, from sim.Time, g int, tx *hal.FlashCmd)
	// DRAMWrite is called when a command's data arriving at from has been written into
	// DRAM by end.
	DRAMWrite(id uint64, from, end sim.Time)
}

// flowSrc is the command that caused an operation and when (id 0: none).
type flowSrc struct {
	id uint64
	at sim.Time
}

// flows is the firmware's part of flow tracing: the tracer and, per buffered page, the
// write that stored its latest version.
type flows struct {
	t       FlowTracer
	writers map[int64]flowWriter // by logical page; looked up, never iterated
}

// flowWriter is the write that stored a page's buffered version.
type flowWriter struct {
	version uint64
	src     flowSrc
}

// TraceFlows attaches a flow tracer (nil detaches). Attach it before the run starts. With
// none the firmware pays a nil check where a link could be made.
func (f *Firmware) TraceFlows(t FlowTracer) {
	if t == nil {
		f.flows = nil
		return
	}
	f.flows = &flows{t: t, writers: map[int64]flowWriter{}}
}

// stored records that command id stored version of page lpn in the buffer at t.
func (fl *flows) stored(lpn int64, version uint64, id uint64, t sim.Time) {
	if id == 0 {
		delete(fl.writers, lpn)
		return
	}
	fl.writers[lpn] = flowWriter{version, flowSrc{id, t}}
}

// evicted returns the write that stored the version victim v carries to flash (none if
// no traced write stored it).
func (fl *flows) evicted(v buffer.Victim) flowSrc {
	w, ok := fl.writers[v.LPN]
	if !ok || w.version != v.Version {
		return flowSrc{}
	}
	delete(fl.writers, v.LPN)
	return w.src
}

// done reports the completed transaction of op, and of the operations merged into it.
func (fl *flows) done(op *flashOp, tx *hal.FlashCmd) {
	if op.flow.id != 0 {
		fl.t.Flash(op.flow.id, op.flow.at, op.die, tx)
	}
	for _, m := range op.merged {
		if m.flow.id != 0 {
			fl.t.Flash(m.flow.id, m.flow.at, op.die, tx)
		}
	}
}
