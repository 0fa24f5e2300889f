package pagecache

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// PageSize is the size of one page-cache page, 4 KiB (PAGE_SHIFT 12 on x86-64).
const PageSize = 4096

// Spec is the immutable configuration of the simulated host's memory, CPU costs, page cache
// and writeback. Start from DefaultSpec.
type Spec struct {
	// Memory is the host's physical memory, a multiple of 4 KiB, e.g. "4GiB".
	Memory Size `yaml:"memory"`
	// Reserved is memory the page cache can never use and that is not dirtyable: kernel
	// text and data, slab, page tables, application anonymous memory and the reserve
	// watermarks (totalreserve_pages). docs/sources.md §5.1: dirtyable memory = free + file pages
	// − totalreserve, so here it is Memory − Reserved.
	Reserved Size `yaml:"reserved"`
	// CPU holds the host cores and the per-operation costs charged to them.
	CPU CPUSpec `yaml:"cpu"`
	// Dirty holds the vm.dirty_* sysctls used when FastDrain's adaptive mode is off.
	Dirty DirtySpec `yaml:"dirty"`
	// Writeback holds the flusher's I/O shape.
	Writeback WritebackSpec `yaml:"writeback"`
	// ReadAhead is the maximum read-ahead window (read_ahead_kb), a multiple of 4 KiB;
	// 0 disables read-ahead.
	ReadAhead Size `yaml:"read_ahead"`
	// DirectFUA sets REQ_FUA on O_DIRECT writes, the O_DIRECT|O_SYNC semantics the issue
	// asks for (iomap direct I/O uses FUA for O_DSYNC writes when the device has a
	// volatile write cache).
	DirectFUA bool `yaml:"direct_fua"`
	// HintStreams is how the file system turns a file's write-lifetime hint (fcntl
	// F_SET_RW_HINT) into a write stream, which the NVMe driver sends as an FDP placement
	// identifier (writehint.go): "" or "none", as ext4 and XFS (the hint is carried in
	// the bio, and Linux's NVMe driver places nothing by it), or "f2fs", f2fs's mapping of
	// its hot, warm and cold data classes onto the device's first three streams. Left out of
	// a configuration's listing when unset.
	HintStreams string `yaml:"hint_streams,omitempty"`
	// FastDrain holds the host side of FastDrain's adaptive page-victimization scheduling.
	FastDrain FastDrainSpec `yaml:"fastdrain"`
}

// CPUSpec is the host CPU: identical cores and what each kind of work costs in cycles.
type CPUSpec struct {
	// Cores is the number of host cores processes are placed on.
	Cores int `yaml:"cores"`
	// Freq is the core clock, e.g. "3GHz".
	Freq sim.Freq `yaml:"freq"`
	// SyscallCycles is charged once per read/write/fsync/create/unlink/O_DIRECT call:
	// entry, exit and the VFS path.
	SyscallCycles int64 `yaml:"syscall_cycles"`
	// PageCopyCycles is charged per 4 KiB page a buffered read or write copies between the
	// user buffer and the page cache, page-cache lookup included (the cost of a hit).
	PageCopyCycles int64 `yaml:"page_copy_cycles"`
	// IRQCycles is the cost of taking one completion interrupt and running the handler. The
	// NVMe driver charges it; it lives here because it is a property of the host CPU.
	IRQCycles int64 `yaml:"irq_cycles"`
	// WakeIdle places a task that is about to run on an idle core when its own core is
	// busy, as Linux's wake-up placement does (select_task_rq_fair → select_idle_sibling:
	// the previous CPU if idle, else an idle CPU sharing its cache). Off, every task stays on
	// the core it was created on and queues there. Default on.
	WakeIdle bool `yaml:"wake_idle"`
}

// DirtySpec is Linux's vm.dirty_* sysctl set (docs/sources.md §5.1).
type DirtySpec struct {
	// Ratio is vm.dirty_ratio: % of dirtyable memory above which writers are throttled
	// hard (the dirty threshold).
	Ratio int `yaml:"ratio"`
	// BackgroundRatio is vm.dirty_background_ratio: % of dirtyable memory above which the
	// flusher writes in the background. If it is ≥ Ratio, Ratio/2 is used, as Linux does.
	BackgroundRatio int `yaml:"background_ratio"`
	// ExpireCentisecs is vm.dirty_expire_centisecs: inodes dirty for longer are written by
	// the next periodic (kupdate) pass.
	ExpireCentisecs int `yaml:"expire_centisecs"`
	// WritebackCentisecs is vm.dirty_writeback_centisecs: the periodic flusher wake-up
	// interval; 0 disables periodic writeback.
	WritebackCentisecs int `yaml:"writeback_centisecs"`
}

// RatioSet is one (dirty_ratio, dirty_background_ratio) pair of FastDrain.
type RatioSet struct {
	Ratio           int `yaml:"ratio"`            // dirty_ratio, %
	BackgroundRatio int `yaml:"background_ratio"` // dirty_background_ratio, %
}

// WritebackSpec shapes the bios the flusher and fsync issue.
type WritebackSpec struct {
	// MaxBio is the largest bio the page cache builds, a multiple of 4 KiB. Default 1 MiB:
	// BIO_MAX_VECS = 256 pages per bio. The block layer splits to its own limits.
	MaxBio Size `yaml:"max_bio"`
	// MaxInflight is how many writeback bios the flusher keeps in flight. It stands in for
	// the wait for a free request tag inside submit_bio that paces the real flusher.
	MaxInflight int `yaml:"max_inflight"`
}

