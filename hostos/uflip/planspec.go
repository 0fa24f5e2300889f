package uflip

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// BaseCounts holds one count per baseline pattern.
type BaseCounts struct {
	SR int64 `yaml:"sr"`
	RR int64 `yaml:"rr"`
	SW int64 `yaml:"sw"`
	RW int64 `yaml:"rw"`
}

// Of returns the count of base b.
func (c BaseCounts) Of(b Base) int64 {
	switch b {
	case SR:
		return c.SR
	case RR:
		return c.RR
	case SW:
		return c.SW
	}
	return c.RW
}

// PlanSpec is the immutable configuration of a uFLIP plan: the methodology's defaults and
// the values each micro-benchmark varies.
//
// Defaults from docs/sources.md §12: IOSize 32 KiB; IOCount SR 128, RR 256, SW 1024, RW 5116; IOIgnore
// RW 50, others 0; 3 runs per point; 100 ms between runs; target offsets aligned to 128 KiB;
// random format. The varied values are this project's choice within docs/sources.md §12's bounds
// (IOShift 0…IOSize, TargetSize multiples of IOSize, P ≤ 256, D ≤ 32, Incr 1/0/<0/>1),
// powers of two as in the seed paper's sweeps; the burst pause is also a project choice.
type PlanSpec struct {
	IOSize     int64      `yaml:"io_size"`     // default IO size, bytes
	IOCount    BaseCounts `yaml:"io_count"`    // IOs per run (per stream) by base
	IOIgnore   BaseCounts `yaml:"io_ignore"`   // start-up IOs left out of statistics
	NbRun      int64      `yaml:"nb_run"`      // runs per point
	RunPause   sim.Time   `yaml:"run_pause"`   // idle time between runs
	Settle     Settle     `yaml:"settle"`      // between runs: pause (uFLIP's), or flush a run's writes and pause
	Align      int64      `yaml:"align"`       // target offset alignment, bytes
	Format     FormatKind `yaml:"format"`      // device state enforcement
	Benches    []Bench    `yaml:"benches"`     // which micro-benchmarks to plan
	IOSizes    []int64    `yaml:"io_sizes"`    // Granularity: IOSize values, bytes
	IOShifts   []int64    `yaml:"io_shifts"`   // Alignment: IOShift values, bytes (≤ IOSize)
	Localities []int64    `yaml:"localities"`  // Locality: TargetSize in IOSize units
	Partitions []int64    `yaml:"partitions"`  // Partitioning: P values
	Incrs      []int64    `yaml:"incrs"`       // Order: Incr values
	Degrees    []int64    `yaml:"degrees"`     // Parallelism: ParallelDegree values
	Ratios     []int64    `yaml:"ratios"`      // Mix: Ratio values
	Pauses     []sim.Time `yaml:"pauses"`      // Pause: pause after every IO
	Bursts     []int64    `yaml:"bursts"`      // Bursts: IOs per burst
	BurstPause sim.Time   `yaml:"burst_pause"` // Bursts: pause after every burst
	// ReadbackBytes is the target of a Readback run (at least one IO): small enough to
	// stay in a drive's write buffer while it is read back.
	ReadbackBytes int64 `yaml:"readback_bytes"`
	// Auto chooses IOIgnore and IOCount per run (converge.go); off by default, as in uFLIP.
	// When on, IOCount is each base's cap (and sizes the fresh sequential-write areas).
	Auto Converge `yaml:"auto"`
}

// pow2 returns lo, 2·lo, … up to hi.
func pow2(lo, hi int64) []int64 {
	var v []int64
	for x := lo; x <= hi; x *= 2 {
		v = append(v, x)
	}
	return v
}

