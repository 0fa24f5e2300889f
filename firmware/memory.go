package firmware

import (
	"unsafe"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware/buffer"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// MemoryBytes returns the heap the firmware of spec takes on
// channels × diesPerChannel dies of ds, from its data structures: the FTL's tables
// (ftl.MemoryBytes), the write buffer's slots and index (buffer.MemoryBytes), two in-flight
// counts per block (its programs, and those of newer copies of its data), the per-die scheduler queues, GC tasks (one per die, each with a batch of
// gcBatch stamps) and signals, and the workers (the firmware runs no processes since
// issue 21: its tasks are step handlers, with no coroutine stacks). build is what New
// allocates; peak adds what a run can grow to: an unbounded buffer (the oracle policies)
// holding every logical page. With firmware.power_loss.enabled, an 8-byte out-of-band
// record a physical page is added at build. spec must be valid for the geometry (ValidateGeometry).
func MemoryBytes(spec Spec, ds die.Spec, channels, diesPerChannel int) (build, peak int64) {
	g := ftl.GeometryOf(channels, diesPerChannel, ds)
	cfg := spec.FTL
	dies := int64(g.Dies())
	unbounded := spec.Buffer.Policy.Unbounded()
	bufBuild := buffer.MemoryBytes(spec.Buffer.Pages, false)
	if unbounded {
		bufBuild = buffer.MemoryBytes(0, false)
	}
	cb, _ := sim.ResourceBytes(3)
	build = int64(unsafe.Sizeof(Firmware{})) + ftl.MemoryBytes(g, cfg) + bufBuild +
		2*int64(g.Blocks())*int64(unsafe.Sizeof(uint16(0))) + // inflightBlock, newer (eraseguard.go)
		dies*int64(unsafe.Sizeof(dieQueue{})+2*unsafe.Sizeof(int32(0))+2*unsafe.Sizeof(sim.Signal{})+
			unsafe.Sizeof(false)+unsafe.Sizeof([]pendingProg(nil))) + // scheduler, gcSig, gcBusy, pending
		dies*(int64(unsafe.Sizeof(gcTask{}))+gcBatch*int64(unsafe.Sizeof(uint64(0)))) + // GC tasks (step handlers, issue 21)
		int64(spec.Workers)*int64(unsafe.Sizeof(worker{})) +
		int64(spec.Cores)*(int64(unsafe.Sizeof(sim.Core{}))+cb)
	if spec.PowerLoss.Enabled {
		build += g.Pages() * int64(unsafe.Sizeof(uint64(0))) // out-of-band records (powerloss.go)
	}
	peak = build
	if unbounded {
		logical := int64(float64(g.AllUnits()) * (1 - cfg.OverProvisioning))
		peak += buffer.MemoryBytes(int(logical), true) - bufBuild
	}
	return build, peak
}
