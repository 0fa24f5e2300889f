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
	Format FormatKind // StepFormat: how; StepRun: how a repetition's Format is done
	Bench  Bench      // StepRun: which micro-benchmark
	Point  int        // StepRun: index of the varied value in the spec's list
	Label  string     // unique, e.g. "granularity/SW/io_size=4096"
	Run    Run        // StepRun: the parameters, with repetition 0's targets
	// Reps, when set, holds each repetition's own target space (len Run.NbRun); nil: every
	// repetition runs on Run's targets (a step built by hand).
	Reps []Rep
}

// Rep is where one repetition of a run step runs: the TargetOffset of its first and
// second pattern, and whether the device state is enforced (a format) before it, which
// happens when the repetition's fresh sequential-write area would run past the device.
type Rep struct {
	Offset [2]int64
	Format bool
}

// RepRun returns the run of repetition rep: Run with that repetition's target offsets.
func (s Step) RepRun(rep int) Run {
	r := s.Run
	if rep >= len(s.Reps) {
		return r
	}
	r.TargetOffset = s.Reps[rep].Offset[0]
	if r.Second != nil {
		sec := *r.Second
		sec.TargetOffset = s.Reps[rep].Offset[1]
		r.Second = &sec
	}
	return r
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
	groupRead     = iota
	groupReadback // reads of a target written just before (Run.Fill): after the read-only ones
	groupRandomWrite
	groupSeqWrite
	groupMix
	groupPartPar
	groupOrder
)

// area is the target space one pattern needs of its own for each repetition: bytes
// (aligned), and fresh when it must be untouched since the last format (a sequential write:
// docs/sources.md §12, Methodology 1 and 3). A pattern over the whole device needs none (bytes 0).
type area struct {
	bytes int64
	fresh bool
}

// planned is a run point before its areas are placed: areas[i] is what pattern i (0 first,
// 1 second) needs.
type planned struct {
	step  Step
	group int
	areas [2]area
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
// Targets: random reads and writes over the whole device use it from offset 0 (cut into D
// slices for parallel runs). Every other pattern runs on a target space of its own, and so
// does each of its NbRun repetitions (Step.Reps), so a repetition never rewrites or rereads
// the addresses of the one before (a sequential write that did would find its pages still in
// the write buffer):
//   - a sequential write gets a fresh area, aligned to Spec.Align and sized for its IOs
//     (IOCount·IOSize·|Incr|, or the Locality target), that no earlier write run since the
//     last format touched; the areas of consecutive experiments are laid out one after
//     another, and when the next one would run past the device the plan formats again and
//     starts over at offset 0 (uFLIP's grouping of sequential-write experiments on
//     non-overlapping target spaces, with a reset once they exceed the device);
//   - a sequential read, or random IOs confined to a Locality area, gets an area of its size
//     laid out the same way in a second sequence that wraps to offset 0 without a format
//     (reads and random writes need no untouched space).
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
	var fresh, other int64 // next offset of the fresh-area and the other-area sequences
	for _, p := range pl.out {
		st := p.step
		pats := st.Run.patterns()
		st.Format = spec.Format
		st.Reps = make([]Rep, st.Run.NbRun)
		for rep := range st.Reps {
			need := int64(0)
			for _, a := range p.areas[:len(pats)] {
				if a.fresh {
					need += a.bytes
				}
			}
			if need > 0 && fresh+need > usable {
				if rep == 0 {
					format()
				} else {
					st.Reps[rep].Format = spec.Format != FormatNone
				}
				fresh = 0
			}
			for i, a := range p.areas[:len(pats)] {
				switch {
				case a.bytes == 0:
					st.Reps[rep].Offset[i] = pats[i].TargetOffset
				case a.fresh:
					st.Reps[rep].Offset[i] = fresh
					fresh += a.bytes
				default:
					if other+a.bytes > usable {
						other = 0
					}
					st.Reps[rep].Offset[i] = other
					other += a.bytes
				}
			}
			r := st.RepRun(rep)
			if err := r.Validate(); err != nil {
				return nil, fmt.Errorf("uflip: plan step %s rep %d: %w", st.Label, rep, err) // planner bug
			}
			if r.End() > usable {
				return nil, fmt.Errorf("uflip: plan step %s rep %d ends at %d, past the %d-byte device", st.Label, rep, r.End(), usable) // planner bug
			}
		}
		st.Run = st.RepRun(0)
		plan.Steps = append(plan.Steps, st)
	}
	return plan, nil
}

