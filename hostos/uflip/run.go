package uflip

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Run is the parameter set of one uFLIP run (one point of an experiment). The embedded
// Pattern is the first (or only) pattern; Second, when set, is mixed in at Ratio.
//
// Counting: IOCount and IOIgnore count IOs of one stream. With ParallelDegree D > 1 the
// run has D streams, stream k working on the k-th of D equal slices of each pattern's
// target, each issuing IOCount IOs and leaving its first IOIgnore out of the statistics.
//
// Timing: with Pause > 0 a stream sleeps Pause after every IO, or, when Burst > 1, after
// every Burst IOs (the last IO included). The run is repeated NbRun times.
//
// Fill: before each repetition the first pattern's target is written, unmeasured and
// unrecorded, in IOSize IOs from TargetOffset+IOShift (every IO a sequential or random read
// of the target can issue), so that the run reads data just written: on a drive with a
// write buffer, reads that no flash read serves (BenchReadback).
type Run struct {
	Pattern        `yaml:",inline"`
	Second         *Pattern `yaml:"second"` // second base of a mix; nil for a plain run
	Ratio          int64    `yaml:"ratio"`  // r IOs of Pattern per IO of Second
	IOCount        int64    `yaml:"io_count"`
	IOIgnore       int64    `yaml:"io_ignore"`
	ParallelDegree int64    `yaml:"parallel_degree"` // D synchronous streams; 0 means 1
	Pause          sim.Time `yaml:"pause"`           // idle time after every IO (or burst)
	Burst          int64    `yaml:"burst"`           // IOs per burst; 0 or 1: pause after every IO
	NbRun          int64    `yaml:"nb_run"`          // repetitions
	Fill           bool     `yaml:"fill"`            // write the target before each repetition (a read run)
}

// Validate reports every problem with the run, each naming its field (the second pattern's
// fields as "second.io_size" and so on).
func (r Run) Validate() error {
	errs := r.Pattern.validate("", nil)
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: "+format, append([]any{field}, args...)...))
	}
	if r.Second != nil {
		errs = r.Second.validate("second.", errs)
	}
	switch {
	case r.Ratio < 0:
		bad("ratio", "%d is negative", r.Ratio)
	case r.Ratio > 0 && r.Second == nil:
		bad("ratio", "%d is set but there is no second pattern", r.Ratio)
	}
	if r.IOCount <= 0 {
		bad("io_count", "%d must be positive", r.IOCount)
	}
	if r.IOIgnore < 0 || (r.IOCount > 0 && r.IOIgnore >= r.IOCount) {
		bad("io_ignore", "%d is not in [0, io_count)", r.IOIgnore)
	}
	if r.ParallelDegree < 0 {
		bad("parallel_degree", "%d is negative", r.ParallelDegree)
	} else if d := r.degree(); d > 1 {
		for _, pt := range r.patterns() {
			if pt.IOSize > 0 && pt.TargetSize%(d*pt.IOSize) != 0 {
				bad("parallel_degree", "%d streams do not split target_size %d into io_size %d multiples",
					d, pt.TargetSize, pt.IOSize)
			} else if pt.Partitions > 1 && pt.IOSize > 0 && pt.TargetSize%(d*pt.Partitions*pt.IOSize) != 0 {
				bad("parallel_degree", "%d streams × %d partitions do not split target_size %d",
					d, pt.Partitions, pt.TargetSize)
			}
		}
	}
	if r.Pause < 0 {
		bad("pause", "%v is negative", r.Pause)
	}
	if r.Burst < 0 {
		bad("burst", "%d is negative", r.Burst)
	}
	if r.NbRun <= 0 {
		bad("nb_run", "%d must be positive", r.NbRun)
	}
	if r.Fill && (r.Base.Op() != OpRead || r.Second != nil) {
		bad("fill", "applies only to a plain read run (SR or RR, no second pattern)")
	}
	return errors.Join(errs...)
}

// degree returns the number of streams, at least 1.
func (r Run) degree() int64 { return max(r.ParallelDegree, 1) }

// patterns returns the run's one or two patterns.
func (r Run) patterns() []Pattern {
	if r.Second != nil {
		return []Pattern{r.Pattern, *r.Second}
	}
	return []Pattern{r.Pattern}
}

// End returns the first byte past everything the run can touch: the largest
// TargetOffset + TargetSize + IOShift of its patterns (a shifted IO may run IOShift past its
// target, as in docs/sources.md §12's formulas).
func (r Run) End() int64 {
	var end int64
	for _, p := range r.patterns() {
		end = max(end, p.TargetOffset+p.TargetSize+p.IOShift)
	}
	return end
}

// slice returns pattern p restricted to stream k of d: the k-th of d equal slices of its
// target.
func slice(p Pattern, k, d int64) Pattern {
	if d <= 1 {
		return p
	}
	p.TargetSize /= d
	p.TargetOffset += k * p.TargetSize
	return p
}

// NewRunStream returns the IO stream of stream k of run r (0 ≤ k < ParallelDegree), with
// random LBAs drawn from sim.NewRNG(seed, name+"/p1") and name+"/p2" for the two patterns,
// so equal names and seeds give equal sequences. r must be valid.
func NewRunStream(r Run, k int64, seed uint64, name string) *Stream {
	d := r.degree()
	first := NewGen(slice(r.Pattern, k, d), sim.NewRNG(seed, name+"/p1"))
	var second *Gen
	if r.Second != nil {
		second = NewGen(slice(*r.Second, k, d), sim.NewRNG(seed, name+"/p2"))
	}
	return NewStream(first, second, r.Ratio)
}
