package platforms

import (
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/internal/sysmem"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Limits bounds what a configuration may ask of the machine that simulates it.
type Limits struct {
	// Memory is the most memory a run may need, by the resource guard's estimate
	// (MemoryEstimate); a configuration that needs more is refused before anything is
	// built. 0, the default, means the machine's memory: its physical memory or its cgroup
	// limit, whichever is lower (internal/sysmem). Set it higher to run into swap, lower to
	// leave room for other work.
	Memory sim.Size `yaml:"memory"`
}

// runtimeBytes is the heap a built machine holds beyond the structures EstimateMemory
// works out: the Go runtime's own, the host block layer's tags and request pools, the
// controller's command slots and the engine. Measured: the tiny preset's heap after Build
// less its estimated structures is about 2.3 MiB (TestMemoryEstimateMatchesHeap); 8 MiB is
// counted.
const runtimeBytes = 8 << 20

// MemoryPart is one line of a memory estimate: what it is for and its bytes at build and
// at the run's peak.
type MemoryPart struct {
	What        string
	Build, Peak int64
}

// MemoryEstimate is the memory a configuration needs: its parts, and their sums at build
// and at the peak a run can reach.
type MemoryEstimate struct {
	Parts       []MemoryPart
	Build, Peak int64
}

// EstimateMemory works out the memory c needs from the sizes of the data structures each
// model allocates for its geometry (die.MemoryBytes, firmware.MemoryBytes,
// pagecache.Spec.MemoryBytes, nvmedrv.Spec.MemoryBytes): at build, what Build allocates (mapping tables, per-block
// state, the write buffer's index, processes); at the peak, what a run can grow to (a stamp
// per flash page once every block has been programmed, an unbounded buffer holding every
// logical page, a full page cache). c must be valid apart from the guard itself.
func (c Config) EstimateMemory() MemoryEstimate {
	f := c.Flash
	dies := int64(f.Dies())
	ds := c.DieSpec()
	db, dp := die.MemoryBytes(ds)
	fb, fp := firmware.MemoryBytes(c.Firmware, ds, f.Channels, f.Ways*f.DiesPerPackage)
	logical := int64(float64(f.Bytes()/int64(f.Die.PageSize)*int64(ds.StampsPerPage())) * (1 - c.Firmware.FTL.OverProvisioning))
	host := c.Host.PageCache.MemoryBytes(logical)
	drv := c.Host.Driver.MemoryBytes(c.NVMe, c.Host.PageCache.CPU.Cores)
	e := MemoryEstimate{Parts: []MemoryPart{
		{fmt.Sprintf("flash dies (%d × %d planes × %d blocks × %d pages)", dies, f.Die.Planes, f.Die.BlocksPerPlane, f.Die.PagesPerBlock),
			dies * db, dies * dp},
		{fmt.Sprintf("firmware (FTL maps of %d logical and %d physical pages, buffer, per-die state)", logical, f.Bytes()/int64(f.Die.PageSize)),
			fb, fp},
		{fmt.Sprintf("host page cache (%v of memory)", c.Host.PageCache.Memory), 0, host},
		{"host NVMe driver (queues, command slots, DMA buffer address space)", drv, drv},
		{"runtime and small structures", runtimeBytes, runtimeBytes},
	}}
	for _, p := range e.Parts {
		e.Build += p.Build
		e.Peak += p.Peak
	}
	return e
}

// CheckMemory is the resource guard: it refuses c if its estimated peak memory
// (EstimateMemory) exceeds limits.memory, or the machine's memory when that is 0, with the
// estimate, its largest parts and the limit in the error. Load and Build call it after
// Validate, so run, compare, sweep and config validate all refuse such a configuration
// before allocating it.
func (c Config) CheckMemory() error {
	limit, from := int64(c.Limits.Memory), "limits.memory"
	if limit == 0 {
		n, src, err := sysmem.Limit()
		if err != nil {
			return fmt.Errorf("limits.memory: 0 means the machine's memory, which cannot be read here (%v); set limits.memory", err)
		}
		limit, from = n, "the machine's memory, "+src+"; set limits.memory to change it"
	}
	e := c.EstimateMemory()
	if e.Peak <= limit {
		return nil
	}
	var parts []string
	for _, p := range e.Parts {
		if p.Peak >= e.Peak/100 {
			parts = append(parts, fmt.Sprintf("%s %s", p.What, bytesString(p.Peak)))
		}
	}
	return fmt.Errorf("limits.memory: the configuration needs an estimated %s of memory at its peak (%s at build): %s; the limit is %s (%s). Make the flash array smaller (flash.channels, flash.ways, flash.dies_per_package, flash.die.blocks_per_plane, flash.die.pages_per_block) or raise limits.memory",
		bytesString(e.Peak), bytesString(e.Build), strings.Join(parts, "; "), bytesString(limit), from)
}

// bytesString formats n bytes in the largest binary unit at or below it, to one decimal
// ("412.3 GiB", "7.0 MiB", "512 B").
func bytesString(n int64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	v, u := float64(n)/1024, 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	return fmt.Sprintf("%.1f %s", v, units[u])
}