// roundUp rounds v up to a multiple of q.
func roundUp(v, q int64) int64 { return (v + q - 1) / q * q }

// target fills the target of pattern pt (IOSize, IOShift, Partitions already set) for a
// stream count d. footprint is the bytes its IOs cover. Random patterns get the whole
// device; sequential ones a target sized for their IOs, whose area (own space per
// repetition) is returned. ok is false when even one quantum does not fit the device.
func (pl *planner) target(pt *Pattern, d, footprint int64) (a area, ok bool) {
	q := pt.IOSize * d * max(pt.Partitions, 1) // the target must split into these
	if pt.Base.Random() {
		pt.TargetOffset = 0
		pt.TargetSize = (pl.cap - pt.IOShift) / q * q
		return area{}, pt.TargetSize > 0
	}
	pt.TargetSize = roundUp(max(footprint, q), q)
	if room := (pl.cap - pt.IOShift) / q * q; pt.TargetSize > room {
		pt.TargetSize = room
	}
	return pl.areaOf(*pt), pt.TargetSize > 0
}

// areaOf returns the area pattern pt (its target set) needs of its own per repetition: its
// target and shift rounded up to the alignment, fresh for a sequential write; none for
// other patterns that cover the whole device (they run from offset 0).
func (pl *planner) areaOf(pt Pattern) area {
	b := roundUp(pt.TargetSize+pt.IOShift, pl.s.Align)
	if pt.Base != SW && b >= pl.cap {
		return area{}
	}
	return area{bytes: b, fresh: pt.Base == SW}
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
	a, ok := pl.target(&r.Pattern, r.degree(), footprint)
	if !ok {
		return
	}
	pl.push(b, point, label, r, [2]area{a})
}

// push queues run r of bench b in its ordering group, with the areas its patterns need.
func (pl *planner) push(b Bench, point int, label string, r Run, areas [2]area) {
	g := groupRead
	write := r.Base.Op() == OpWrite || (r.Second != nil && r.Second.Base.Op() == OpWrite)
	switch {
	case r.Fill:
		g = groupReadback
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
		group: g, areas: areas,
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
				pl.push(b, i, fmt.Sprintf("%starget_size=%d", name, r.TargetSize), r, [2]area{pl.areaOf(r.Pattern)})
			}
		case BenchPartitioning:
			for i, v := range s.Partitions {
				r := pl.run(base)
				r.Partitions = v
				// Both bases get the footprint-sized target, so that a partition holds
				// IOCount/P IOs in both.
				a, ok := pl.target(&r.Pattern, 1, n*r.IOSize)
				if !ok {
					continue
				}
				pl.push(b, i, fmt.Sprintf("%spartitions=%d", name, v), r, [2]area{a})
			}
		case BenchOrder:
			for i, v := range s.Incrs {
				r := pl.run(base)
				r.Incr = v
				r.TargetSize = min(n*max(abs(v), 1)*r.IOSize, pl.cap/r.IOSize*r.IOSize)
				pl.push(b, i, fmt.Sprintf("%sincr=%d", name, v), r, [2]area{pl.areaOf(r.Pattern)})
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
		case BenchReadback:
			// A target of ReadbackBytes (at least one IO), written before each repetition
			// and read over and over (a sequential pattern wraps within its target).
			for i, v := range s.IOSizes {
				r := pl.run(base)
				r.IOSize, r.Fill = v, true
				r.TargetSize = roundUp(max(s.ReadbackBytes, v), v)
				if r.TargetSize > pl.cap {
					continue
				}
				pl.push(b, i, fmt.Sprintf("%sio_size=%d", name, v), r, [2]area{pl.areaOf(r.Pattern)})
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
			a1, ok1 := pl.target(&r.Pattern, 1, foot)
			a2, ok2 := pl.target(&sec, 1, foot)
			if !ok1 || !ok2 {
				continue
			}
			r.Second = &sec
			label := fmt.Sprintf("mix/%s-%s/ratio=%d", pair[0], pair[1], ratio)
			pl.push(BenchMix, i, label, r, [2]area{a1, a2})
		}
	}
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
