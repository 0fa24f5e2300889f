package fiorun

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fastdrain-sim/fastdrain/energy"
	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
)

// document is fio's JSON document (fio.Report) with the simulated SSD's statistics as
// replay.json has them ("ssd_stats": name and value, runner.Result.StatValues); fio's own
// readers ignore the extra member.
type document struct {
	fio.ReportJSON
	SSDStats []runner.StatValue `json:"ssd_stats"`
	// PowerLoss is what a scripted power cut did and recovery found (absent without one).
	PowerLoss *report.Table `json:"power_loss,omitempty"`
}

// JSON returns a function writing fio's JSON document (json+ with plus: fio's latency
// bins) with the SSD's statistics; version names the program in it.
func (r *Result) JSON(version string, plus bool) func(io.Writer) error {
	return func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		rep := fio.Report(r.Jobs, r.Results, version)
		if plus {
			rep = fio.ReportPlus(r.Jobs, r.Results, version)
		}
		return enc.Encode(document{rep, r.SSD.StatValues(), r.SSD.PowerLossTable()})
	}
}

// WriteDir writes dir/fio.json, dir/fio.csv, dir/fio-stats.csv and the jobs' fio logs
// (fio.WriteLogs: NAME_lat.N.log and the others, N the copy's 1-based position among all job
// copies of the file, as fio numbers them).
func (r *Result) WriteDir(dir, version string, plus bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := report.WriteFile(filepath.Join(dir, "fio.json"), r.JSON(version, plus)); err != nil {
		return err
	}
	if err := r.CSV().SaveCSV(filepath.Join(dir, "fio.csv")); err != nil {
		return err
	}
	if err := r.SSD.StatsCSV().SaveCSV(filepath.Join(dir, "fio-stats.csv")); err != nil {
		return err
	}
	return fio.WriteLogs(dir, r.Jobs, r.Results)
}

// WriteCutBeforeJobs reports a power cut (firmware.power_loss.cut_at) that came before the
// jobs started (during the idle span, a job's startdelay or the laying out of the jobs'
// files): the cut, and what it did and recovery found (the SSD's power-loss table).
func (r *Result) WriteCutBeforeJobs(w io.Writer) error {
	fmt.Fprintf(w, "%s; no job had started\n\n", runner.CutLine(r.SSD.PowerLoss))
	return r.SSD.PowerLossTable().WriteText(w)
}

// CutNote is the sentence about a power cut that stopped the jobs ("" without one).
func (r *Result) CutNote() string {
	if r.SSD.PowerLoss == nil {
		return ""
	}
	return fmt.Sprintf("%s; the jobs' results are of the IOs completed before it; %d IOs in flight at the cut never completed\n",
		runner.CutLine(r.SSD.PowerLoss), r.InFlight)
}

// WriteText writes the results for people: the jobs' table, the SSD's statistics, a power
// cut's table, the energy of the idle span and of the jobs, and the notes about faults.
func (r *Result) WriteText(w io.Writer) error {
	if err := r.Table().WriteText(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if err := r.SSD.StatsTable().WriteText(w); err != nil {
		return err
	}
	if plt := r.SSD.PowerLossTable(); plt != nil {
		fmt.Fprintln(w)
		if err := plt.WriteText(w); err != nil {
			return err
		}
	}
	for _, a := range []struct {
		title string
		acct  *energy.Account
	}{{"energy while idle", r.Idle}, {"energy of the jobs", r.Energy}} {
		if a.acct == nil {
			continue
		}
		fmt.Fprintln(w)
		if err := a.acct.Table(fmt.Sprintf("%s (%s)", a.title, report.Duration(a.acct.To-a.acct.From))).WriteText(w); err != nil {
			return err
		}
	}
	if notes := r.Notes(); len(notes) > 0 {
		fmt.Fprintln(w)
		runner.WriteNotes(w, "fio", notes)
	}
	return nil
}

// Notes are the sentences about faults after fio's table: each job an I/O error stopped
// (fio stops a job at its first error), then what happened to the drive (the SSD's notes).
func (r *Result) Notes() []string {
	var notes []string
	for _, j := range r.Results {
		if j.Err != "" {
			notes = append(notes, fmt.Sprintf("job %s stopped at its first I/O error, %s after it started, as fio stops a job (errno %d): %s.",
				j.Name, report.Duration(j.ErrAt), j.Errno, j.Err))
		}
	}
	return append(notes, r.SSD.Notes()...)
}
