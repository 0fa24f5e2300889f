package firmware

import (
	"unsafe"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware/buffer"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// procBytes is what one simulated process costs beyond its closure at build: sim.Proc runs
// each process as a coroutine (iter.Pull), a goroutine whose stack starts at Go's minimum,
// 2 KiB (measured: 4,115 goroutines of a 4,096-die build hold 8.5 MB of stack), plus the
// Proc and its bookkeeping. procGrowth is what its stack may grow by once it runs: to
// 8 KiB, a bound these shallow loops stay within.
const (
	procBytes  = 2<<10 + 512
	procGrowth = 6 << 10
)

// MemoryBytes returns the heap (and coroutine stacks) the firmware of spec takes on
// channels × diesPerChannel dies of ds, from its data structures: the FTL's tables
// (ftl.MemoryBytes), the write buffer's slots and index (buffer.MemoryBytes), one in-flight
// count per block, the per-die scheduler queues, GC processes (one per die, each with a
// batch of gcBatch stamps) and signals, and the workers. build is what New allocates; peak
// adds what a run can grow to: the processes' stacks, and an unbounded buffer (the oracle
// policies) holding every logical page. spec must be valid for the geometry (ValidateGeometry).
func MemoryBytes(spec Spec, ds die.Spec, channels, diesPerChannel int) (build, peak int64) {
	g := ftl.Geometry{Channels: channels, DiesPerChannel: diesPerChannel, Planes: ds.Planes,
		BlocksPerPlane: ds.BlocksPerPlane, PagesPerBlock: ds.PagesPerBlock, Kind: ds.PageType}
	cfg := spec.ftlConfig()
	dies := int64(g.Dies())
	unbounded := spec.Buffer.Policy.Unbounded()
	bufBuild := buffer.MemoryBytes(spec.Buffer.Pages, false)
	if unbounded {
		bufBuild = buffer.MemoryBytes(0, false)
	}
	cb, _ := sim.ResourceBytes(3)
	build = int64(unsafe.Sizeof(Firmware{})) + ftl.MemoryBytes(g, cfg) + bufBuild +
		int64(g.Blocks())*int64(unsafe.Sizeof(uint16(0))) + // inflightBlock
		dies*int64(unsafe.Sizeof(dieQueue{})+2*unsafe.Sizeof(int32(0))+2*unsafe.Sizeof(sim.Signal{})+
			unsafe.Sizeof(false)+unsafe.Sizeof([]pendingProg(nil))) + // scheduler, gcSig, gcBusy, pending
		dies*(procBytes+gcBatch*int64(unsafe.Sizeof(uint64(0)))+int64(unsafe.Sizeof(waiter{}))) + // GC processes
		int64(spec.Workers)*(procBytes+int64(unsafe.Sizeof(worker{}))) +
		int64(spec.Cores)*(int64(unsafe.Sizeof(sim.Core{}))+cb)
	peak = build + (dies+int64(spec.Workers))*procGrowth
	if unbounded {
		logical := int64(float64(g.Pages()) * (1 - cfg.OverProvisioning))
		peak += buffer.MemoryBytes(int(logical), true) - bufBuild
	}
	return build, peak
}