// DefaultPlanSpec returns the docs/sources.md §12 defaults with the project's sweeps: IOSize 0.5–512
// KiB; IOShift 0, 0.5, 1, …, 32 KiB; TargetSize 1–4096 IOSizes (32 KiB–128 MiB); P 1–256;
// Incr −1, 0, 1, 2, …, 64; D 1–32; Ratio 1–64; Pause 0.1–12.8 ms; Burst 1–128 IOs with a
// 10 ms pause; read-backs (not a uFLIP benchmark) over 256 KiB, a quarter of the smallest
// preset's write buffer (tiny's 256 pages of 4 KiB).
func DefaultPlanSpec() PlanSpec {
	var pauses []sim.Time
	for _, f := range pow2(1, 128) {
		pauses = append(pauses, sim.Time(f)*100*sim.Microsecond)
	}
	return PlanSpec{
		IOSize:        32 << 10,
		IOCount:       BaseCounts{SR: 128, RR: 256, SW: 1024, RW: 5116},
		IOIgnore:      BaseCounts{RW: 50},
		NbRun:         3,
		RunPause:      100 * sim.Millisecond,
		Align:         128 << 10,
		Format:        FormatRandom,
		Benches:       append([]Bench(nil), AllBenches...),
		IOSizes:       pow2(512, 512<<10),
		IOShifts:      append([]int64{0}, pow2(512, 32<<10)...),
		Localities:    pow2(1, 4096),
		Partitions:    pow2(1, 256),
		Incrs:         append([]int64{-1, 0}, pow2(1, 64)...),
		Degrees:       pow2(1, 32),
		Ratios:        pow2(1, 64),
		Pauses:        pauses,
		Bursts:        pow2(1, 128),
		BurstPause:    10 * sim.Millisecond,
		ReadbackBytes: 256 << 10,
		Auto:          DefaultConverge(),
	}
}

// Validate reports every problem with the spec, each naming its field.
func (s PlanSpec) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("uflip.%s: "+format, append([]any{field}, args...)...))
	}
	sectors := func(field string, v int64) {
		if v <= 0 || v%SectorSize != 0 {
			bad(field, "%d is not a positive multiple of %d", v, SectorSize)
		}
	}
	sectors("io_size", s.IOSize)
	sectors("align", s.Align)
	sectors("readback_bytes", s.ReadbackBytes)
	for _, b := range []Base{SR, RR, SW, RW} {
		n, ign := s.IOCount.Of(b), s.IOIgnore.Of(b)
		name := []string{"sr", "rr", "sw", "rw"}[b]
		if n <= 0 {
			bad("io_count."+name, "%d must be positive", n)
		}
		if ign < 0 || (n > 0 && ign >= n) {
			bad("io_ignore."+name, "%d is not in [0, io_count.%s)", ign, name)
		}
	}
	if s.NbRun <= 0 {
		bad("nb_run", "%d must be positive", s.NbRun)
	}
	if s.RunPause < 0 {
		bad("run_pause", "%v is negative", s.RunPause)
	}
	if s.Format > FormatSequential {
		bad("format", "%d is not one of none, random, sequential", s.Format)
	}
	if s.Settle > SettleFlush {
		bad("settle", "%d is not one of pause, flush", s.Settle)
	}
	for i, b := range s.Benches {
		if b == BenchNone || int(b) >= len(benchNames) {
			bad(fmt.Sprintf("benches[%d]", i), "%d is not a micro-benchmark", b)
		}
	}
	for i, v := range s.IOSizes {
		sectors(fmt.Sprintf("io_sizes[%d]", i), v)
	}
	for i, v := range s.IOShifts {
		if v < 0 || v%SectorSize != 0 || v > s.IOSize {
			bad(fmt.Sprintf("io_shifts[%d]", i), "%d is not a multiple of %d in [0, io_size]", v, SectorSize)
		}
	}
	positive := func(field string, vs []int64, limit int64) {
		for i, v := range vs {
			switch {
			case v <= 0:
				bad(fmt.Sprintf("%s[%d]", field, i), "%d must be positive", v)
			case limit > 0 && v > limit:
				bad(fmt.Sprintf("%s[%d]", field, i), "%d exceeds %d", v, limit)
			}
		}
	}
	positive("localities", s.Localities, 0)
	positive("partitions", s.Partitions, 256)
	positive("degrees", s.Degrees, 32)
	positive("bursts", s.Bursts, 0)
	for i, v := range s.Ratios {
		if v < 0 {
			bad(fmt.Sprintf("ratios[%d]", i), "%d is negative", v)
		}
	}
	for i, v := range s.Pauses {
		if v < 0 {
			bad(fmt.Sprintf("pauses[%d]", i), "%v is negative", v)
		}
	}
	if s.BurstPause < 0 {
		bad("burst_pause", "%v is negative", s.BurstPause)
	}
	errs = s.Auto.validate("uflip.auto.", errs)
	return errors.Join(errs...)
}
