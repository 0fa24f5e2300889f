package runner

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/energy"
	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/buffer"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/hostos/pagecache"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Workload is what runs on the machine.
type Workload struct {
	Scenario apps.Scenario // named co-location scenario, its duration, warm-up and seed
	Apps     apps.Spec     // the application models' parameters
}

// Options configures one run.
type Options struct {
	Label    string // how the run is named in comparisons (e.g. the variant)
	Config   platforms.Config
	Workload Workload
	// SampleInterval is the period of the time series (0 = 10 ms).
	SampleInterval sim.Time
	// Timeline, if set, records every resource's activity in its window.
	Timeline *report.Timeline
	// CheckData turns on the page cache's end-to-end data check (pagecache.DataCheck): every
	// page the host reads back from the device must hold the data it last wrote there; after
	// the scenario (and after the results are taken, so they are unchanged) every file is
	// fsynced and every page the check knows is read back from the device. Run fails naming
	// the first page that did not match.
	CheckData bool
}

// AppResult is one application's measurements.
type AppResult struct {
	App      string
	Requests int64
	Bytes    int64
	Latency  *sim.Histogram
	Series   *apps.Series
	// IOErrors counts the requests the device failed (apps.Result.IOErrors); FirstIOError
	// is the first one's error in words and FirstIOErrorAt when it came.
	IOErrors       int64
	FirstIOError   string
	FirstIOErrorAt sim.Time
}

// Result is everything one run observed.
type Result struct {
	Label    string
	Config   platforms.Config
	Scenario apps.Scenario
	Began    sim.Time // data sets created, measurement starts
	Ended    sim.Time
	Events   uint64
	Apps     []AppResult
	// Percentiles, when set (a command's --percentiles), replaces the latency percentiles of
	// the application tables: AppTable, AppCSV (apps.csv) and JSON (result.json). Nil keeps
	// each one's default set.
	Percentiles report.Percentiles

	Utilization *report.Table // every resource, busy share by activity, over the measured window
	// UtilizationFrac is the same as fractions of the window, for utilization.csv.
	UtilizationFrac *report.Table
	// Stats is the machine's statistics (Statistics), taken once at the end of the run:
	// what every statistics output (text, CSV, JSON, sweep columns) reads.
	Stats    *sim.StatSnapshot
	Firmware firmware.Stats
	Faults   firmware.FaultStats // flash faults handled (all 0 unless flash.die.faults is set)
	// Health is the drive's health at the end (spare pool, read-only mode, its SMART /
	// Health log); nil without a fault model (flash.die.faults).
	Health      *Health
	FTL         ftl.Stats
	Buffer      buffer.Stats
	BufferPages int
	Cache       pagecache.Stats
	Series      []*sim.Series
	// ChannelBusy and DieBusy are the cumulative busy time of every channel bus and of
	// every die row (per die up to MaxDieRows dies, else per channel) at each sample, for
	// the utilization heat maps (BusyGrid).
	ChannelBusy, DieBusy []BusyRow
	// Traffic is cumulative bytes at each sample: "host read" and "host write" (data the
	// NVMe controller moved to and from host memory, counted when each transfer starts),
	// then each application's payload ("APP payload", counted at request completion).
	Traffic     []Traffic
	Victims     []pagecache.VictimEvent
	Switches    []pagecache.RatioSwitch
	ModeChanges []firmware.ModeChange
	// Energy is the SSD's energy over the measured window: per component and activity and
	// its peaks (nil if measurement never started); its power trace is in Series
	// ("energy.*_mW"), not in Energy.Buckets.
	Energy *energy.Account
	// FlashUsed and FlashWasted are pages programmed and pages skipped by the allocators
	// during the run (the paper's Fig. 3b / 6b "Used" and "Wasted").
	FlashUsed, FlashWasted int64
	// DataChecked is how many pages read back from the device the data check compared
	// with what was written (Options.CheckData; 0 without it).
	DataChecked int64
	// PowerLoss is what a scripted power cut (firmware.power_loss.cut_at) did, and
	// Recovery what rebuilding the mapping from flash afterwards found; nil if no cut
	// happened. A run with a cut ends at the firmware's stop; its measured window ends at
	// the cut.
	PowerLoss *firmware.PowerLossReport
	Recovery  *firmware.Recovery

	end      sim.Time // where the run stopped (the energy account ends there)
	measured bool     // measurement started: the resources and the meter have a start
}

