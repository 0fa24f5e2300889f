package ufliprun

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Suite is one uFLIP plan run on one or more devices.
type Suite struct {
	Plan    *uflip.Plan
	Devices []*Device // the first is the one the calibration tables divide by
	Seed    uint64    // the executor's random seed
	// TraceLabel is the run whose per-IO records are kept for the trace plot (TraceLabel).
	TraceLabel string
	// Findings checks uFLIP's findings on every device.
	Findings bool
	// Base is the output directory ("" for no files): each device writes there with one
	// device, under Base/NAME with several.
	Base string
}

// Dir returns the output directory of d ("" for no files).
func (s *Suite) Dir(d *Device) string {
	if s.Base == "" || len(s.Devices) == 1 {
		return s.Base
	}
	return filepath.Join(s.Base, d.Name)
}

// Run runs the plan on every device in turn, writing each one's text tables to w as it
// finishes (runs, firmware counters, statistics, a power cut's table), then the findings
// and the calibration tables, and under Base each device's ios.csv, runs.csv, stats.csv
// and findings.txt, then uflip.json and uflip.csv.
func (s *Suite) Run(w io.Writer) error {
	for _, d := range s.Devices {
		if err := s.execute(d); err != nil {
			return fmt.Errorf("%s: %w", d.Name, err)
		}
		d.Points = uflip.Points(s.Plan, d.Runs)
		if err := s.writeDevice(w, d); err != nil {
			return err
		}
	}
	if s.Findings {
		for _, d := range s.Devices {
			if err := s.findings(w, d); err != nil {
				return err
			}
		}
	}
	for _, d := range s.Devices[1:] {
		if err := calibrationTable(s.Devices[0], d).WriteText(w); err != nil {
			return err
		}
	}
	if s.Base == "" {
		return nil
	}
	if err := report.WriteFile(filepath.Join(s.Base, "uflip.json"), s.WriteJSON); err != nil {
		return err
	}
	return s.CSV().SaveCSV(filepath.Join(s.Base, "uflip.csv"))
}

// writeDevice writes what d measured for people (and its stats.csv).
func (s *Suite) writeDevice(w io.Writer, d *Device) error {
	if d.PowerLoss != nil {
		st := s.Plan.Steps[d.CutStep]
		fmt.Fprintf(w, "%s; on %s the cut stopped step %d of %d (%s): the runs below are those completed before it\n",
			runner.CutLine(d.PowerLoss), d.Name, d.CutStep+1, len(s.Plan.Steps), st.Label)
	}
	if err := runTable(d, s.Plan.Spec.Auto.On()).WriteText(w); err != nil {
		return err
	}
	if d.M != nil {
		// The firmware's own counters over the whole plan: what decides the findings
		// (buffer stalls and evictions, GC) is visible beside the latencies.
		st := d.M.SSD.FW.Stats
		if _, err := fmt.Fprintf(w, "firmware on %s: %d pages written, %d writes stalled for buffer room (%s in all), "+
			"%d foreground and %d background page evictions, %d GC runs moving %d pages\n", d.Name, st.WritePages,
			st.Stalls, report.Duration(st.StallTime), st.ForegroundEvictions, st.BackgroundEvictions, st.GCRuns, st.GCPagesMoved); err != nil {
			return err
		}
		if fl := d.M.SSD.FW.FTL(); fl.Hybrid() {
			fs := fl.Stats
			if _, err := fmt.Fprintf(w, "ftl on %s (mapping %s): %d switch, %d partial and %d full merges copying %d pages, %d erases\n",
				d.Name, fl.Config().Mapping, fs.SwitchMerges, fs.PartialMerges, fs.FullMerges, fs.MergeCopies, fs.Erases); err != nil {
				return err
			}
		}
		ssd := d.ssd()
		if err := ssd.StatsTable().WriteText(w); err != nil {
			return err
		}
		if dir := s.Dir(d); dir != "" {
			if err := ssd.StatsCSV().SaveCSV(filepath.Join(dir, "stats.csv")); err != nil {
				return err
			}
		}
	}
	if d.PowerLoss != nil {
		fmt.Fprintln(w)
		return d.powerLossTable().WriteText(w)
	}
	return nil
}

// findings checks uFLIP's findings on d and writes them to w and its findings.txt.
func (s *Suite) findings(w io.Writer, d *Device) error {
	fs := uflip.Findings(d.Points, s.Plan.Spec.IOSize)
	if d.logBlock() {
		fs = uflip.FindingsLogBlock(d.Points, s.Plan.Spec.IOSize)
	}
	d.Findings = fs
	if err := writeFindings(w, d.Name, fs); err != nil {
		return err
	}
	if dir := s.Dir(d); dir != "" {
		return report.WriteFile(filepath.Join(dir, "findings.txt"), func(w io.Writer) error { return writeFindings(w, d.Name, fs) })
	}
	return nil
}

// execute runs the plan on d, streaming per-IO records to CSV and keeping the traced run's.
func (s *Suite) execute(d *Device) error {
	dir := s.Dir(d)
	var iw *uflip.IOWriter
	var ios *os.File
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		f, err := os.Create(filepath.Join(dir, "ios.csv"))
		if err != nil {
			return err
		}
		defer f.Close() // a second Close after the checked one below is harmless
		iw = uflip.NewIOWriter(f)
		ios = f
	}
	x := &uflip.Executor{Dev: d.Dev, Seed: s.Seed, RunPause: s.Plan.Spec.RunPause, IOSink: func(r uflip.IORecord) {
		if iw != nil {
			iw.Write(r)
		}
		if r.Label == s.TraceLabel && r.Rep == 0 && r.Stream == 0 {
			d.Trace = append(d.Trace, r)
		}
	}}
	var res uflip.Result
	var runErr error
	d.Eng.Spawn("uflip", func(p *sim.Proc) {
		runErr = x.RunPlan(p, s.Plan, &res)
		d.Eng.Stop()
	})
	d.Eng.Run()
	if runErr != nil {
		return runErr
	}
	if d.M != nil {
		pl, rec, err := runner.CutOutcome(d.M.Machine)
		if err != nil {
			return err
		}
		// A cut stops the plan in step res.Steps; the runs completed before it are kept.
		d.PowerLoss, d.Recovery, d.CutStep = pl, rec, res.Steps
	}
	d.Runs = res.Runs
	if iw == nil {
		return nil
	}
	if err := iw.Flush(); err != nil {
		return err
	}
	if err := ios.Close(); err != nil {
		return err
	}
	return report.WriteFile(filepath.Join(dir, "runs.csv"), func(w io.Writer) error { return uflip.WriteRunCSV(w, res.Runs) })
}

// TraceLabel picks the run whose per-IO trace is plotted: want when it is a run of plan,
// else the RW run at the plan's IO size, else the first run.
func TraceLabel(plan *uflip.Plan, want string) (string, error) {
	var first, rw string
	for _, st := range plan.Steps {
		if st.Kind != uflip.StepRun {
			continue
		}
		if want != "" && st.Label == want {
			return st.Label, nil
		}
		if first == "" {
			first = st.Label
		}
		if rw == "" && st.Run.Base == uflip.RW && st.Run.Second == nil && st.Run.IOSize == plan.Spec.IOSize && st.Run.ParallelDegree <= 1 {
			rw = st.Label
		}
	}
	if want != "" {
		return "", fmt.Errorf("--trace-run %q is not a run of this plan (labels are printed in the runs table, e.g. %q)", want, first)
	}
	if rw != "" {
		return rw, nil
	}
	return first, nil
}
