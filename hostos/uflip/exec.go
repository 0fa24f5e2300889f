package uflip

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// IORecord is the per-IO output of a run (docs/sources.md §12, Methodology 4): which pattern, which
// operation, where, when and how long.
type IORecord struct {
	Label   string   // the step's label
	Bench   Bench    // micro-benchmark
	Rep     int      // repetition, 0 … NbRun−1
	Stream  int      // stream, 0 … ParallelDegree−1
	Seq     int64    // IO index within the stream
	Pattern int      // 1 or 2 (mix)
	Base    Base     // base of the pattern
	Op      Op       // read or write
	LBA     int64    // first sector
	Sectors int64    // size in sectors
	Submit  sim.Time // simulated submission time
	Latency sim.Time // response time reported by the device
	Ignored bool     // within the stream's first IOIgnore IOs
}

// RunStats is the per-run output: latency statistics over the IOs after IOIgnore.
type RunStats struct {
	Label   string
	Bench   Bench
	Point   int
	Rep     int
	Start   sim.Time // first submission
	End     sim.Time // last completion
	IOs     int64    // IOs issued
	Counted int64    // IOs in the statistics
	Mean    float64  // mean latency, ps
	Min     sim.Time
	Max     sim.Time
	StdDev  float64 // population standard deviation of latency, ps
	// Auto is what the automatic IOIgnore/IOCount rule chose (nil with fixed counts).
	Auto *Outcome `json:",omitempty"`
}

// Result collects the outputs of an executor.
type Result struct {
	Runs []RunStats
	IOs  []IORecord // empty when the executor has an IOSink
	// Steps counts the plan steps RunPlan has completed: when a power cut stops the plan
	// (firmware.power_loss.cut_at), Steps is the index of the step it stopped in.
	Steps int
}

// Executor runs uFLIP steps against a Device as simulated processes. Each stream issues its
// IOs synchronously (one outstanding IO); a parallel run spawns one process per stream and
// waits for all of them. Pauses are sleeps in simulated time (and real time too when the
// device is an Idler).
type Executor struct {
	Dev      Device
	Seed     uint64         // root seed of the random streams
	RunPause sim.Time       // idle time before every run or format but the first
	Settle   Settle         // between runs: pause, or flush what the last run wrote and pause
	IOSink   func(IORecord) // when set, receives each IO record instead of Result.IOs
	// Auto, when on, chooses each stream's IOIgnore and IOCount (converge.go): a run's
	// IOCount is then the cap and its IOIgnore is not used. RunPlan sets it from the plan.
	Auto    Converge
	started bool            // a run has been executed, so the next one pauses first
	wrote   bool            // a write completed since the last flush (SettleFlush)
	recs    [][]IORecord    // per-stream records held back until IOIgnore is known (Auto)
	scratch [][]sim.Time    // per-stream latency buffers, reused across runs
	streams []streamOutcome // per-stream results of the current repetition
}

type streamOutcome struct {
	err    error
	first  sim.Time
	last   sim.Time
	issued int64
	ignore int64   // Auto: IOIgnore chosen
	prec   float64 // Auto: achieved precision
}

// RunPlan executes every step of plan in order, pausing plan.Spec.RunPause between runs,
// and appends the outputs to res.
func (x *Executor) RunPlan(p *sim.Proc, plan *Plan, res *Result) error {
	x.RunPause = plan.Spec.RunPause
	x.Settle = plan.Spec.Settle
	x.Auto = plan.Spec.Auto
	for _, st := range plan.Steps {
		if err := x.Step(p, plan.Capacity, st, res); err != nil {
			return err
		}
		res.Steps++
	}
	return nil
}

// Step executes one plan step: a format of capacity bytes, or the NbRun repetitions of a
// run, each on its own targets (Step.Reps) and after a format when the plan asks for one.
func (x *Executor) Step(p *sim.Proc, capacity int64, st Step, res *Result) error {
	if st.Kind == StepFormat {
		return x.Format(p, st.Format, capacity, res)
	}
	if err := st.Run.Validate(); err != nil {
		return fmt.Errorf("uflip: run %s: %w", st.Label, err)
	}
	for rep := range int(st.Run.NbRun) {
		if rep < len(st.Reps) && st.Reps[rep].Format {
			if err := x.Format(p, st.Format, capacity, res); err != nil {
				return err
			}
		}
		if err := x.between(p); err != nil {
			return err
		}
		if err := x.rep(p, st.Label, st.Bench, st.Point, st.RepRun(rep), rep, res); err != nil {
			return err
		}
	}
	return nil
}

// idle sleeps d in simulated time, and in real time on an Idler device.
func (x *Executor) idle(p *sim.Proc, d sim.Time) {
	if d <= 0 {
		return
	}
	if id, ok := x.Dev.(Idler); ok {
		id.Idle(d)
	}
	p.Sleep(d)
}

