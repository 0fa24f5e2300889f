package apps

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// DefaultDuration is how long the paper co-runs its workloads: 30 s (Section 4).
const DefaultDuration = 30 * sim.Second

// Scenario is a named set of applications run side by side on one host. Its duration
// and warm-up count from the moment every data set has been created.
type Scenario struct {
	// Name identifies the scenario, e.g. "apache-u+ungzip".
	Name string `yaml:"name"`
	// Apps lists the applications by name (AppNames); each at most once.
	Apps []string `yaml:"apps"`
	// Duration is how long clients issue requests; requests in flight at the end finish.
	Duration sim.Time `yaml:"duration"`
	// Warmup: requests issued before this time (from the start) are not recorded.
	Warmup sim.Time `yaml:"warmup"`
	// Seed is the root seed; every client's stream is derived from it and the client's
	// name (sim.NewRNG), so runs with one seed are identical.
	Seed uint64 `yaml:"seed"`
}

// Scenarios lists the named scenarios: each latency-critical app co-located with Ungzip
// (the paper's evaluation), each latency-critical app alone, and Ungzip alone; all 30 s,
// seed 1.
func Scenarios() []Scenario {
	var out []Scenario
	for _, a := range LatencyCritical() {
		out = append(out, Scenario{Name: a + "+" + Ungzip, Apps: []string{a, Ungzip}, Duration: DefaultDuration, Seed: 1})
	}
	for _, a := range AppNames() {
		out = append(out, Scenario{Name: a, Apps: []string{a}, Duration: DefaultDuration, Seed: 1})
	}
	return out
}

