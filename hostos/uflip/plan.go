package uflip

import (
	"fmt"
	"slices"
)

// StepKind says what a plan step does.
type StepKind uint8

// The kinds of plan step.
const (
	StepRun    StepKind = iota // measure one run point (NbRun repetitions)
	StepFormat                 // enforce the device state (write the whole device)
)

// Step is one entry of a Plan: a run point of a micro-benchmark, or a format.
type Step struct {
	Kind   StepKind
	Format FormatKind // StepFormat: how
	Bench  Bench      // StepRun: which micro-benchmark
	Point  int        // StepRun: index of the varied value in the spec's list
	Label  string     // unique, e.g. "granularity/SW/io_size=4096"
	Run    Run        // StepRun: the parameters
}

// Plan is an ordered list of steps for one device, built by NewPlan.
type Plan struct {
	Capacity int64 // usable bytes: the device capacity rounded down to Spec.Align
	Spec     PlanSpec
	Steps    []Step
}

// Runs returns the run steps of micro-benchmark b, in plan order.
func (p *Plan) Runs(b Bench) []Step {
	var out []Step
	for _, s := range p.Steps {
		if s.Kind == StepRun && s.Bench == b {
			out = append(out, s)
		}
	}
	return out
}

// Ordering groups (docs/sources.md §12, Methodology 3): read-only experiments first, then random
// writes over the whole device, then sequential writes on fresh focused areas, then mixes,
// partitioning/parallelism and order.
const (
	groupRead = iota
	groupRandomWrite
	groupSeqWrite
	groupMix
	groupPartPar
	groupOrder
)

// planned is a run point before fresh areas are assigned. fresh[i] is the byte size of the
// fresh area pattern i (0 first, 1 second) needs, or 0 when it keeps its target.
type planned struct {
	step  Step
	group int
	fresh [2]int64
}

// planner builds the run points of a plan for one capacity.
type planner struct {
	s   PlanSpec
	cap int64
	out []planned
}

// NewPlan builds the plan of spec for a device of capacity bytes: every selected
// micro-benchmark's run points, scaled to the device, in the methodology's order, with a
// format first and again whenever the fresh areas for sequential writes would run past the
// end of the device (docs/sources.md §12, Methodology 1 and 3). Points that do not fit the device
// (a target larger than it) are left out.
//
// Targets: reads and random writes use the whole device from offset 0 (cut into D slices for
// parallel runs); each sequential-write pattern gets a fresh area, aligned to Spec.Align,
// sized for its IOs (IOCount·IOSize·|Incr|, or the Locality target), that no earlier write
// run since the last format touched. The NbRun repetitions of a point share its area.
func NewPlan(spec PlanSpec, capacity int64) (*Plan, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	usable := capacity / spec.Align * spec.Align
	if usable <= 0 {
		return nil, fmt.Errorf("uflip: capacity %d is below one alignment unit (%d B)", capacity, spec.Align)
	}
	pl := &planner{s: spec, cap: usable}
	for _, b := range spec.Benches {
		pl.bench(b)
	}
	slices.SortStableFunc(pl.out, func(a, b planned) int { return a.group - b.group })

	plan := &Plan{Capacity: usable, Spec: spec}
	format := func() {
		if spec.Format != FormatNone {
			plan.Steps = append(plan.Steps, Step{Kind: StepFormat, Format: spec.Format,
				Label: "format/" + spec.Format.String()})
		}
	}
	format()
	var cursor int64
	for _, p := range pl.out {
		need := p.fresh[0] + p.fresh[1]
		if need > 0 && cursor+need > usable {
			format()
			cursor = 0
		}
		st := p.step
		if p.fresh[0] > 0 {
			st.Run.TargetOffset = cursor
			cursor += p.fresh[0]
		}
		if p.fresh[1] > 0 {
			sec := *st.Run.Second
			sec.TargetOffset = cursor
			st.Run.Second = &sec
			cursor += p.fresh[1]
		}
		if err := st.Run.Validate(); err != nil {
			return nil, fmt.Errorf("uflip: plan step %s: %w", st.Label, err) // planner bug
		}
		plan.Steps = append(plan.Steps, st)
	}
	return plan, nil
}

// roundUp rounds v up to a multiple of q.
func roundUp(v, q int64) int64 { return (v + q - 1) / q * q }

// target fills the target of pattern pt (IOSize, IOShift, Partitions already set) for a
// stream count d. footprint is the bytes its IOs cover. Reads and random writes get the whole
// device; sequential writes get a fresh area (returned size). ok is false when even one
// quantum does not fit the device.
func (pl *planner) target(pt *Pattern, d, footprint int64) (fresh int64, ok bool) {
	q := pt.IOSize * d * max(pt.Partitions, 1) // the target must split into these
	if pt.Base != SW {
		pt.TargetOffset = 0
		pt.TargetSize = (pl.cap - pt.IOShift) / q * q
		return 0, pt.TargetSize > 0
	}
	pt.TargetSize = roundUp(max(footprint, q), q)
	if room := (pl.cap - pt.IOShift) / q * q; pt.TargetSize > room {
		pt.TargetSize = room
	}
	return roundUp(pt.TargetSize+pt.IOShift, pl.s.Align), pt.TargetSize > 0
}

// run returns a plain run of base b with the spec's defaults.
func (pl *planner) run(b Base) Run {
	return Run{
		Pattern: Pattern{Base: b, IOSize: pl.s.IOSize, Incr: 1},
		IOCount: pl.s.IOCount.Of(b), IOIgnore: pl.s.IOIgnore.Of(b),
		ParallelDegree: 1, NbRun: pl.s.NbRun,
	}
}