// between settles the device unless nothing has run yet: with SettleFlush it first
// flushes what the last run wrote; then it pauses RunPause.
func (x *Executor) between(p *sim.Proc) error {
	if x.started {
		if x.Settle == SettleFlush && x.wrote {
			if _, err := x.Dev.Do(p, OpFlush, 0, 0); err != nil {
				return fmt.Errorf("uflip: flush between runs: %w", err)
			}
			x.wrote = false
		}
		x.idle(p, x.RunPause)
	}
	x.started = true
	return nil
}

// Format writes the whole device per kind (no per-IO records), then flushes the device's
// write cache, and appends one RunStats labelled "format/KIND" over its write IOs (End is
// after the flush). The flush stands for the write-through of uFLIP's IOs: the state the
// plan measures from is the one on the flash, not a write buffer full of format pages whose
// eviction the next run would pay for (on a drive whose buffer is durable, a Flush is
// immediate and the buffer keeps them, as that drive would).
func (x *Executor) Format(p *sim.Proc, kind FormatKind, capacity int64, res *Result) error {
	if kind == FormatNone {
		return nil
	}
	if err := x.between(p); err != nil {
		return err
	}
	f := NewFormat(kind, capacity, x.Seed)
	lats := x.buffer(0, f.Len())
	st := RunStats{Label: "format/" + kind.String(), Start: p.Now()}
	for {
		io, ok := f.Next()
		if !ok {
			break
		}
		lat, err := x.Dev.Do(p, io.Op, io.Offset(), io.Size())
		if err != nil {
			return fmt.Errorf("uflip: %s IO %d (write at %d, %d B): %w", st.Label, st.IOs, io.Offset(), io.Size(), err)
		}
		lats = append(lats, lat)
		st.IOs++
	}
	x.scratch[0] = lats
	if _, err := x.Dev.Do(p, OpFlush, 0, 0); err != nil {
		return fmt.Errorf("uflip: %s: flush after %d IOs: %w", st.Label, st.IOs, err)
	}
	x.wrote = false
	st.End = p.Now()
	st.fill(lats)
	res.Runs = append(res.Runs, st)
	return nil
}

// Run executes the NbRun repetitions of run r and appends their per-run statistics and
// per-IO records to res. r is validated first.
func (x *Executor) Run(p *sim.Proc, label string, b Bench, point int, r Run, res *Result) error {
	if err := r.Validate(); err != nil {
		return fmt.Errorf("uflip: run %s: %w", label, err)
	}
	for rep := range int(r.NbRun) {
		if err := x.between(p); err != nil {
			return err
		}
		if err := x.rep(p, label, b, point, r, rep, res); err != nil {
			return err
		}
	}
	return nil
}

// RunRep executes repetition rep of run r alone (settling first, as between any two runs),
// with that repetition's random streams ("uflip/LABEL/repREP/sK"), and appends its
// statistics and records to res: what a plan's repetition did, replayed on its own.
func (x *Executor) RunRep(p *sim.Proc, label string, b Bench, point int, r Run, rep int, res *Result) error {
	if err := r.Validate(); err != nil {
		return fmt.Errorf("uflip: run %s: %w", label, err)
	}
	if err := x.between(p); err != nil {
		return err
	}
	return x.rep(p, label, b, point, r, rep, res)
}

// buffer returns stream k's reusable latency buffer, emptied, with room for n.
func (x *Executor) buffer(k int, n int64) []sim.Time {
	for len(x.scratch) <= k {
		x.scratch = append(x.scratch, nil)
	}
	if int64(cap(x.scratch[k])) < n {
		x.scratch[k] = make([]sim.Time, 0, n)
	}
	return x.scratch[k][:0]
}

// rep executes one repetition: the run's Fill, then D streams, then the statistics over
// all of them.
func (x *Executor) rep(p *sim.Proc, label string, b Bench, point int, r Run, rep int, res *Result) error {
	if r.Fill {
		if err := x.fill(p, label, rep, r.Pattern); err != nil {
			return err
		}
	}
	d := int(r.degree())
	x.streams = append(x.streams[:0], make([]streamOutcome, d)...)
	for k := range d {
		n := r.IOCount - r.IOIgnore
		if x.Auto.On() {
			n = r.IOCount // every IO is kept until the rule has chosen IOIgnore
		}
		x.scratch[k] = x.buffer(k, n)
	}
	if d == 1 {
		x.stream(p, label, b, r, rep, 0, res)
	} else {
		var done sim.Signal
		left := d
		for k := range d {
			p.Engine().Spawn(fmt.Sprintf("uflip/%s/rep%d/s%d", label, rep, k), func(q *sim.Proc) {
				x.stream(q, label, b, r, rep, k, res)
				left--
				done.Notify()
			})
		}
		for left > 0 {
			p.Wait(&done)
		}
	}
	st := RunStats{Label: label, Bench: b, Point: point, Rep: rep, Start: sim.MaxTime}
	if x.Auto.On() {
		st.Auto = &Outcome{Converged: true}
	}
	var all []sim.Time
	for k, o := range x.streams {
		if o.err != nil {
			return o.err
		}
		if a := st.Auto; a != nil {
			a.IOIgnore = max(a.IOIgnore, o.ignore)
			a.IOCount = max(a.IOCount, o.issued)
			a.Precision = max(a.Precision, o.prec)
			a.Converged = a.Converged && o.prec <= x.Auto.RelErr
		}
		st.IOs += o.issued
		st.Start = min(st.Start, o.first)
		st.End = max(st.End, o.last)
		if d == 1 {
			all = x.scratch[0]
		} else {
			all = append(all, x.scratch[k]...)
		}
	}
	st.fill(all)
	res.Runs = append(res.Runs, st)
	return nil
}