// App returns the named application's result, or nil.
func (r *Result) App(name string) *AppResult {
	for i := range r.Apps {
		if r.Apps[i].App == name {
			return &r.Apps[i]
		}
	}
	return nil
}

// Run builds the machine and runs the workload to completion.
func Run(o Options) (*Result, error) {
	om, err := Open(o.Config)
	if err != nil {
		return nil, err
	}
	defer om.Close()
	return runOn(om, o)
}

// runOn is Run on machine om, built from o.Config (a test puts a fault in it first).
func runOn(om *Machine, o Options) (*Result, error) {
	m := om.Machine
	cut := o.Config.Firmware.PowerLoss.CutAt > 0
	if cut && o.CheckData {
		return nil, errors.New("runner: --check-data cannot be used with a power cut (firmware.power_loss.cut_at): the check reads the device back after the run")
	}
	var check *pagecache.DataCheck
	if o.CheckData {
		check = m.Host.Cache.EnableDataCheck(m.SSD.FW.LogicalPages())
	}
	interval := o.SampleInterval
	if interval <= 0 {
		interval = 10 * sim.Millisecond
	}
	smp := sim.NewSampler(m.Eng, interval)
	m.SSD.FW.Track(smp)
	m.Host.Cache.Track(smp)
	var pr probes
	pr.trackBusy(smp, m.Eng, m.SSD)
	// The controller writes a read's data into host memory and reads a write's from it.
	pr.trackTraffic(smp, "host read", &m.SSD.Ctrl.Stats.DataWritten)
	pr.trackTraffic(smp, "host write", &m.SSD.Ctrl.Stats.DataRead)
	rs := m.Resources()
	if o.Timeline != nil {
		o.Timeline.Attach(rs...)
		TraceFlows(m.SSD, o.Timeline)
	}
	meter, err := NewEnergyMeter(m)
	if err != nil {
		return nil, err
	}
	wasted0 := m.SSD.FW.FTL().Stats.Wasted
	// The host's file system spans the namespace (platforms.Build): refuse a scenario
	// whose data sets cannot fit before simulating its set-up into ENOSPC.
	fsBytes := m.SSD.FW.LogicalPages() * int64(o.Config.Firmware.PageSize)
	if err := o.Workload.Apps.CheckFits(o.Workload.Scenario, fsBytes); err != nil {
		return nil, err
	}
	run, err := apps.Start(m.Eng, m.Host.OS(), o.Workload.Apps, o.Workload.Scenario)
	if err != nil {
		return nil, err
	}
	for _, a := range run.Results() {
		pr.trackTraffic(smp, a.App+" payload", &a.Bytes)
	}
	// Snapshot every resource when measurement starts (after the data sets exist), then
	// run to the end of the scenario.
	var start []sim.Snapshot
	var fgBefore sim.Time // the evictor's foreground time when measurement starts
	m.Eng.Spawn("runner.measure", func(p *sim.Proc) {
		for !run.Started() && !run.Done() {
			p.Sleep(sim.Millisecond)
		}
		m.SSD.Sync(p.Now())
		fgBefore = m.SSD.FW.StatsAt(p.Now()).ForegroundTime
		for _, r := range rs {
			start = append(start, r.Snapshot(p.Now()))
		}
		meter.Start(m.Eng)
	})
	run.StopWhenDone()
	m.Eng.Run()
	if m.SSD.FW.PoweredOff() {
		return powerCutResult(o, m, run, rs, start, meter, wasted0)
	}
	if _, _, err := CutOutcome(m); err != nil {
		return nil, err // a cut the scenario ended before
	}
	if !run.Done() {
		return nil, fmt.Errorf("runner: scenario %s did not finish (engine idle at %v)", o.Workload.Scenario.Name, m.Eng.Now())
	}
	if err := run.Err(); err != nil {
		return nil, err
	}
	res := newResult(o, m, run, rs, start, m.Eng.Now(), run.Ended(), wasted0)
	putEngagement(res.Stats, m, res.Began, res.Ended, fgBefore) // over the measured window
	// Keep the samples, not the series: a series' probe closes over the machine, which must
	// be freed when the run ends (sweeps and figures hold hundreds of results).
	for _, s := range smp.Series() {
		if pr.is(s) {
			continue
		}
		res.Series = append(res.Series, &sim.Series{Name: s.Name, Samples: s.Samples})
	}
	pr.store(res)
	if res.measured {
		res.Energy = meter.Stop(res.end)
		// The power trace joins the series at their interval when it is a whole number of
		// buckets, else at the bucket size.
		k := 1
		if b := o.Config.Energy.Resolution; interval%b == 0 {
			k = int(interval / b)
		}
		res.Series = append(res.Series, res.Energy.Series(k)...)
		// The 1 ms buckets are in the series now (and in the peaks); sweeps and figures hold
		// hundreds of results, so do not keep them twice.
		res.Energy.Buckets = nil
	}
	if check != nil {
		// The cache goes on recording victimizations during the check; the result holds
		// its own copy of what the run saw (takeMachine).
		if err := verifyData(m, check); err != nil {
			return nil, err
		}
		res.DataChecked = check.Checked
	}
	return res, nil
}

