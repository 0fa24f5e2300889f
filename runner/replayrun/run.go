package replayrun

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fastdrain-sim/fastdrain/hostos/replay"
	"github.com/fastdrain-sim/fastdrain/hostos/trace"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Options are how a trace is read and replayed.
type Options struct {
	Trace  trace.Options  // how the trace is read
	Replay replay.Options // how its requests are issued
	// Sort reads the whole trace twice and sorts it by time (trace.ReadSorted).
	Sort bool
	// Timeline, if set, records the whole machine (runner.Machine.Trace).
	Timeline *report.Timeline
	// Percentiles are the latency percentiles of every output (nil: the default).
	Percentiles report.Percentiles
}

// Result is what one replay measured.
type Result struct {
	Path   string         // the trace file
	Stats  trace.Stats    // what reading the trace found
	Fit    trace.Options  // the reader's options fitted to the device
	Replay *replay.Result // what the replayer measured
	// SSD is the machine's statistics, with a power cut's report when one happened.
	SSD *runner.Result
	// Summary is the result as numbers (replay.json); nil when the trace held no request.
	Summary *Summary
	// unwritten warns of reads of never-written pages (runner.WarnUnwritten).
	unwritten func(io.Writer) int64
}

// Run replays the trace at path on machine m to its end (or a power cut).
func Run(m *runner.Machine, path string, o Options) (*Result, error) {
	m.Trace(o.Timeline)
	fit := replay.FitOptions(o.Trace, m.Dev)
	r := &Result{Path: path, Fit: fit}
	var src replay.Source
	var format trace.Format
	var rd *trace.Reader
	if o.Sort {
		// The whole trace, read twice and sorted by time (trace.ReadSorted).
		reqs, sst, f, err := trace.ReadSorted(path, fit)
		if err != nil {
			return nil, err
		}
		src, r.Stats, format = replay.FromSlice(reqs), sst, f
	} else {
		tf, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer tf.Close()
		if rd, err = trace.NewReader(tf, path, fit); err != nil {
			return nil, err
		}
		src = rd
	}
	var rp *replay.Replay
	var runErr error
	m.Eng.Spawn("replay", func(p *sim.Proc) {
		if rp, runErr = replay.Start(p.Engine(), m.Dev, src, o.Replay); runErr == nil {
			rp.Wait(p)
			runErr = rp.Err()
		}
		m.Eng.Stop()
	})
	m.Eng.Run()
	if runErr != nil {
		return nil, runErr
	}
	var err error
	if r.SSD, err = m.Outcome("replay"); err != nil {
		return nil, err
	}
	if r.SSD.PowerLoss != nil {
		rp.Stop() // the cut stopped the replay: report what completed before it
	}
	r.Replay = rp.Result()
	if rd != nil {
		r.Stats, format = rd.Stats(), rd.Format()
	}
	if r.Stats.Requests == 0 {
		return r, nil
	}
	r.Summary = newSummary(path, format, fit, r.Stats, r.Replay, o.Percentiles, r.SSD)
	after, before := m.SSD.FW.Stats, m.Before
	r.Summary.UnwrittenReadPages = after.Unmapped - before.Unmapped
	r.unwritten = func(w io.Writer) int64 { return runner.WarnUnwritten(w, "", after, before) }
	return r, nil
}

// Empty returns the error of a trace that held no request (nil when it held some).
func (r *Result) Empty() error {
	if r.Summary != nil {
		return nil
	}
	st := r.Stats
	return fmt.Errorf("%s: no requests in the trace (%d lines: %d ignored by design, %d malformed and skipped)",
		r.Path, st.Lines, st.Ignored, st.Skipped)
}