// FastDrainSpec configures adaptive page-victimization scheduling (the FastDrain paper,
// "Adaptive page victimization scheduling"): two ratio sets, switched by the SSD's buffer
// level reported in completions.
type FastDrainSpec struct {
	// Adaptive turns the scheme on: the Low set applies from the start and SetBufferLevel
	// switches sets. Off, Dirty.Ratio/BackgroundRatio apply and SetBufferLevel is ignored.
	Adaptive bool `yaml:"adaptive"`
	// Low is the default set, used while the SSD buffer is not reported full (paper: 5 %/3 %).
	Low RatioSet `yaml:"low"`
	// High is used after the SSD reports its buffer above the high watermark (paper: 10 %/5 %).
	High RatioSet `yaml:"high"`
}

// DefaultSpec returns a 4 GiB, 4-core 3 GHz host with Linux's default sysctls (docs/sources.md
// §5.1: dirty_ratio 20, dirty_background_ratio 10, expire 3000 cs, writeback 500 cs),
// read_ahead_kb 128 and FastDrain's ratio sets from the paper (low 5/3, high 10/5).
//
// The CPU costs are estimates, not measurements [U]: a syscall round trip with VFS work
// ≈ 0.5 µs (1500 cycles at 3 GHz); a 4 KiB copy at ≈ 10 GB/s plus a page-cache lookup
// ≈ 0.5 µs (1500 cycles); an NVMe completion interrupt with its handler ≈ 1 µs (3000 cycles).
func DefaultSpec() Spec {
	return Spec{
		Memory:   4 * GiB,
		Reserved: 0,
		CPU: CPUSpec{
			Cores:          4,
			Freq:           3 * sim.GHz,
			SyscallCycles:  1500,
			PageCopyCycles: 1500,
			IRQCycles:      3000,
			WakeIdle:       true,
		},
		Dirty: DirtySpec{
			Ratio:              20,
			BackgroundRatio:    10,
			ExpireCentisecs:    3000,
			WritebackCentisecs: 500,
		},
		Writeback: WritebackSpec{
			MaxBio:      1 * MiB,
			MaxInflight: 64,
		},
		ReadAhead: 128 * KiB,
		DirectFUA: true,
		FastDrain: FastDrainSpec{
			Adaptive: false,
			Low:      RatioSet{Ratio: 5, BackgroundRatio: 3},
			High:     RatioSet{Ratio: 10, BackgroundRatio: 5},
		},
	}
}

// Validate reports every problem with the spec, each naming its field.
func (s Spec) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("pagecache."+field+": "+format, args...))
	}
	if s.Memory <= 0 || s.Memory%PageSize != 0 {
		bad("memory", "%v must be a positive multiple of 4KiB", s.Memory)
	}
	if s.Reserved < 0 || s.Reserved%PageSize != 0 {
		bad("reserved", "%v must be a non-negative multiple of 4KiB", s.Reserved)
	} else if s.Memory > 0 && s.Memory-s.Reserved < 64*PageSize {
		bad("reserved", "%v leaves less than 64 pages of %v for the page cache", s.Reserved, s.Memory)
	}
	if s.CPU.Cores < 1 {
		bad("cpu.cores", "%d must be at least 1", s.CPU.Cores)
	}
	if s.CPU.Freq <= 0 {
		bad("cpu.freq", "%d Hz must be positive", int64(s.CPU.Freq))
	}
	for _, c := range []struct {
		name string
		v    int64
	}{{"cpu.syscall_cycles", s.CPU.SyscallCycles}, {"cpu.page_copy_cycles", s.CPU.PageCopyCycles},
		{"cpu.irq_cycles", s.CPU.IRQCycles}} {
		if c.v < 0 {
			bad(c.name, "%d must not be negative", c.v)
		}
	}
	checkSet := func(prefix string, r RatioSet) {
		if r.Ratio < 1 || r.Ratio > 100 {
			bad(prefix+"ratio", "%d is not a percentage from 1 to 100", r.Ratio)
		}
		if r.BackgroundRatio < 1 || r.BackgroundRatio > 100 {
			bad(prefix+"background_ratio", "%d is not a percentage from 1 to 100", r.BackgroundRatio)
		}
	}
	checkSet("dirty.", RatioSet{s.Dirty.Ratio, s.Dirty.BackgroundRatio})
	if s.Dirty.ExpireCentisecs < 1 {
		bad("dirty.expire_centisecs", "%d must be positive", s.Dirty.ExpireCentisecs)
	}
	if s.Dirty.WritebackCentisecs < 0 {
		bad("dirty.writeback_centisecs", "%d must not be negative (0 disables)", s.Dirty.WritebackCentisecs)
	}
	if s.Writeback.MaxBio < PageSize || s.Writeback.MaxBio%PageSize != 0 {
		bad("writeback.max_bio", "%v must be a positive multiple of 4KiB", s.Writeback.MaxBio)
	}
	if s.Writeback.MaxInflight < 1 {
		bad("writeback.max_inflight", "%d must be at least 1", s.Writeback.MaxInflight)
	}
	if s.ReadAhead < 0 || s.ReadAhead%PageSize != 0 {
		bad("read_ahead", "%v must be a non-negative multiple of 4KiB", s.ReadAhead)
	}
	if err := checkHintStreams(s.HintStreams); err != nil {
		bad("hint_streams", "%v", err)
	}
	checkSet("fastdrain.low.", s.FastDrain.Low)
	checkSet("fastdrain.high.", s.FastDrain.High)
	return errors.Join(errs...)
}
