package fio

import (
	"errors"
	"fmt"
	"math"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// DirStats are the statistics of one direction (read, write or flush) of a job.
type DirStats struct {
	IOs   int64
	Bytes int64
	Lat   sim.Histogram // latency in ps: exact min/max/mean, quantiles within 1 %
	SumSq float64       // sum of squared latencies in ns², for the standard deviation
}

// StddevNs returns the population standard deviation of the latencies in ns (0 without IOs).
func (d *DirStats) StddevNs() float64 {
	n := float64(d.Lat.Count())
	if n == 0 {
		return 0
	}
	mean := d.Lat.Mean() / 1e3
	v := d.SumSq/n - mean*mean
	if v < 0 { // rounding
		return 0
	}
	return math.Sqrt(v)
}

// LatRecord is one line of a per-I/O latency log: when the I/O completed (since the job's
// start), its latency, direction, size and offset.
type LatRecord struct {
	At     sim.Time
	Lat    sim.Time
	Op     uflip.Op
	Size   int64
	Offset int64
}

// JobResult is the outcome of one job, its NumJobs copies merged, counting only IOs
// submitted after ramp_time.
type JobResult struct {
	Name  string
	Read  DirStats
	Write DirStats
	Flush DirStats
	// MeasureStart is when counting began: Start + startdelay + ramp_time.
	MeasureStart sim.Time
	Start        sim.Time    // when the job started
	End          sim.Time    // last completion
	Log          []LatRecord // a copy's per-I/O records in completion order (WriteLatLog jobs)
	// Copies are the results of the job's NumJobs copies, in order (fio reports each copy
	// as a job unless group_reporting); the job's own fields merge them. Nil in a copy.
	Copies []JobResult
	// Err is the I/O error (uflip.ErrIO) that stopped the job, as fio stops a job at its
	// first one (continue_on_error=none): the IO and the device's account of it; empty if
	// none did. Errno is its errno (fio's JSON "error"), ErrAt when it came (since Start).
	// Merged results keep the first copy's.
	Err   string
	Errno int
	ErrAt sim.Time
}

// Dir returns the statistics of op.
func (r *JobResult) Dir(op uflip.Op) *DirStats {
	switch op {
	case uflip.OpRead:
		return &r.Read
	case uflip.OpWrite:
		return &r.Write
	}
	return &r.Flush
}

// Run runs jobs side by side on dev (fio runs a file's jobs concurrently), capacity bytes
// large, from process p, and returns one result per job when all have finished, its
// copies' results merged (and kept in Copies): Start, then Wait. The first device error
// stops the failing worker and is returned.
func Run(p *sim.Proc, dev uflip.Device, capacity int64, jobs []Job) ([]JobResult, error) {
	x, err := Start(p.Engine(), dev, capacity, jobs)
	if err != nil {
		return nil, err
	}
	x.Wait(p)
	return x.Results(), x.Err()
}

// Execution is a run of a file's jobs in progress (Start).
type Execution struct {
	copies   [][]JobResult // per job, its copies' results as the workers go
	left     int           // workers not finished
	inflight int           // IOs submitted and not completed
	done     sim.Signal
	firstErr error
}

// Start begins running jobs side by side on dev, capacity bytes large, on eng and returns
// at once. Each copy of a job has its own Generator and IODepth worker processes; a worker
// takes the next IO, submits it and waits for it, so up to IODepth IOs of a copy are
// outstanding. The jobs are checked first (a Generator each).
func Start(eng *sim.Engine, dev uflip.Device, capacity int64, jobs []Job) (*Execution, error) {
	type copyGen struct {
		job, copy int
		g         *Generator
	}
	var gens []copyGen
	for i, j := range jobs {
		for k := range int(j.NumJobs) {
			g, err := NewGenerator(j, capacity, k)
			if err != nil {
				return nil, err
			}
			gens = append(gens, copyGen{i, k, g})
		}
	}
	now := eng.Now()
	x := &Execution{copies: make([][]JobResult, len(jobs))}
	for i, j := range jobs {
		x.copies[i] = make([]JobResult, j.NumJobs)
		for k := range x.copies[i] {
			c := JobResult{Name: j.Name, Start: now, End: now, MeasureStart: now + j.StartDelay + j.RampTime}
			c.Read.Lat.Name = j.Name + "/read"
			c.Write.Lat.Name = j.Name + "/write"
			c.Flush.Lat.Name = j.Name + "/flush"
			x.copies[i][k] = c
		}
	}
	for c, cg := range gens {
		j := jobs[cg.job]
		r := &x.copies[cg.job][cg.copy]
		for w := range int(j.IODepth) {
			x.left++
			name := fmt.Sprintf("fio/%s/%d/w%d", j.Name, c, w)
			eng.Spawn(name, func(q *sim.Proc) {
				if j.StartDelay > 0 {
					q.Sleep(j.StartDelay)
				}
				if err := x.worker(q, dev, cg.g, r, j.WriteLatLog != ""); err != nil && x.firstErr == nil {
					x.firstErr = fmt.Errorf("%s: %w", name, err)
				}
				x.left--
				x.done.Notify()
			})
		}
	}
	return x, nil
}

// Wait blocks p until every worker has finished.
func (x *Execution) Wait(p *sim.Proc) {
	for x.left > 0 {
		p.Wait(&x.done)
	}
}

// Finished reports whether every worker has finished.
func (x *Execution) Finished() bool { return x.left == 0 }

// InFlight returns the IOs submitted and not completed: at a power cut that stopped the
// jobs (firmware.power_loss.cut_at), those that never completed.
func (x *Execution) InFlight() int { return x.inflight }

// Err returns the first device error, if any.
func (x *Execution) Err() error { return x.firstErr }

// Results returns one result per job, its copies' results merged (and kept in Copies), of
// the IOs completed so far: the jobs' results once Finished, or what they did before a
// power cut stopped them.
func (x *Execution) Results() []JobResult {
	res := make([]JobResult, len(x.copies))
	for i, copies := range x.copies {
		res[i] = MergeResults(copies)
		res[i].Copies = copies
	}
	return res
}

// describeIOError returns a device's I/O error in words and its errno: the block layer's
// account if it carries one (an error with an Errno method, which names the operation and
// sector), else the error itself and EIO.
func describeIOError(err error) (string, int) {
	var e interface {
		error
		Errno() int
	}
	if errors.As(err, &e) {
		return e.Error(), e.Errno()
	}
	return err.Error(), 5 // EIO
}

// worker issues IOs from g one at a time until the generator is done, or until an I/O
// error stops the job's copy (recorded in r; the copy's other workers stop at their next
// IO). Any other error is returned.
func (x *Execution) worker(q *sim.Proc, dev uflip.Device, g *Generator, r *JobResult, log bool) error {
	for {
		if r.Err != "" {
			return nil
		}
		io, ok := g.Next(q.Now())
		if !ok {
			return nil
		}
		submit := q.Now()
		x.inflight++
		lat, err := dev.Do(q, io.Op, io.Offset, io.Size)
		x.inflight--
		if err != nil && errors.Is(err, uflip.ErrIO) {
			if r.Err == "" {
				r.Err, r.Errno = describeIOError(err)
				r.ErrAt = q.Now() - r.Start
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s of %d B at %d: %w", io.Op, io.Size, io.Offset, err)
		}
		r.End = max(r.End, submit+lat)
		if submit >= g.RampEnd() {
			d := r.Dir(io.Op)
			d.IOs++
			d.Bytes += io.Size
			d.Lat.Record(int64(lat))
			ns := float64(lat) / 1e3
			d.SumSq += ns * ns
			if log {
				r.Log = append(r.Log, LatRecord{At: submit + lat - r.Start, Lat: lat, Op: io.Op, Size: io.Size, Offset: io.Offset})
			}
		}
	}
}