// WriteWarnings writes the warnings for standard error: reads of never-written pages,
// malformed lines, requests wrapped around the device, requests rounded out to its blocks.
func (r *Result) WriteWarnings(w io.Writer) {
	r.unwritten(w)
	st, fit := &r.Stats, &r.Fit
	for _, s := range st.Warnings {
		fmt.Fprintln(w, "warning:", s)
	}
	if st.WarningsDropped > 0 {
		fmt.Fprintf(w, "warning: %d more malformed lines skipped\n", st.WarningsDropped)
	}
	if st.Wrapped > 0 {
		fmt.Fprintf(w, "warning: %d of %d requests were past the device's %s and wrapped around it (--past-capacity reject refuses them)\n",
			st.Wrapped, st.Requests, mb(fit.Capacity))
	}
	if st.Rounded > 0 {
		fmt.Fprintf(w, "note: %d requests were rounded out to %d B blocks: %s asked, %s moved\n",
			st.Rounded, fit.SectorSize, mb(st.ReadBytesAsked+st.WriteBytesAsked), mb(st.ReadBytes+st.WriteBytes))
	}
}

// WriteText writes the replay for people: a line on the trace and the replay, the
// per-operation table, the per-device table (with more than one device), the SSD's
// statistics, a power cut's table and the notes about faults.
func (r *Result) WriteText(out io.Writer) error {
	s, st, res := r.Summary, &r.Stats, r.Replay
	fmt.Fprintf(out, "%s (%s): %d lines, %d requests (%d reads, %d writes, %d trims, %d flushes), %d skipped; replayed %d in %s simulated, %.0f IOPS\n",
		r.Path, s.TraceFormat, st.Lines, st.Requests, st.Reads, st.Writes, st.Trims, st.Flushes, st.Skipped,
		res.Requests, report.Duration(res.LastCompletion-res.Start), s.IOPS)
	if res.Late > 0 {
		fmt.Fprintf(out, "%d requests issued late (device saturated)\n", res.Late)
	}
	if pl := r.SSD.PowerLoss; pl != nil {
		fmt.Fprintf(out, "%s; the replay's results are of the requests completed before it; %d requests in flight at the cut never completed\n",
			runner.CutLine(pl), res.Unfinished)
	}
	err := s.Table().WriteText(out)
	if err == nil && len(s.Devices) > 2 { // more than one device and the "all" row
		fmt.Fprintln(out)
		err = s.DeviceTable().WriteText(out)
	}
	if err == nil {
		fmt.Fprintln(out)
		err = s.statsTable.WriteText(out)
	}
	if err == nil && s.PowerLoss != nil {
		fmt.Fprintln(out)
		err = s.PowerLoss.WriteText(out)
	}
	if notes := r.Notes(); err == nil && len(notes) > 0 {
		fmt.Fprintln(out)
		runner.WriteNotes(out, "replay", notes)
	}
	return err
}

// Notes are the sentences about faults after replay's tables: the requests the device
// failed (the replay went on past them), then what happened to the drive (the SSD's notes).
func (r *Result) Notes() []string {
	var notes []string
	if res := r.Replay; res.Errors > 0 {
		notes = append(notes, fmt.Sprintf("%d of %d requests failed with an I/O error and the replay went on; the first: %v.",
			res.Errors, res.Requests, res.DeviceErr))
	}
	return append(notes, r.SSD.Notes()...)
}

// WriteDir writes dir/replay.json, replay.csv, replay-devices.csv and replay-stats.csv.
func (r *Result) WriteDir(dir string) error {
	if err := report.WriteFile(filepath.Join(dir, "replay.json"), r.Summary.WriteJSON); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		t    *report.Table
	}{{"replay.csv", r.Summary.Table()}, {"replay-devices.csv", r.Summary.DeviceTable()}, {"replay-stats.csv", r.Summary.StatsCSV()}} {
		if err := f.t.SaveCSV(filepath.Join(dir, f.name)); err != nil {
			return err
		}
	}
	return nil
}

// mb formats bytes as decimal megabytes (10⁶ B) with one decimal.
func mb(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/1e6) }
