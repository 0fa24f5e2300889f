package fio

import (
	"errors"
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
	// WriteHint is the RWH_WRITE_LIFE_* value fio sets on the file at open (fcntl
	// F_SET_RW_HINT, after laying it out), 0: none set (write_hint not given).
	WriteHint uint8
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
// all have finished, its copies' results merged (and kept in Copies): Start, then Wait.
// Every job addresses dev directly at its own offsets. An I/O error stops its job (fio's
// continue_on_error=none) and is in the job's result; any other device error stops the run
// and is returned.
func Run(p *sim.Proc, dev uflip.Device, capacity int64, jobs []Job) ([]JobResult, error) {
	x, err := Start(p.Engine(), dev, capacity, jobs)
	return x.wait(p, err)
}

// RunMachine runs jobs on the simulated machine m, as Run does: each job on the files and
// namespace it names, as fio lays them out (StartMachine, then Wait).
func RunMachine(p *sim.Proc, m Machine, jobs []Job) ([]JobResult, error) {
	x, err := StartMachine(p.Engine(), m, jobs)
	return x.wait(p, err)
}

// wait waits for x, started with err, and returns its results and first error.
func (r *Execution) wait(p *sim.Proc, err error) ([]JobResult, error) {
	if err != nil {
		return nil, err
	}
	r.Wait(p)
	return r.Results(), r.Err()
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

// Start begins running jobs on dev, capacity bytes large, on eng and returns at once (Run
// is Start, then Wait): every job addresses dev directly at its own offsets.
func Start(eng *sim.Engine, dev uflip.Device, capacity int64, jobs []Job) (*Execution, error) {
	return start(eng, deviceMachine{dev, capacity}, jobs, true)
}

// StartMachine begins running jobs on the simulated machine m on eng and returns at once
// (RunMachine is StartMachine, then Wait): each job on the files and namespace it names.
func StartMachine(eng *sim.Engine, m Machine, jobs []Job) (*Execution, error) {
	return start(eng, m, jobs, false)
}

// start checks jobs and spawns a process per job copy on eng; with oneDevice every job
// addresses the one target at device offsets. Each copy waits its turn (stonewall,
// wait_for), opens and lays out its files, then runs its loops with as many worker
// processes as it keeps I/Os in flight (depth).
func start(eng *sim.Engine, m Machine, jobs []Job, oneDevice bool) (*Execution, error) {
	for _, j := range jobs {
		if err := j.Validate(); err != nil {
			return nil, fmt.Errorf("job %s: %w", j.Name, err)
		}
	}
	r := &Execution{m: m, jobs: jobs, oneDevice: oneDevice, eng: eng}
	n := len(jobs)
	r.res = make([]JobResult, n)
	r.copies = make([][]*copyRun, n)
	r.left = make([]int, n)
	r.doneSig = make([]sim.Signal, n)
	now := eng.Now()
	group := 0
	for i, j := range jobs {
		if i > 0 && (j.Stonewall || j.NewGroup) {
			group++
		}
		r.res[i].GroupID = group
		r.res[i].Copies = make([]JobResult, j.NumJobs)
		r.left[i] = int(j.NumJobs)
		for k := range int(j.NumJobs) {
			c := &r.res[i].Copies[k]
			c.Name, c.GroupID = j.Name, group
			// Until the copy starts (runCopy), a result taken at a power cut spans nothing.
			c.Start, c.End, c.MeasureStart = now, now, now
			c.Read.Lat.Name, c.Write.Lat.Name = j.Name+"/read", j.Name+"/write"
			c.Trim.Lat.Name, c.Flush.Lat.Name = j.Name+"/trim", j.Name+"/flush"
			cr := &copyRun{job: i, k: k, res: c}
			if j.logs() {
				cr.log = &ioLog{}
			}
			r.copies[i] = append(r.copies[i], cr)
			r.running++
			name := fmt.Sprintf("fio/%s/%d", j.Name, k)
			eng.Spawn(name, func(q *sim.Proc) { r.runCopy(q, cr) })
		}
	}
	return r, nil
}

// Execution is a run of a file's jobs in progress (Start, StartMachine).
type Execution struct {
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
	running   int  // copies not finished
	inFlight  int  // the jobs' I/Os submitted and not completed
	started   bool // a copy has opened its files and begun its I/O
	// zbds are the zoned namespaces' zone tables of zonemode=zbd jobs, by NSID (zbd.go).
	zbds map[uint32]*zbdInfo
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
	failed    bool // an I/O error stopped the copy
	log       *ioLog
	fileNames []string
	place     *placer  // fdp=1: the write streams of its writes (placement.go)
	zbd       *zbdCopy // zonemode=zbd: its view of the namespace's zones (zbd.go)
}

// written is a block a job wrote: where, and the data versions it carried.
type written struct {
	file         int
	offset, size int64
}

// Wait blocks p until every job copy has finished.
func (r *Execution) Wait(p *sim.Proc) {
	for r.running > 0 {
		p.Wait(&r.allDone)
	}
}

// Finished reports whether every job copy has finished.
func (r *Execution) Finished() bool { return r.running == 0 }

// Started reports whether a job copy has begun its I/O: opened its files (and laid them out)
// after its turn and startdelay. A power cut before that came before any job started.
func (r *Execution) Started() bool { return r.started }

// InFlight returns the jobs' I/Os submitted and not completed (their reads and writes,
// verify reads and end_fsync flushes; not the writes that lay a file out, which come before
// the job starts): at a power cut that stopped the jobs (firmware.power_loss.cut_at), those
// that never completed.
func (r *Execution) InFlight() int { return r.inFlight }

// Err returns the run's first error (not an I/O error, which stops only its job), if any.
func (r *Execution) Err() error { return r.firstErr }

// Results returns one result per job, its copies' results merged (and kept in Copies), of
// the I/Os completed so far: the jobs' results once Finished, or what they did before a
// power cut stopped them.
func (r *Execution) Results() []JobResult {
	out := make([]JobResult, len(r.res))
	for i := range r.res {
		copies := r.res[i].Copies
		for k, c := range r.copies[i] {
			if c.log != nil {
				copies[k].Log = c.log.records
				copies[k].ioLog = c.log
			}
		}
		out[i] = MergeResults(copies)
		out[i].Copies, out[i].GroupID = copies, r.res[i].GroupID
	}
	return out
}

// fail records the run's first error.
func (r *Execution) fail(err error) {
	if r.firstErr == nil {
		r.firstErr = err
	}
}

// ioFailed deals with err, the failure of an I/O copy c did (what: the I/O in words): an
// I/O error (uflip.ErrIO) stops the copy, as fio stops a job at its first I/O error
// (continue_on_error=none), and is recorded in its result; any other error ends the run.
func (r *Execution) ioFailed(q *sim.Proc, c *copyRun, what string, err error) {
	if !errors.Is(err, uflip.ErrIO) {
		r.fail(fmt.Errorf("job %s: %s: %w", r.jobs[c.job].Name, what, err))
		return
	}
	c.stop()
	if c.res.Err != "" {
		return
	}
	c.res.Err, c.res.Errno = describeIOError(err)
	c.res.ErrAt = q.Now() - c.res.Start
	if c.res.Error == 0 {
		c.res.Error = c.res.Errno // fio keeps a job's first error (td_verror)
	}
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

// stop ends the copy's I/O after an I/O error: its workers stop at their next I/O.
func (c *copyRun) stop() {
	c.failed = true
	if c.gen != nil {
		c.gen.Stop()
	}
}

// waitTurn blocks until the jobs copy c must wait for have finished: every earlier job for
// stonewall, the named job for wait_for.
func (r *Execution) waitTurn(q *sim.Proc, c *copyRun) {
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
// (each followed by the verify phase), then sync and unlink as asked. An I/O error ends
// the loops and skips end_fsync (fio syncs at the end only a job without an error).
func (r *Execution) runCopy(q *sim.Proc, c *copyRun) {
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
	if err != nil && errors.Is(err, uflip.ErrIO) {
		r.ioFailed(q, c, "laying out its files", err)
		return
	}
	if err != nil {
		if !strings.HasPrefix(err.Error(), "job ") {
			err = fmt.Errorf("job %s: %w", j.Name, err)
		}
		r.fail(err)
		return
	}
	if j.ZoneMode == "zbd" && !j.CreateOnly {
		if err := r.zbdOpen(q, c, spans[0]); err != nil {
			if errors.Is(err, uflip.ErrIO) {
				r.ioFailed(q, c, "resetting its zones", err)
				return
			}
			r.fail(fmt.Errorf("job %s: %w", j.Name, err))
			return
		}
	}
	r.started = true
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
		if c.failed {
			break
		}
		if j.Verify != "" && !j.NoDoVerify && j.RW.Writes() {
			r.verifyBlocks(q, c, c.written)
		}
		prev = g
		if g.stopped || q.Now() >= g.end {
			break
		}
	}
	if j.EndFsync && j.RW.Writes() && !c.failed {
		for f, t := range c.targets {
			r.inFlight++
			_, err := t.Do(q, uflip.OpFlush, 0, 0)
			r.inFlight--
			if err != nil {
				r.ioFailed(q, c, fmt.Sprintf("end_fsync of file %d", f), err)
				break
			}
		}
	}
	if j.Unlink && !r.oneDevice {
		for _, name := range c.names(j) {
			if !isDevice(name) {
				if err := r.m.Unlink(q, name); err != nil {
					r.ioFailed(q, c, "unlink "+name, err)
				}
			}
		}
	}
}

// copyDone marks c finished: wakes the jobs waiting for its job and applies exitall and
// exitall_on_error.
func (r *Execution) copyDone(c *copyRun) {
	c.ended = true
	j := r.jobs[c.job]
	r.left[c.job]--
	if r.left[c.job] == 0 {
		r.doneSig[c.job].Broadcast()
	}
	// fio's thread_main ends a job with fio_terminate_threads(groupid, exit_what) under
	// exitall, or under exitall_on_error when the job has an error (backend.c).
	if (j.ExitAll || j.ExitAllOnError && c.res.Error != 0) && !r.cancelAll {
		r.exitAll(c)
	}
	r.running--
	r.allDone.Notify()
}

// exitAll stops the jobs exitall names when copy c ends (fio HOWTO, exitall and exit_what):
// group (default) the running jobs of c's reporting group; stonewall every running job;
// all every job, including those not yet started.
func (r *Execution) exitAll(c *copyRun) {
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
func (r *Execution) depth(j Job) int {
	if j.queued() {
		return int(j.IODepth)
	}
	return 1
}

// runWorkers runs c's generator to its end with depth worker processes and waits for them.
func (r *Execution) runWorkers(q *sim.Proc, c *copyRun) {
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

// worker issues I/Os from c's generator, one at a time, until it is done, the run has
// failed or an I/O error has stopped the copy.
func (r *Execution) worker(q *sim.Proc, c *copyRun) {
	j := r.jobs[c.job]
	g := c.gen
	for r.firstErr == nil && !c.failed {
		c.gate.waitThink(q)
		io, ok := g.Next(q.Now())
		if !ok {
			return
		}
		if io.Op != uflip.OpFlush {
			c.gate.waitRate(q, j, io)
		}
		if c.zbd != nil {
			ok, err := c.zbd.adjust(q, &io)
			if err != nil {
				if errors.Is(err, uflip.ErrIO) {
					r.ioFailed(q, c, "a zone reset", err)
				} else {
					r.fail(fmt.Errorf("job %s: %w", j.Name, err))
				}
				return
			}
			if !ok {
				return
			}
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

// issue performs one I/O of copy c and records it; false on an error that ends the copy
// (an I/O error) or the run.
func (r *Execution) issue(q *sim.Proc, c *copyRun, io IO, rampEnd sim.Time) bool {
	j := r.jobs[c.job]
	t := c.targets[io.File]
	off := io.Offset
	submit := q.Now()
	c.inFlight++
	r.inFlight++
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
	case io.Op == uflip.OpWrite && j.appends():
		lat, err = r.zoneAppend(q, c, t, io)
	case io.Op == uflip.OpWrite && c.place != nil:
		lat, err = t.(StreamTarget).DoStream(q, io.Op, off, io.Size, nil, c.place.stream())
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
	r.inFlight--
	if c.zbd != nil {
		if err == nil {
			c.zbd.ended(io)
		}
		if c.inFlight == 0 {
			c.zbd.idle.Broadcast()
		}
	}
	if err != nil {
		r.ioFailed(q, c, fmt.Sprintf("%s of %d B at %d", io.Op, io.Size, off), err)
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
func (r *Execution) record(c *copyRun, io IO, submit, lat sim.Time) {
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
