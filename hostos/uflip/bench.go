package uflip

import "fmt"

// Bench names one of uFLIP's nine micro-benchmarks (docs/sources.md §12, "The nine micro-benchmarks").
type Bench uint8

// The micro-benchmarks, numbered as in docs/sources.md §12. BenchNone marks plan steps that are not
// part of a micro-benchmark (formats).
const (
	BenchNone         Bench = iota
	BenchGranularity        // IOSize varies; SR, RR, SW, RW
	BenchAlignment          // IOShift varies; SR, RR, SW, RW
	BenchLocality           // TargetSize varies; SR, RR, SW, RW
	BenchPartitioning       // Partitions varies; SR, SW
	BenchOrder              // Incr varies; SR, SW
	BenchParallelism        // ParallelDegree varies; SR, RR, SW, RW
	BenchMix                // Ratio varies over six base pairs
	BenchPause              // Pause varies; SR, RR, SW, RW
	BenchBursts             // Burst varies at a fixed pause; SR, RR, SW, RW
	// BenchReadback is not one of uFLIP's nine: the calibration plan's reads of data just
	// written (Run.Fill), served by a drive's write buffer without a flash read, at each
	// IO size; SR. They separate a drive's fixed cost per command and per byte (controller,
	// link) from its flash read time, which every other read also pays
	// (docs/calibrate.md). Not in AllBenches.
	BenchReadback
)

var benchNames = [...]string{"none", "granularity", "alignment", "locality", "partitioning",
	"order", "parallelism", "mix", "pause", "bursts", "readback"}

// AllBenches lists the nine micro-benchmarks in docs/sources.md §12's order.
var AllBenches = []Bench{BenchGranularity, BenchAlignment, BenchLocality, BenchPartitioning,
	BenchOrder, BenchParallelism, BenchMix, BenchPause, BenchBursts}

// MixPairs lists the base pairs of the Mix micro-benchmark (docs/sources.md §12); in each, the first
// base issues Ratio IOs per IO of the second.
var MixPairs = [][2]Base{{SR, RR}, {SR, RW}, {RR, RW}, {RR, SW}, {SW, RW}, {SR, SW}}

// String returns the benchmark's lower-case name, e.g. "granularity".
func (b Bench) String() string {
	if int(b) < len(benchNames) {
		return benchNames[b]
	}
	return fmt.Sprintf("bench(%d)", uint8(b))
}

// Bases returns the baseline patterns the benchmark runs (for BenchMix, the bases that
// appear in MixPairs).
func (b Bench) Bases() []Base {
	switch b {
	case BenchPartitioning, BenchOrder:
		return []Base{SR, SW}
	case BenchReadback:
		return []Base{SR}
	case BenchNone:
		return nil
	}
	return []Base{SR, RR, SW, RW}
}

// MarshalText implements encoding.TextMarshaler.
func (b Bench) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (b *Bench) UnmarshalText(t []byte) error {
	for i, n := range benchNames {
		if i > 0 && string(t) == n {
			*b = Bench(i)
			return nil
		}
	}
	return fmt.Errorf("micro-benchmark %q is not one of granularity, alignment, locality, "+
		"partitioning, order, parallelism, mix, pause, bursts, readback", t)
}