// add plans run r of bench b (its first pattern's target still to be set) unless it does not
// fit the device. footprint is the byte span of one stream's IOs.
func (pl *planner) add(b Bench, point int, label string, r Run, footprint int64) {
	fresh, ok := pl.target(&r.Pattern, r.degree(), footprint)
	if !ok {
		return
	}
	pl.push(b, point, label, r, [2]int64{fresh, 0})
}

func (pl *planner) push(b Bench, point int, label string, r Run, fresh [2]int64) {
	g := groupRead
	write := r.Base.Op() == OpWrite || (r.Second != nil && r.Second.Base.Op() == OpWrite)
	switch {
	case !write:
	case b == BenchMix:
		g = groupMix
	case b == BenchPartitioning || b == BenchParallelism:
		g = groupPartPar
	case b == BenchOrder:
		g = groupOrder
	case r.Base == RW:
		g = groupRandomWrite
	default:
		g = groupSeqWrite
	}
	pl.out = append(pl.out, planned{
		step:  Step{Kind: StepRun, Bench: b, Point: point, Label: label, Run: r},
		group: g, fresh: fresh,
	})
}

// bench plans every run point of micro-benchmark b.
func (pl *planner) bench(b Bench) {
	s := pl.s
	if b == BenchMix {
		pl.mix()
		return
	}
	for _, base := range b.Bases() {
		name := fmt.Sprintf("%s/%s/", b, base)
		n := s.IOCount.Of(base)
		switch b {
		case BenchGranularity:
			for i, v := range s.IOSizes {
				r := pl.run(base)
				r.IOSize = v
				pl.add(b, i, fmt.Sprintf("%sio_size=%d", name, v), r, n*v)
			}
		case BenchAlignment:
			for i, v := range s.IOShifts {
				r := pl.run(base)
				r.IOShift = v
				pl.add(b, i, fmt.Sprintf("%sio_shift=%d", name, v), r, n*r.IOSize)
			}
		case BenchLocality:
			for i, v := range s.Localities {
				r := pl.run(base)
				r.TargetSize = v * r.IOSize
				if r.TargetSize > pl.cap {
					continue
				}
				var fresh int64
				if base == SW {
					fresh = roundUp(r.TargetSize, s.Align)
				}
				pl.push(b, i, fmt.Sprintf("%starget_size=%d", name, r.TargetSize), r, [2]int64{fresh, 0})
			}
		case BenchPartitioning:
			for i, v := range s.Partitions {
				r := pl.run(base)
				r.Partitions = v
				// Both bases get the footprint-sized target (reads at offset 0), so that a
				// partition holds IOCount/P IOs in both.
				pt := r.Pattern
				pt.Base = SW
				fresh, ok := pl.target(&pt, 1, n*r.IOSize)
				if !ok {
					continue
				}
				r.TargetSize = pt.TargetSize
				if base != SW {
					fresh = 0
				}
				pl.push(b, i, fmt.Sprintf("%spartitions=%d", name, v), r, [2]int64{fresh, 0})
			}
		case BenchOrder:
			for i, v := range s.Incrs {
				r := pl.run(base)
				r.Incr = v
				r.TargetSize = min(n*max(abs(v), 1)*r.IOSize, pl.cap/r.IOSize*r.IOSize)
				var fresh int64
				if base == SW {
					fresh = roundUp(r.TargetSize, s.Align)
				}
				pl.push(b, i, fmt.Sprintf("%sincr=%d", name, v), r, [2]int64{fresh, 0})
			}
		case BenchParallelism:
			for i, v := range s.Degrees {
				r := pl.run(base)
				r.ParallelDegree = v
				pl.add(b, i, fmt.Sprintf("%sparallel_degree=%d", name, v), r, v*n*r.IOSize)
			}
		case BenchPause:
			for i, v := range s.Pauses {
				r := pl.run(base)
				r.Pause = v
				pl.add(b, i, fmt.Sprintf("%spause=%v", name, v), r, n*r.IOSize)
			}
		case BenchBursts:
			for i, v := range s.Bursts {
				r := pl.run(base)
				r.Pause, r.Burst = s.BurstPause, v
				pl.add(b, i, fmt.Sprintf("%sburst=%d", name, v), r, n*r.IOSize)
			}
		}
	}
}

// mix plans the Mix micro-benchmark: each pair of MixPairs at each ratio. The run's IOCount
// and IOIgnore are the larger of the two bases' values; each pattern has its own target.
func (pl *planner) mix() {
	s := pl.s
	for _, pair := range MixPairs {
		for i, ratio := range s.Ratios {
			r := pl.run(pair[0])
			sec := pl.run(pair[1]).Pattern
			r.IOCount = max(s.IOCount.Of(pair[0]), s.IOCount.Of(pair[1]))
			r.IOIgnore = max(s.IOIgnore.Of(pair[0]), s.IOIgnore.Of(pair[1]))
			r.Ratio = ratio
			foot := r.IOCount * r.IOSize
			f1, ok1 := pl.target(&r.Pattern, 1, foot)
			f2, ok2 := pl.target(&sec, 1, foot)
			if !ok1 || !ok2 {
				continue
			}
			r.Second = &sec
			label := fmt.Sprintf("mix/%s-%s/ratio=%d", pair[0], pair[1], ratio)
			pl.push(BenchMix, i, label, r, [2]int64{f1, f2})
		}
	}
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
