package fiorun

import (
	"os"

	"github.com/fastdrain-sim/fastdrain/energy"
	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/hostos/pagecache"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Options are what a fio run adds to its jobs.
type Options struct {
	// Idle is simulated time the machine does nothing before the jobs, metered apart.
	Idle sim.Time
	// Timeline, if set, records the whole machine (runner.Machine.Trace).
	Timeline *report.Timeline
	// CountEvents counts the run's engine events (runner.CountEvents).
	CountEvents bool
}

// Result is what one fio run measured.
type Result struct {
	Jobs    []fio.Job       // the jobs as run (runtime cap and percentiles applied)
	Results []fio.JobResult // each job's, in the jobs' order
	// SSD is the machine's statistics, with a power cut's report when one happened.
	SSD *runner.Result
	// Idle and Energy are the SSD's energy over Options.Idle and over the jobs (nil when
	// that span did not happen).
	Idle, Energy *energy.Account
	// Events are the counted engine events (nil without Options.CountEvents).
	Events *runner.EventCounts
	// CutBeforeJobs is true when a power cut came before any job started: Results is empty.
	CutBeforeJobs bool
	// InFlight is the IOs in flight at a power cut, which never completed.
	InFlight int
}

// DecodeFile reads a job file as fio would: include directives relative to it, ${VAR}
// from the environment, $pagesize/$mb_memory/$ncpus from the simulated host.
func DecodeFile(path string, host pagecache.Spec) ([]fio.Job, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return fio.DecodeWith(f, path, fio.DecodeOptions{
		Env:     os.LookupEnv,
		Include: os.ReadFile,
		Host:    fio.HostFacts{PageSize: pagecache.PageSize, MemoryMB: int64(host.Memory) >> 20, CPUs: int64(host.CPU.Cores)},
	})
}

// Run runs jobs on machine m to their end (or a power cut).
func Run(m *runner.Machine, jobs []fio.Job, o Options) (*Result, error) {
	fm, err := hostos.NewFioMachine(m.Host, m.Dev, fio.NeedsDataCheck(jobs))
	if err != nil {
		return nil, err
	}
	m.Trace(o.Timeline)
	idleMeter, err := runner.NewEnergyMeter(m.Machine)
	if err != nil {
		return nil, err
	}
	jobMeter, err := runner.NewEnergyMeter(m.Machine)
	if err != nil {
		return nil, err
	}
	r := &Result{Jobs: jobs}
	var x *fio.Execution
	var runErr error
	m.Eng.Spawn("fio", func(p *sim.Proc) {
		defer m.Eng.Stop()
		if o.Idle > 0 {
			// The machine does nothing for the idle span first, metered apart.
			idleMeter.Start(m.Eng)
			p.Sleep(o.Idle)
			r.Idle = idleMeter.Stop(p.Now())
		}
		jobMeter.Start(m.Eng)
		defer func() { r.Energy = jobMeter.Stop(p.Now()) }()
		if x, runErr = fio.StartMachine(p.Engine(), fm, jobs); runErr == nil {
			x.Wait(p)
			r.Results, runErr = x.Results(), x.Err()
		}
	})
	if o.CountEvents {
		r.Events = runner.CountEvents(m.Machine)
	}
	m.Eng.Run()
	if runErr != nil {
		return nil, runErr
	}
	if r.SSD, err = m.Outcome("fio"); err != nil {
		return nil, err
	}
	if r.SSD.PowerLoss != nil {
		// The cut stopped the jobs: their results are of the IOs completed before it.
		if x == nil || !x.Started() {
			r.CutBeforeJobs = true
			return r, nil
		}
		r.Results, r.InFlight = x.Results(), x.InFlight()
	}
	return r, nil
}

// IOs returns the host I/Os the jobs completed (reads, writes, trims and flushes).
func (r *Result) IOs() int64 {
	var n int64
	for _, j := range r.Results {
		n += j.Read.IOs + j.Write.IOs + j.Trim.IOs + j.Flush.IOs
	}
	return n
}