// fill writes pattern pt's target (Run.Fill): IOSize IOs from TargetOffset+IOShift, in
// order, synchronously, neither measured nor recorded. The writes count for the settle's
// flush after the run.
func (x *Executor) fill(p *sim.Proc, label string, rep int, pt Pattern) error {
	start := pt.TargetOffset + pt.IOShift
	for off := start; off < start+pt.TargetSize; off += pt.IOSize {
		if _, err := x.Dev.Do(p, OpWrite, off, pt.IOSize); err != nil {
			return fmt.Errorf("uflip: run %s rep %d: filling its target (write at %d, %d B): %w", label, rep, off, pt.IOSize, err)
		}
		x.wrote = true
	}
	return nil
}

// stream issues the IOs of stream k of one repetition, synchronously.
func (x *Executor) stream(p *sim.Proc, label string, b Bench, r Run, rep, k int, res *Result) {
	o := &x.streams[k]
	s := NewRunStream(r, int64(k), x.Seed, fmt.Sprintf("uflip/%s/rep%d/s%d", label, rep, k))
	lats := x.scratch[k]
	auto := x.Auto.On()
	check := x.Auto.Min
	if auto {
		for len(x.recs) <= k {
			x.recs = append(x.recs, nil)
		}
		x.recs[k] = x.recs[k][:0]
	}
	o.first = p.Now()
	// The minimum run length (Converge.MinBytes) counts the bytes a stream writes; a
	// read-only run has none, since a backlog there is in time, which the pause between
	// runs is for.
	var written, minBytes int64
	for _, pt := range r.patterns() {
		if pt.Base.Op() == OpWrite {
			minBytes = x.Auto.MinBytes
		}
	}
	for i := range r.IOCount {
		io := s.Next()
		submit := p.Now()
		lat, err := x.Dev.Do(p, io.Op, io.Offset(), io.Size())
		o.issued++
		if err != nil {
			o.err = fmt.Errorf("uflip: run %s rep %d stream %d IO %d (%s at %d, %d B): %w",
				label, rep, k, i, io.Op, io.Offset(), io.Size(), err)
			return
		}
		o.last = submit + lat
		if io.Op == OpWrite {
			written += io.Size()
			x.wrote = true
		}
		ignored := !auto && i < r.IOIgnore
		if !ignored {
			lats = append(lats, lat)
		}
		rec := IORecord{Label: label, Bench: b, Rep: rep, Stream: k, Seq: i, Pattern: io.Pattern,
			Base: io.Base, Op: io.Op, LBA: io.LBA, Sectors: io.Sectors, Submit: submit,
			Latency: lat, Ignored: ignored}
		if auto {
			x.recs[k] = append(x.recs[k], rec)
		} else {
			x.emit(rec, res)
		}
		if r.Pause > 0 && (r.Burst <= 1 || (i+1)%r.Burst == 0) {
			x.idle(p, r.Pause)
		}
		if auto && i+1 == check && i+1 < r.IOCount {
			if written >= minBytes {
				if ig, prec := Precision(lats); prec <= x.Auto.RelErr && !atBound(ig, int64(len(lats))) {
					break
				}
			}
			check = x.Auto.next(check)
		}
	}
	if auto {
		// The last check's choice (or, at the cap, the choice over every IO issued).
		o.ignore, o.prec = Precision(lats)
		for i := range x.recs[k] {
			x.recs[k][i].Ignored = x.recs[k][i].Seq < o.ignore
			x.emit(x.recs[k][i], res)
		}
		lats = append(lats[:0], lats[o.ignore:]...) // keeps the buffer's capacity for reuse
	}
	x.scratch[k] = lats
}

// emit hands one IO record to the sink or to res.
func (x *Executor) emit(rec IORecord, res *Result) {
	if x.IOSink != nil {
		x.IOSink(rec)
	} else {
		res.IOs = append(res.IOs, rec)
	}
}
