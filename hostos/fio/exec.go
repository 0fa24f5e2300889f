package fio

import (
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Target is a device or file a job copy does I/O on. Do performs one I/O for process p and
// returns its latency, the time p spent in the call.
type Target interface {
	Do(p *sim.Proc, op uflip.Op, offset, size int64) (sim.Time, error)
}

// DataTarget is a Target whose I/O carries data versions, one 64-bit word per 4 KiB page
// that starts inside the range (nvmedrv.Stamper's convention): the namespace opened
// O_DIRECT. verify checks them.
type DataTarget interface {
	Target
	DoData(p *sim.Proc, op uflip.Op, offset, size int64, stamps []uint64) (sim.Time, error)
}

// TargetSpec is what a job copy opens.
type TargetSpec struct {
	Name   string // "/dev/..." for the namespace, else a file of the simulated file system
	Size   int64  // a file's size (0: the existing file's size)
	Direct bool   // O_DIRECT
	Sync   bool   // O_SYNC (fio's sync option)
	Layout bool   // write a new file in full before returning (fio lays out files it reads)
	Mmap   bool   // the mmap engine
	Advice Advice // posix_fadvise read-ahead advice for buffered reads (fio's fadvise_hint)
	Verify bool   // the job verifies: direct I/O must carry data versions (DataTarget)
}

// Advice is posix_fadvise(2) read-ahead advice.
type Advice uint8

// The advice fio gives (fio HOWTO, fadvise_hint: by default "FADV_RANDOM for a random
// workload, and FADV_SEQUENTIAL for a sequential workload").
const (
	AdviceNone Advice = iota
	AdviceRandom
	AdviceSequential
)

// advice returns the read-ahead advice fio gives the job's files.
func (j Job) advice() Advice {
	switch j.Fadvise {
	case "0":
		return AdviceNone
	case "random":
		return AdviceRandom
	case "sequential":
		return AdviceSequential
	}
	if j.RW.Random() {
		return AdviceRandom
	}
	return AdviceSequential
}

// Machine is the simulated host as a fio run sees it: it opens files and the namespace.
type Machine interface {
	// Open returns the target spec names for process p, creating the file the first time
	// (and laying it out if asked) and dropping its clean cached pages (fio's invalidate).
	Open(p *sim.Proc, spec TargetSpec) (Target, int64, error)
	// Capacity is the namespace's size in bytes and BlockSize its logical block size.
	Capacity() int64
	BlockSize() int64
	// FreeBytes is the free space of the simulated file system.
	FreeBytes() int64
	// Unlink removes a file.
	Unlink(p *sim.Proc, name string) error
	// DataMismatches counts the pages the page cache read back with other data than last
	// written (its data check), with the first described; 0 when the check is off.
	DataMismatches() (int64, string)
}

// deviceMachine is a Machine of one device: every job works on dev at its own offsets.
type deviceMachine struct {
	dev      uflip.Device
	capacity int64
}

func (m deviceMachine) Open(_ *sim.Proc, _ TargetSpec) (Target, int64, error) {
	return m.dev, m.capacity, nil
}
func (m deviceMachine) Capacity() int64                 { return m.capacity }
func (m deviceMachine) BlockSize() int64                { return 512 }
func (m deviceMachine) FreeBytes() int64                { return m.capacity }
func (m deviceMachine) Unlink(*sim.Proc, string) error  { return nil }
func (m deviceMachine) DataMismatches() (int64, string) { return 0, "" }

// Run runs jobs on dev (fio runs a file's jobs concurrently unless stonewall or wait_for
// orders them), capacity bytes large, from process p, and returns one result per job when
// all have finished, its copies' results merged (and kept in Copies). Every job addresses
// dev directly at its own offsets. The first device error stops the run and is returned.
func Run(p *sim.Proc, dev uflip.Device, capacity int64, jobs []Job) ([]JobResult, error) {
	return RunOn(p, deviceMachine{dev, capacity}, jobs, true)
}

// CapRuntime limits every job's runtime to limit, as fio's --runtime command-line option
// does: a job with a longer runtime or none stops after limit (after its ramp).
func CapRuntime(jobs []Job, limit sim.Time) {
	for i := range jobs {
		if jobs[i].Runtime == 0 || jobs[i].Runtime > limit {
			jobs[i].Runtime = limit
		}
	}
}

// RunMachine runs jobs on the simulated machine m: each job on the files and namespace it
// names, as fio lays them out.
func RunMachine(p *sim.Proc, m Machine, jobs []Job) ([]JobResult, error) {
	return RunOn(p, m, jobs, false)
}

// RunOn runs jobs on m; with oneDevice every job addresses the one target at device offsets.
func RunOn(p *sim.Proc, m Machine, jobs []Job, oneDevice bool) ([]JobResult, error) {
	for _, j := range jobs {
		if err := j.Validate(); err != nil {
			return nil, fmt.Errorf("job %s: %w", j.Name, err)
		}
	}
	r := &runner{m: m, jobs: jobs, oneDevice: oneDevice, eng: p.Engine()}
	return r.run(p)
}

// runner runs one file's jobs.
type runner struct {
	m         Machine
	jobs      []Job
	oneDevice bool
	eng       *sim.Engine
	res       []JobResult
	copies    [][]*copyRun
	left      []int        // copies of each job not yet finished
	doneSig   []sim.Signal // broadcast when a job's last copy finishes
	firstErr  error
	versions  map[string]*pageVersions // by file name ("" for the one device)
	version   uint64
	cancelAll bool
	allDone   sim.Signal
	running   int
}

// copyRun is one copy (numjobs) of a job while it runs.
type copyRun struct {
	job       int
	k         int
	res       *JobResult
	targets   []Target
	gen       *Generator
	gate      gate
	ended     bool
	backlog   []written // verify_backlog: written blocks not yet verified
	written   []written // blocks written in the current loop (verify phase)
	inFlight  int
	log       *ioLog
	fileNames []string
}

// written is a block a job wrote: where, and the data versions it carried.
type written struct {
	file         int
	offset, size int64
}

func (r *runner) run(p *sim.Proc) ([]JobResult, error) {
	n := len(r.jobs)
	r.res = make([]JobResult, n)
	r.copies = make([][]*copyRun, n)
	r.left = make([]int, n)
	r.doneSig = make([]sim.Signal, n)
	group := 0
	for i, j := range r.jobs {
		if i > 0 && (j.Stonewall || j.NewGroup) {
			group++
		}
		r.res[i].GroupID = group
		r.res[i].Copies = make([]JobResult, j.NumJobs)
		r.left[i] = int(j.NumJobs)
		for k := range int(j.NumJobs) {
			c := &r.res[i].Copies[k]
			c.Name, c.GroupID = j.Name, group
			c.Read.Lat.Name, c.Write.Lat.Name = j.Name+"/read", j.Name+"/write"
			c.Trim.Lat.Name, c.Flush.Lat.Name = j.Name+"/trim", j.Name+"/flush"
			cr := &copyRun{job: i, k: k, res: c}
			if j.logs() {
				cr.log = &ioLog{}
			}
			r.copies[i] = append(r.copies[i], cr)
			r.running++
			name := fmt.Sprintf("fio/%s/%d", j.Name, k)
			r.eng.Spawn(name, func(q *sim.Proc) { r.runCopy(q, cr) })
		}
	}
	for r.running > 0 {
		p.Wait(&r.allDone)
	}
	for i := range r.res {
		copies := r.res[i].Copies
		gid := r.res[i].GroupID
		r.res[i] = MergeResults(copies)
		r.res[i].Copies, r.res[i].GroupID = copies, gid
		for k, c := range r.copies[i] {
			if c.log != nil {
				r.res[i].Copies[k].Log = c.log.records
				r.res[i].Copies[k].ioLog = c.log
			}
		}
	}
	return r.res, r.firstErr
}

// fail records the run's first error.
func (r *runner) fail(err error) {
	if r.firstErr == nil {
		r.firstErr = err
	}
}

// waitTurn blocks until the jobs copy c must wait for have finished: every earlier job for
// stonewall, the named job for wait_for.
func (r *runner) waitTurn(q *sim.Proc, c *copyRun) {
	j := r.jobs[c.job]
	if j.Stonewall {
		for i := 0; i < c.job; i++ {
			for r.left[i] > 0 {
				q.Wait(&r.doneSig[i])
			}
		}
	}
	if j.WaitFor != "" {
		for i := 0; i < c.job; i++ {
			if r.jobs[i].Name == j.WaitFor {
				for r.left[i] > 0 {
					q.Wait(&r.doneSig[i])
				}
			}
		}
	}
}

// runCopy is the process of one job copy: wait its turn, open its files, run its loops
// (each followed by the verify phase), then sync and unlink as asked.
func (r *runner) runCopy(q *sim.Proc, c *copyRun) {
	j := r.jobs[c.job]
	defer r.copyDone(c)
	r.waitTurn(q, c)
	if r.cancelAll || r.firstErr != nil {
		c.res.Start, c.res.End, c.res.MeasureStart = q.Now(), q.Now(), q.Now()
		return
	}
	if j.StartDelay > 0 {
		q.Sleep(j.StartDelay)
	}
	spans, err := r.open(q, c)
	c.res.Start, c.res.End = q.Now(), q.Now()
	c.res.MeasureStart = q.Now() + j.RampTime
	if err != nil {
		if !strings.HasPrefix(err.Error(), "job ") {
			err = fmt.Errorf("job %s: %w", j.Name, err)
		}
		r.fail(err)
		return
	}
	if j.CreateOnly {
		return
	}
	var prev *Generator
	for l := range j.loops() {
		jl := j
		if jl.IOSize == 0 && jl.FileSize > 0 && jl.Size > 0 {
			jl.IOSize = jl.Size // with filesize, size is only the default io_size (fio HOWTO)
		}
		g, err := newGenerator(jl, spans, streamName(j, c.k, l))
		if err != nil {
			r.fail(err)
			return
		}
		if prev == nil {
			g.Start(q.Now())
		} else {
			g.continueFrom(prev)
		}
		c.gen, c.written = g, nil
		r.runWorkers(q, c)
		if r.firstErr != nil {
			return
		}
		if j.Verify != "" && !j.NoDoVerify && j.RW.Writes() {
			r.verifyBlocks(q, c, c.written)
		}
		prev = g
		if g.stopped || q.Now() >= g.end {
			break
		}
	}
	if j.EndFsync && j.RW.Writes() {
		for f, t := range c.targets {
			if _, err := t.Do(q, uflip.OpFlush, 0, 0); err != nil {
				r.fail(fmt.Errorf("job %s: end_fsync of file %d: %w", j.Name, f, err))
			}
		}
	}
	if j.Unlink && !r.oneDevice {
		for _, name := range c.names(j) {
			if !isDevice(name) {
				if err := r.m.Unlink(q, name); err != nil {
					r.fail(fmt.Errorf("job %s: unlink %s: %w", j.Name, name, err))
				}
			}
		}
	}
}

// copyDone marks c finished: wakes the jobs waiting for its job and applies exitall.
func (r *runner) copyDone(c *copyRun) {
	c.ended = true
	j := r.jobs[c.job]
	r.left[c.job]--
	if r.left[c.job] == 0 {
		r.doneSig[c.job].Broadcast()
	}
	if j.ExitAll && !r.cancelAll {
		r.exitAll(c)
	}
	r.running--
	r.allDone.Notify()
}

// exitAll stops the jobs exitall names when copy c ends (fio HOWTO, exitall and exit_what):
// group (default) the running jobs of c's reporting group; stonewall every running job;
// all every job, including those not yet started.
func (r *runner) exitAll(c *copyRun) {
	what := r.jobs[c.job].ExitWhat
	if what == "all" {
		r.cancelAll = true
	}
	for i := range r.jobs {
		if what == "group" || what == "" {
			if r.res[i].GroupID != r.res[c.job].GroupID {
				continue
			}
		}
		for _, o := range r.copies[i] {
			if o.gen != nil && !o.ended {
				o.gen.Stop()
			}
		}
	}
}

// depth returns how many I/Os copy c keeps in flight: iodepth for an asynchronous engine
// with direct I/O, else 1 (the engine table and queued say why).
func (r *runner) depth(j Job) int {
	if j.queued() {
		return int(j.IODepth)
	}
	return 1
}

// runWorkers runs c's generator to its end with depth worker processes and waits for them.
func (r *runner) runWorkers(q *sim.Proc, c *copyRun) {
	j := r.jobs[c.job]
	n := r.depth(j)
	left := n
	var done sim.Signal
	for w := range n {
		name := fmt.Sprintf("fio/%s/%d/w%d", j.Name, c.k, w)
		r.eng.Spawn(name, func(wq *sim.Proc) {
			r.worker(wq, c)
			left--
			done.Notify()
		})
	}
	for left > 0 {
		q.Wait(&done)
	}
}

// worker issues I/Os from c's generator, one at a time, until it is done.
func (r *runner) worker(q *sim.Proc, c *copyRun) {
	j := r.jobs[c.job]
	g := c.gen
	for r.firstErr == nil {
		c.gate.waitThink(q)
		io, ok := g.Next(q.Now())
		if !ok {
			return
		}
		if io.Op != uflip.OpFlush {
			c.gate.waitRate(q, j, io)
		}
		if !r.issue(q, c, io, g.RampEnd()) {
			return
		}
		if j.VerifyBacklog > 0 && int64(len(c.backlog)) >= j.VerifyBacklog {
			batch := j.VerifyBatch
			if batch == 0 {
				batch = j.VerifyBacklog
			}
			batch = min(batch, int64(len(c.backlog)))
			todo := append([]written(nil), c.backlog[:batch]...)
			c.backlog = c.backlog[:copy(c.backlog, c.backlog[batch:])]
			r.verifyBlocks(q, c, todo)
		}
	}
}

// issue performs one I/O of copy c and records it; false on an error that ends the run.
func (r *runner) issue(q *sim.Proc, c *copyRun, io IO, rampEnd sim.Time) bool {
	j := r.jobs[c.job]
	t := c.targets[io.File]
	off := io.Offset
	submit := q.Now()
	c.inFlight++
	if submit >= rampEnd {
		c.res.Depths[depthBucket(c.inFlight)]++
	}
	var lat sim.Time
	var err error
	switch {
	case io.Op == uflip.OpWrite && j.Verify != "":
		lat, err = r.writeVersions(q, c, t, io)
	case io.Op == uflip.OpRead && j.Verify != "" && !j.RW.Writes() && !j.NoDoVerify:
		// A read job with verify checks data written before it (fio HOWTO, verify).
		var bad string
		lat, bad, err = r.readChecked(q, c, t, io)
		if bad != "" {
			r.verifyFailed(c, bad)
		}
	default:
		lat, err = t.Do(q, io.Op, off, io.Size)
	}
	if err == nil && io.Op == uflip.OpWrite && j.Sync && !j.Direct {
		// O_SYNC buffered write: write(2) returns once the data is on the device.
		var l2 sim.Time
		l2, err = t.Do(q, uflip.OpFlush, 0, 0)
		lat += l2
	}
	c.inFlight--
	if err != nil {
		r.fail(fmt.Errorf("job %s: %s of %d B at %d: %w", j.Name, io.Op, io.Size, off, err))
		return false
	}
	now := submit + lat
	c.res.End = max(c.res.End, now)
	if io.Op == uflip.OpWrite && j.Verify != "" {
		w := written{file: io.File, offset: io.Offset, size: io.Size}
		c.written = append(c.written, w)
		if j.VerifyBacklog > 0 {
			c.backlog = append(c.backlog, w)
		}
	}
	c.gate.completed(q, j)
	if submit < rampEnd {
		return true
	}
	r.record(c, io, submit, lat)
	return true
}

// record adds a measured I/O to copy c's statistics and logs.
func (r *runner) record(c *copyRun, io IO, submit, lat sim.Time) {
	j := r.jobs[c.job]
	d := c.res.Dir(io.Op)
	d.record(io.Size, lat)
	if io.Op != uflip.OpFlush {
		d.sample(submit+lat, c.res.MeasureStart, io.Size, lat, j.WriteBWLog != "" && j.LogAvgMsec == 0)
	}
	if c.log != nil && io.Op != uflip.OpFlush {
		c.log.add(LatRecord{At: submit + lat - c.res.Start, Lat: lat, Op: io.Op, Size: io.Size, Offset: io.Offset}, j.LogAvgMsec)
	}
}

// gate holds a copy's rate limit (fio's rate, rate_iops, rate_process) and thinktime.
type gate struct {
	next      [3]sim.Time // earliest issue time per direction
	started   bool
	notBefore sim.Time // thinktime: no issue before this
	done      int64    // I/Os completed since the last thinktime
	rng       *sim.RNG
}

// waitRate sleeps until io may be issued under the job's rate caps, and books its slot.
func (g *gate) waitRate(q *sim.Proc, j Job, io IO) {
	d := dirOf(io.Op)
	if j.Rate[d] == 0 && j.RateIOPS[d] == 0 {
		return
	}
	now := q.Now()
	if !g.started {
		g.started = true
		for i := range g.next {
			g.next[i] = now
		}
		g.rng = sim.NewRNG(j.RandSeed, "fio/"+j.Name+"/rate")
	}
	var gap sim.Time
	if r := j.Rate[d]; r > 0 {
		gap = max(gap, sim.Time(io.Size*int64(sim.Second)/r))
	}
	if r := j.RateIOPS[d]; r > 0 {
		per := sim.Time(int64(sim.Second) / r)
		if j.RatePoisson {
			// fio HOWTO, rate_process=poisson: arrivals of a Poisson process, exponential
			// gaps with mean 1/IOPS.
			per = sim.Time(g.rng.ExpFloat64() * float64(per))
		}
		gap = max(gap, per)
	}
	at := max(now, g.next[d])
	g.next[d] = at + gap
	if at > now {
		q.SleepUntil(at)
	}
}

// waitThink sleeps until the copy's thinktime stall is over.
func (g *gate) waitThink(q *sim.Proc) {
	if g.notBefore > q.Now() {
		q.SleepUntil(g.notBefore)
	}
}

// completed counts a completion toward thinktime_blocks and starts the stall.
func (g *gate) completed(q *sim.Proc, j Job) {
	if j.ThinkTime <= 0 {
		return
	}
	g.done++
	if g.done >= max(j.ThinkBlocks, 1) {
		g.done = 0
		g.notBefore = q.Now() + j.ThinkTime
	}
}

// dirOf maps an operation to its direction.
func dirOf(op uflip.Op) Dir {
	switch op {
	case uflip.OpWrite:
		return DirWrite
	case uflip.OpTrim:
		return DirTrim
	}
	return DirRead
}