// verifyData ends a run with the data check on, after its results are taken (so they are
// those of a run without it): every file is fsynced, then every device page whose data
// the check knows is read back through a raw device and compared with it, in simulated
// time after the scenario.
func verifyData(m *platforms.Machine, check *pagecache.DataCheck) error {
	raw, err := hostos.NewRawDevice(m.Host, m.SSD.FW.LogicalPages()*pagecache.PageSize)
	if err != nil {
		return err
	}
	var failure error
	m.Eng.Spawn("runner.datacheck", func(p *sim.Proc) {
		if err := m.Host.Cache.SyncAll(m.Host.Task(p)); err != nil {
			failure = err
			return
		}
		failure = check.VerifyDevice(func(pg int64, words []uint64) error {
			_, err := raw.DoData(p, uflip.OpRead, pg*pagecache.PageSize, int64(len(words))*pagecache.PageSize, words)
			return err
		})
	})
	m.Eng.Run()
	if err := m.Stall(); err != nil {
		return fmt.Errorf("runner: data check: %w", err)
	}
	if failure != nil {
		return fmt.Errorf("runner: data check: %w", failure)
	}
	if err := check.Err(); err != nil {
		return fmt.Errorf("runner: %w", err)
	}
	return nil
}

// powerCutResult ends a run the power cut stopped: the results as of the cut (the
// applications' requests completed by then, the resources' busy time up to the firmware's
// stop), the cut's report, and the mapping rebuilt from flash.
func powerCutResult(o Options, m *platforms.Machine, run *apps.Run, rs []*sim.Resource, start []sim.Snapshot,
	meter *energy.Meter, wasted0 int64) (*Result, error) {
	rep, rec, err := CutOutcome(m)
	if err != nil {
		return nil, err
	}
	res := newResult(o, m, run, rs, start, m.Eng.Now(), max(run.Began(), rep.At), wasted0)
	res.PowerLoss, res.Recovery = rep, rec
	if res.measured {
		res.Energy = meter.Stop(res.end)
		res.Energy.Buckets = nil
	}
	return res, nil
}

// newResult takes what a run observed once it has stopped at end (the scenario's end, or
// the firmware's stop after a power cut): the utilization tables from the resources'
// snapshots at the start of measurement (none if it never started), the machine's
// statistics (takeMachine) and the applications' results; ended is where the measured
// window ends.
func newResult(o Options, m *platforms.Machine, run *apps.Run, rs []*sim.Resource, start []sim.Snapshot,
	end, ended sim.Time, wasted0 int64) *Result {
	m.SSD.Sync(end)
	measured := len(start) > 0 && len(start) == len(rs)
	if !measured {
		start = nil
	}
	res := &Result{Label: o.Label, Config: o.Config, Scenario: o.Workload.Scenario, Began: run.Began(), Ended: ended,
		Utilization:     report.UtilizationTable("utilization", rs, start, end),
		UtilizationFrac: report.UtilizationFractions("utilization", rs, start, end), end: end, measured: measured}
	res.takeMachine(m, wasted0)
	for _, a := range run.Results() {
		res.Apps = append(res.Apps, appResult(a))
	}
	return res
}