// LookupScenario returns the named scenario of Scenarios.
func LookupScenario(name string) (Scenario, error) {
	var names []string
	for _, s := range Scenarios() {
		if s.Name == name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	return Scenario{}, fmt.Errorf("apps: no scenario %q (have %v)", name, names)
}

// DecodeScenario reads a scenario from YAML strictly (unknown keys are errors); duration
// defaults to 30 s and seed to 1. filename is used in messages only.
func DecodeScenario(r io.Reader, filename string) (Scenario, error) {
	s := Scenario{Duration: DefaultDuration, Seed: 1}
	data, err := io.ReadAll(r)
	if err != nil {
		return Scenario{}, fmt.Errorf("%s: %w", filename, err)
	}
	if err := decodeStrict(data, &s, filename, "scenario"); err != nil {
		return Scenario{}, err
	}
	if err := s.Validate(); err != nil {
		return Scenario{}, fmt.Errorf("%s: %w", filename, err)
	}
	return s, nil
}

// Validate reports every problem with the scenario, each naming its field.
func (s Scenario) Validate() error {
	var errs []error
	if s.Name == "" {
		errs = append(errs, errors.New("scenario.name: must not be empty"))
	}
	if len(s.Apps) == 0 {
		errs = append(errs, errors.New("scenario.apps: at least one application is needed"))
	}
	for i, a := range s.Apps {
		if !slices.Contains(AppNames(), a) {
			errs = append(errs, fmt.Errorf("scenario.apps[%d]: %q is not one of %v", i, a, AppNames()))
		} else if slices.Index(s.Apps, a) != i {
			errs = append(errs, fmt.Errorf("scenario.apps[%d]: %q is listed twice", i, a))
		}
	}
	if s.Duration <= 0 {
		errs = append(errs, fmt.Errorf("scenario.duration: %v must be positive", s.Duration))
	}
	if s.Warmup < 0 || (s.Duration > 0 && s.Warmup >= s.Duration) {
		errs = append(errs, fmt.Errorf("scenario.warmup: %v must be at least 0 and below duration (%v)", s.Warmup, s.Duration))
	}
	return errors.Join(errs...)
}

// Result is what one application measured.
type Result struct {
	// App is the application's name.
	App string
	// Latency is the response time of every recorded request in ps: from the moment the
	// request is issued (after the client's think time) to its completion, with CPU time,
	// page-cache hits, throttling and device waits included. For Ungzip it is the
	// duration of each output write() call (its throttling).
	Latency sim.Histogram
	// Series is response time over time, sampled with bounded memory.
	Series *Series
	// Requests counts recorded requests (Ungzip: output writes).
	Requests int64
	// Bytes counts the payload bytes of recorded requests (Ungzip: output bytes).
	Bytes int64
	// Err is the first error, other than an I/O error, the host returned to the
	// application; the process that got it stopped.
	Err error
	// IOErrors counts the requests (Ungzip: the input reads) that failed with an I/O error
	// (ErrIO): the device failed them. The application went on with its
	// next request, as a server answers a failed request with an error and serves the
	// next; failed requests are not in Latency. FirstIOError is the first of them and
	// FirstIOErrorAt when it came.
	IOErrors       int64
	FirstIOError   error
	FirstIOErrorAt sim.Time
}

// ErrIO marks an error the storage device returned: the host's OS (hostos.OS) wraps the
// block layer's errors with it, and an application counts such an error and goes on.
var ErrIO = errors.New("I/O error")

// ioError counts err, got at now by a request that began at start, if it is an I/O error
// that took simulated time (a device round trip): the application goes on (true). An
// error of any other kind, or one that came back at once (retrying it would spin in
// place), stops it (false).
func (res *Result) ioError(start, now sim.Time, err error) bool {
	if !errors.Is(err, ErrIO) || now <= start {
		return false
	}
	if res.IOErrors == 0 {
		res.FirstIOError, res.FirstIOErrorAt = err, now
	}
	res.IOErrors++
	return true
}

// closedModel is a latency-critical model driven by closed-loop clients.
type closedModel interface {
	setup(p *sim.Proc, host OS, seed uint64) error
	request(p *sim.Proc, host OS, r *sim.RNG) (int64, error)
	after(p *sim.Proc, host OS) error
}

// app is one application of a run.
type app struct {
	name   string
	client ClientSpec
	closed closedModel // nil for Ungzip
	gz     *ungzip
	res    *Result
}

// Run is one scenario running on an engine.
type Run struct {
	eng        *sim.Engine
	host       OS
	sc         Scenario
	apps       []*app
	began      sim.Time // data sets created; clients start
	started    bool     // began is set
	ended      sim.Time
	live       int
	done       bool
	stopEngine bool
	setupErr   error
}

// Start validates spec and scenario, and spawns the run on eng: a set-up process creates
// every application's data set (in scenario order), then the applications' processes run
// for the scenario's duration. It does not run the engine.
func Start(eng *sim.Engine, host OS, spec Spec, sc Scenario) (*Run, error) {
	if err := errors.Join(spec.Validate(), sc.Validate()); err != nil {
		return nil, err
	}
	r := &Run{eng: eng, host: host, sc: sc}
	for _, name := range sc.Apps {
		a := &app{name: name, res: &Result{App: name,
			Series: NewSeries(spec.Series, sc.Seed, "apps/"+name+"/series")}}
		a.res.Latency.Name = name
		switch name {
		case ApacheF:
			a.client, a.closed = spec.ApacheF.Client, newServer(name, spec.ApacheF)
		case ApacheU:
			a.client, a.closed = spec.ApacheU.Client, newServer(name, spec.ApacheU)
		case ImgServerF:
			a.client, a.closed = spec.ImgServerF.Client, newServer(name, spec.ImgServerF)
		case ImgServerU:
			a.client, a.closed = spec.ImgServerU.Client, newServer(name, spec.ImgServerU)
		case DBS:
			a.client, a.closed = spec.DBS.Client, newDB(name, spec.DBS)
		case DBU:
			a.client, a.closed = spec.DBU.Client, newDB(name, spec.DBU)
		case Ungzip:
			a.gz = newUngzip(name, spec.Ungzip)
		}
		r.apps = append(r.apps, a)
	}
	eng.Spawn("apps/"+sc.Name+"/setup", r.setup)
	return r, nil
}

// Execute starts the scenario and runs eng until the scenario is over, then stops the
// engine (other components' periodic events, such as a flusher's, stay scheduled). It
// returns the run and the first set-up or application error.
func Execute(eng *sim.Engine, host OS, spec Spec, sc Scenario) (*Run, error) {
	r, err := Start(eng, host, spec, sc)
	if err != nil {
		return nil, err
	}
	r.stopEngine = true
	eng.Run()
	if !r.done {
		return r, fmt.Errorf("apps: scenario %s did not finish (engine stopped at %v)", sc.Name, eng.Now())
	}
	return r, r.Err()
}

func (r *Run) setup(p *sim.Proc) {
	for _, a := range r.apps {
		var err error
		if a.gz != nil {
			err = a.gz.setup(p, r.host, r.sc.Seed)
		} else {
			err = a.closed.setup(p, r.host, r.sc.Seed)
		}
		if err != nil {
			r.setupErr = fmt.Errorf("apps: set-up of %s: %w", a.name, err)
			r.finish(p.Now())
			return
		}
	}
	r.began, r.started = p.Now(), true
	stop := r.began + r.sc.Duration
	from := r.began + r.sc.Warmup
	for _, a := range r.apps {
		if a.gz != nil {
			r.live++
			r.eng.Spawn("apps/"+a.name, r.ungzipBody(a, stop, from))
			continue
		}
		for i := range a.client.Clients {
			name := fmt.Sprintf("apps/%s/client%d", a.name, i)
			r.live++
			r.eng.Spawn(name, r.clientBody(a, sim.NewRNG(r.sc.Seed, name), stop, from))
		}
	}
}

// clientBody is one closed-loop client: think, issue, wait for the response, record.
func (r *Run) clientBody(a *app, rng *sim.RNG, stop, from sim.Time) func(p *sim.Proc) {
	return func(p *sim.Proc) {
		defer r.exit(p)
		for {
			if d := a.client.think(rng); d > 0 {
				p.Sleep(d)
			}
			if p.Now() >= stop {
				return
			}
			start := p.Now()
			n, err := a.closed.request(p, r.host, rng)
			if err != nil {
				if a.res.ioError(start, p.Now(), err) {
					continue // the request failed; the client goes on (Result.IOErrors)
				}
				a.res.fail(err)
				return
			}
			if start >= from {
				a.res.record(start, p.Now(), n)
			}
			if err := a.closed.after(p, r.host); err != nil {
				if a.res.ioError(start, p.Now(), err) {
					continue
				}
				a.res.fail(err)
				return
			}
		}
	}
}

// ungzipBody runs Ungzip until stop.
func (r *Run) ungzipBody(a *app, stop, from sim.Time) func(p *sim.Proc) {
	return func(p *sim.Proc) {
		defer r.exit(p)
		err := a.gz.run(p, r.host, stop, func(start, end sim.Time, n int64) {
			if start >= from {
				a.res.record(start, end, n)
			}
		}, a.res.ioError)
		if err != nil {
			a.res.fail(err)
		}
	}
}

func (r *Run) exit(p *sim.Proc) {
	r.live--
	if r.live == 0 {
		r.finish(p.Now())
	}
}

func (r *Run) finish(now sim.Time) {
	r.done = true
	r.ended = now
	if r.stopEngine {
		r.eng.Stop()
	}
}

func (res *Result) record(start, end sim.Time, n int64) {
	lat := end - start
	res.Latency.Record(int64(lat))
	res.Series.Add(end, lat)
	res.Requests++
	res.Bytes += n
}

func (res *Result) fail(err error) {
	if res.Err == nil {
		res.Err = fmt.Errorf("apps: %s: %w", res.App, err)
	}
}

// Done reports whether every application process has finished.
func (r *Run) Done() bool { return r.done }

// Began returns when the data sets were ready and the applications started.
func (r *Run) Began() sim.Time { return r.began }

// Started reports whether the applications have started (Began is then valid; it is 0
// for a scenario with nothing to set up).
func (r *Run) Started() bool { return r.started }

// Ended returns when the last application process finished.
func (r *Run) Ended() sim.Time { return r.ended }

// Scenario returns the scenario being run.
func (r *Run) Scenario() Scenario { return r.sc }

// Results returns each application's result, in scenario order.
func (r *Run) Results() []*Result {
	out := make([]*Result, len(r.apps))
	for i, a := range r.apps {
		out[i] = a.res
	}
	return out
}

// Result returns the named application's result, or nil if it is not in the scenario.
func (r *Run) Result(name string) *Result {
	for _, a := range r.apps {
		if a.name == name {
			return a.res
		}
	}
	return nil
}

// Err returns the set-up error or the first application error, if any.
func (r *Run) Err() error {
	if r.setupErr != nil {
		return r.setupErr
	}
	for _, a := range r.apps {
		if a.res.Err != nil {
			return a.res.Err
		}
	}
	return nil
}

// StopWhenDone makes the run stop the engine when the scenario is over, as Execute does;
// for callers that Start a run, add their own processes, then run the engine.
func (r *Run) StopWhenDone() { r.stopEngine = true }
