package firmware

import (
	"unsafe"

	"github.com/fastdrain-sim/fastdrain/firmware/buffer"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// MemoryBytes returns the heap the firmware of spec takes on
// channels × diesPerChannel dies of ds, from its data structures: the FTL's tables
// (ftl.MemoryBytes), the write buffer's slots and index (buffer.MemoryBytes), two in-flight
// counts per block (its programs, and those of newer copies of its data), the per-die
// scheduler queues, GC tasks (one per die, each with a batch of gcBatch stamps) and
// signals, and the workers (the firmware runs no processes since issue 21: its tasks are
// step handlers, with no coroutine stacks). build is what New allocates; peak adds what a
// run can grow to: an unbounded buffer (the oracle policies) holding every logical page.
// With firmware.power_loss.enabled, an 8-byte out-of-band record a physical mapping unit
// is added at build. spec must be valid for the geometry (ValidateGeometry).
func MemoryBytes(spec Spec, ds hal.DieSpec, channels, diesPerChannel int) (build, peak int64) {
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
		build += g.AllUnits() * int64(unsafe.Sizeof(uint64(0))) // out-of-band records, one a unit (powerloss.go)
	}
	peak = build
	if unbounded {
		logical := int64(float64(g.AllUnits()) * (1 - cfg.OverProvisioning))
		peak += buffer.MemoryBytes(int(logical), true) - bufBuild
	}
	return build, peak
}

// ResidentBytes returns the part of MemoryBytes's build figure in memory once the firmware
// is built and preconditioned to fill and overwrite (Precondition): the FTL's maps in
// proportion to the entries preconditioning wrote (ftl.ResidentBytes: a never-written entry
// is a zero the operating system has not given memory), and, with
// firmware.power_loss.enabled, the out-of-band records of the units it filled (the rest of
// the 8-byte-a-unit table is zeros too). Everything else New allocates, it writes.
func ResidentBytes(spec Spec, ds hal.DieSpec, channels, diesPerChannel int, fill, overwrite float64) int64 {
	g := ftl.GeometryOf(channels, diesPerChannel, ds)
	build, _ := MemoryBytes(spec, ds, channels, diesPerChannel)
	mapped, written := ftl.PreconditionWrites(g, spec.FTL, fill, overwrite)
	r := build - ftl.MemoryBytes(g, spec.FTL) + ftl.ResidentBytes(g, spec.FTL, mapped, written)
	if spec.PowerLoss.Enabled {
		rec := int64(unsafe.Sizeof(uint64(0)))
		r += sim.Resident(g.AllUnits()*rec, written*rec) - g.AllUnits()*rec
	}
	return r
}

// WriteBytes returns the memory a run adds for each flash page it programs on a block no
// run has programmed before, at most: the page's out-of-band stamps in its die (allocated
// a block at a time on the block's first program, die.MemoryBytes), its units' reverse-map
// entries, as many map entries for logical pages the host writes for the first time, and
// its units' out-of-band records with firmware.power_loss.enabled. Over a device's life every page
// is programmed; a run of seconds programs a small part of a large array.
func WriteBytes(spec Spec, ds hal.DieSpec, channels, diesPerChannel int) int64 {
	g := ftl.GeometryOf(channels, diesPerChannel, ds)
	b := int64(ds.StampsPerPage)*int64(unsafe.Sizeof(uint64(0))) + 2*int64(g.Units())*int64(unsafe.Sizeof(uint32(0)))
	if spec.PowerLoss.Enabled {
		b += int64(g.Units()) * int64(unsafe.Sizeof(uint64(0)))
	}
	return b
}
