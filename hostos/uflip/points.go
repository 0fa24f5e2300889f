package uflip

import (
	"math"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Point is one run point of a plan with its repetitions merged: the varied parameter's
// value and the latency statistics over every counted IO of every repetition.
type Point struct {
	Label  string
	Bench  Bench
	Base   Base    // first pattern's base
	Second *Base   // second base of a mix, nil otherwise
	Index  int     // Step.Point: index of the value in the spec's list
	X      float64 // the varied value in the unit of XLabel (bytes, count, µs)
	Run    Run     // the planned parameters
	Reps   int     // repetitions merged
	// Counted IOs over all repetitions and their latency statistics, ps: mean weighted by
	// count, smallest min, largest max, pooled population standard deviation.
	Counted      int64
	Mean, StdDev float64
	Min, Max     sim.Time
	Auto         *Outcome // the rule's choice, worst over repetitions (nil: fixed counts)
}

// merge accumulates repetitions into a Point: Σ n·mean and Σ n·(σ² + mean²).
type merge struct {
	pt         Point
	sum, sumSq float64
}

// XLabel names the varied parameter of micro-benchmark b and its unit, as X holds it.
func XLabel(b Bench) string {
	switch b {
	case BenchGranularity, BenchReadback:
		return "IO size (bytes)"
	case BenchAlignment:
		return "IO shift (bytes)"
	case BenchLocality:
		return "target size (bytes)"
	case BenchPartitioning:
		return "partitions"
	case BenchOrder:
		return "increment"
	case BenchParallelism:
		return "parallel degree"
	case BenchMix:
		return "ratio"
	case BenchPause:
		return "pause (µs)"
	case BenchBursts:
		return "IOs per burst"
	}
	return ""
}

// xOf returns the varied value of run r in micro-benchmark b.
func xOf(b Bench, r Run) float64 {
	switch b {
	case BenchGranularity, BenchReadback:
		return float64(r.IOSize)
	case BenchAlignment:
		return float64(r.IOShift)
	case BenchLocality:
		return float64(r.TargetSize)
	case BenchPartitioning:
		return float64(max(r.Partitions, 1))
	case BenchOrder:
		return float64(r.Incr)
	case BenchParallelism:
		return float64(r.degree())
	case BenchMix:
		return float64(r.Ratio)
	case BenchPause:
		return float64(r.Pause) / float64(sim.Microsecond)
	case BenchBursts:
		return float64(r.Burst)
	}
	return 0
}

// Points merges the repetitions of every run step of plan found in runs, in plan order.
// Steps without runs (not executed) are left out.
func Points(plan *Plan, runs []RunStats) []Point {
	byLabel := make(map[string][]RunStats, len(runs))
	for _, r := range runs {
		byLabel[r.Label] = append(byLabel[r.Label], r)
	}
	var out []Point
	for _, st := range plan.Steps {
		reps := byLabel[st.Label]
		if st.Kind != StepRun || len(reps) == 0 {
			continue
		}
		pt := Point{Label: st.Label, Bench: st.Bench, Base: st.Run.Base, Index: st.Point,
			X: xOf(st.Bench, st.Run), Run: st.Run}
		if st.Run.Second != nil {
			b := st.Run.Second.Base
			pt.Second = &b
		}
		m := merge{pt: pt}
		for _, r := range reps {
			m.add(r)
		}
		out = append(out, m.finish())
	}
	return out
}

// add merges one repetition (in the order the runs were given, which is deterministic).
func (m *merge) add(r RunStats) {
	pt := &m.pt
	if r.Counted > 0 {
		if pt.Counted == 0 {
			pt.Min, pt.Max = r.Min, r.Max
		}
		pt.Min, pt.Max = min(pt.Min, r.Min), max(pt.Max, r.Max)
		n := float64(r.Counted)
		m.sum += r.Mean * n
		m.sumSq += n * (r.StdDev*r.StdDev + r.Mean*r.Mean)
		pt.Counted += r.Counted
	}
	pt.Reps++
	if a := r.Auto; a != nil {
		if pt.Auto == nil {
			pt.Auto = &Outcome{Converged: true}
		}
		pt.Auto.IOIgnore = max(pt.Auto.IOIgnore, a.IOIgnore)
		pt.Auto.IOCount = max(pt.Auto.IOCount, a.IOCount)
		pt.Auto.Precision = max(pt.Auto.Precision, a.Precision)
		pt.Auto.Converged = pt.Auto.Converged && a.Converged
	}
}

// finish returns the merged point: the count-weighted mean and the pooled population
// standard deviation √(E[x²] − mean²).
func (m *merge) finish() Point {
	pt := m.pt
	if pt.Counted > 0 {
		n := float64(pt.Counted)
		pt.Mean = m.sum / n
		pt.StdDev = math.Sqrt(max(0, m.sumSq/n-pt.Mean*pt.Mean))
	}
	return pt
}
