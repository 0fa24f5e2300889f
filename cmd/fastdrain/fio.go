package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/fastdrain-sim/fastdrain/energy"
	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/hostos/pagecache"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
)

func newFio() *cobra.Command {
	cf := &configFlags{}
	var idleStr, outputFormat, capStr string
	plus, countEvents := false, false
	var o outputFlags
	cmd := &cobra.Command{
		Use:   "fio JOBFILE",
		Short: "Run fio job files (INI or YAML) on a simulated platform",
		Long: `fio runs the jobs of a fio INI job file, or of a YAML job file with fio's option names
(docs/fio.md lists every option and how it maps), side by side on the simulated machine:
as fio runs them: jobs on /dev/... use the namespace (O_DIRECT), others their own files of the
simulated file system, laid out before the jobs that read them. --format text prints IOPS, bandwidth and latency per job
and direction, then the SSD's energy over the jobs (and over --idle, if given) per
component and activity (docs/energy.md); --format json (or --output-format=json) prints
fio's JSON document instead (--output-format=json+ adds fio's latency bins); --format csv prints one row of numbers per job and direction
(docs/fio.md; not fio's terse format). The simulated SSD's statistics as run reports them
follow the text tables and are fio.json's "ssd_stats". Files go to --out/fio/ (unless
--no-files): fio.json, fio.csv, fio-stats.csv and the jobs' write_lat_log, write_bw_log and
write_iops_log logs (NAME_lat.N.log, …, N counting every job copy of the file from 1). --timeline FILE writes a Perfetto trace of the
resources, the NVMe commands and the sampled firmware and page-cache state, as run and
replay do (docs/outputs.md).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			idle, err := timeFlag("idle", idleStr, false)
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("output-format") {
				if cmd.Flags().Changed("format") && o.format != outputFormat {
					return fmt.Errorf("--format %q and --output-format %q disagree; give one", o.format, outputFormat)
				}
				o.format = outputFormat
				if o.format == "normal" { // fio's name for its text output
					o.format = "text"
				}
				if o.format == "json+" { // fio's JSON with the completion latency bins
					o.format, plus = "json", true
				}
				if o.format == "terse" {
					return errors.New(`--output-format "terse": fio's terse (semicolon) format is not written; --format csv gives the same numbers with a header (docs/fio.md)`)
				}
			}
			if err := o.parse(); err != nil {
				return err
			}
			pcts := o.pcts
			tl, err := o.tl.build()
			if err != nil {
				return err
			}
			m, raw, err := simDevice(cf)
			if err != nil {
				return err
			}
			defer m.Eng.Close()
			jobs, err := decodeFioFile(args[0], m.Host.Cache.Spec())
			if err != nil {
				return err
			}
			if capStr != "" {
				limit, err := fio.ParseDuration(capStr)
				if err != nil || limit <= 0 {
					return fmt.Errorf("--runtime %q: want a positive time such as 10s", capStr)
				}
				fio.CapRuntime(jobs, limit)
			}
			if pcts.list != nil {
				// --percentiles replaces every job's percentile_list.
				for i := range jobs {
					jobs[i].Percentiles = pcts.list
				}
			}
			if logs := fio.LogFiles(jobs); len(logs) > 0 && o.dir() == "" {
				return fmt.Errorf("%s: the jobs write fio logs (%s, …), which go to --out/fio/: drop --no-files or give --out DIR", args[0], logs[0])
			}
			fm, err := hostos.NewFioMachine(m.Host, raw, fio.NeedsDataCheck(jobs))
			if err != nil {
				return err
			}
			smp := traceMachine(m, tl)
			idleMeter, err := runner.NewEnergyMeter(m)
			if err != nil {
				return err
			}
			jobMeter, err := runner.NewEnergyMeter(m)
			if err != nil {
				return err
			}
			var idleAcct, jobAcct *energy.Account
			var res []fio.JobResult
			var x *fio.Execution
			var runErr error
			m.Eng.Spawn("fio", func(p *sim.Proc) {
				defer m.Eng.Stop()
				if idle > 0 {
					// The machine does nothing for the idle span first, metered apart.
					idleMeter.Start(m.Eng)
					p.Sleep(idle)
					idleAcct = idleMeter.Stop(p.Now())
				}
				jobMeter.Start(m.Eng)
				defer func() { jobAcct = jobMeter.Stop(p.Now()) }()
				if x, runErr = fio.StartMachine(p.Engine(), fm, jobs); runErr == nil {
					x.Wait(p)
					res, runErr = x.Results(), x.Err()
				}
			})
			before := m.SSD.FW.Stats
			wasted0 := m.SSD.FW.FTL().Stats.Wasted
			var events *runner.EventCounts
			if countEvents {
				events = runner.CountEvents(m)
			}
			m.Eng.Run()
			if runErr != nil {
				return runErr
			}
			pl, rec, err := runner.CutOutcome(m)
			if err != nil {
				return err
			}
			ssd := runner.MachineStats(m, "fio", wasted0)
			if pl != nil {
				// The cut stopped the jobs: their results are of the IOs completed before it.
				ssd.PowerLoss, ssd.Recovery = pl, rec
				if x == nil || !x.Started() {
					return fioCutBeforeJobs(cmd.OutOrStdout(), ssd)
				}
				res = x.Results()
			}
			if smp != nil {
				if err := o.tl.write(tl, cmd.ErrOrStderr(), smp.Series()); err != nil {
					return err
				}
			}
			if len(res) == 0 {
				return errors.New("fio: no job ran")
			}
			warnUnwritten(cmd.ErrOrStderr(), "", m.SSD.FW.Stats, before)
			fio.WriteVerifyErrors(cmd.ErrOrStderr(), res)
			if pl != nil {
				// Beside the numbers of json and csv, the sentence goes to stderr.
				note := cmd.OutOrStdout()
				if o.format != "text" {
					note = cmd.ErrOrStderr()
				}
				fmt.Fprintf(note, "%s; the jobs' results are of the IOs completed before it; %d IOs in flight at the cut never completed\n",
					runner.CutLine(pl), x.InFlight())
			}
			dir, err := o.runDir(fileStem(args[0]) + "-" + cf.preset)
			if err != nil {
				return err
			}
			if dir != "" {
				if err := writeFioOut(dir, jobs, res, ssd, plus); err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "results written to %s\n", dir)
			}
			if o.format != "text" {
				if err := o.write(nil, func(w io.Writer) error { return writeFioJSON(w, jobs, res, ssd, plus) }, fioCSV(jobs, res).WriteCSV); err != nil {
					return err
				}
				return writeEventCounts(o, events, fioIOs(res))
			}
			t := fioTable(jobs, res)
			w := cmd.OutOrStdout()
			if err := t.WriteText(w); err != nil {
				return err
			}
			fmt.Fprintln(w)
			if err := ssd.StatsTable().WriteText(w); err != nil {
				return err
			}
			if plt := ssd.PowerLossTable(); plt != nil {
				fmt.Fprintln(w)
				if err := plt.WriteText(w); err != nil {
					return err
				}
			}
			for _, a := range []struct {
				title string
				acct  *energy.Account
			}{{"energy while idle", idleAcct}, {"energy of the jobs", jobAcct}} {
				if a.acct == nil {
					continue
				}
				fmt.Fprintln(w)
				if err := a.acct.Table(fmt.Sprintf("%s (%s)", a.title, report.Duration(a.acct.To-a.acct.From))).WriteText(w); err != nil {
					return err
				}
			}
			if notes := fioNotes(res, ssd); len(notes) > 0 {
				fmt.Fprintln(w)
				runner.WriteNotes(w, "fio", notes)
			}
			return writeEventCounts(o, events, fioIOs(res))
		},
	}
	cf.register(cmd, "fastdrain-small")
	cmd.Flags().StringVar(&idleStr, "idle", "0", "simulated time the machine idles before the jobs, metered apart (e.g. 100ms)")
	o.register(cmd, "fio", "json: fio's JSON schema with the SSD's statistics; csv: one row of numbers per job and direction",
		"0s:100ms", "the text table, fio.csv and fio.json's clat_ns percentiles, replacing every job's percentile_list")
	cmd.Flags().StringVar(&outputFormat, "output-format", "text", "fio's name for --format (normal = text, json, json+: json with fio's latency bins)")
	cmd.Flags().StringVar(&capStr, "runtime", "", "fio's --runtime: cap every job's runtime at this (a plain number is seconds)")
	cmd.Flags().BoolVar(&countEvents, "count-events", false, countEventsUsage)
	return cmd
}

// fioIOs returns the host I/Os the jobs completed (reads, writes, trims and flushes).
func fioIOs(res []fio.JobResult) int64 {
	var n int64
	for _, r := range res {
		n += r.Read.IOs + r.Write.IOs + r.Trim.IOs + r.Flush.IOs
	}
	return n
}

// fioJSON is fio's JSON document (fio.Report) with the simulated SSD's statistics as
// replay.json has them ("ssd_stats": name and value, runner.Result.StatValues); fio's own
// readers ignore the extra member.
type fioJSON struct {
	fio.ReportJSON
	SSDStats []runner.StatValue `json:"ssd_stats"`
	// PowerLoss is what a scripted power cut did and recovery found (absent without one).
	PowerLoss *report.Table `json:"power_loss,omitempty"`
}

// writeFioJSON writes fio's JSON document (json+ with plus) with the SSD's statistics.
func writeFioJSON(w io.Writer, jobs []fio.Job, res []fio.JobResult, ssd *runner.Result, plus bool) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	rep := fio.Report(jobs, res, "fastdrain "+version)
	if plus {
		rep = fio.ReportPlus(jobs, res, "fastdrain "+version)
	}
	return enc.Encode(fioJSON{rep, ssd.StatValues(), ssd.PowerLossTable()})
}

// fioCutBeforeJobs reports a power cut (firmware.power_loss.cut_at) that came before the
// jobs started (during --idle, a job's startdelay or the laying out of the jobs' files):
// the cut, and what it did and recovery found (ssd's power-loss table).
func fioCutBeforeJobs(w io.Writer, ssd *runner.Result) error {
	fmt.Fprintf(w, "%s; no job had started\n\n", runner.CutLine(ssd.PowerLoss))
	return ssd.PowerLossTable().WriteText(w)
}

// fioTable is the text table of the results, merged when the first job has group_reporting.
func fioTable(jobs []fio.Job, res []fio.JobResult) *report.Table {
	ps := fioTextPercentiles(jobs)
	h := append([]string{"job", "dir", "IOs", "IOPS", "MB/s", "mean"}, ps.Labels()...)
	t := &report.Table{Title: "fio jobs", Header: append(h, "max")}
	for _, r := range fioGroups(jobs, res) {
		secs := max(r.End-r.MeasureStart, 1).Seconds()
		for _, d := range fioDirs(&r) {
			h := &d.s.Lat
			row := []string{r.Name, d.name, fmt.Sprint(d.s.IOs), fmt.Sprintf("%.0f", float64(d.s.IOs)/secs),
				fmt.Sprintf("%.1f", float64(d.s.Bytes)/secs/1e6), report.Duration(sim.Time(int64(h.Mean())))}
			for _, v := range ps.Quantiles(h) {
				row = append(row, report.Duration(sim.Time(v)))
			}
			t.Append(append(row, report.Duration(sim.Time(h.Max())))...)
		}
	}
	return t
}

// fioGroups returns the results a table reports: each job's, a reporting group of
// group_reporting jobs merged (fio.Groups).
func fioGroups(jobs []fio.Job, res []fio.JobResult) []fio.JobResult {
	return fio.Groups(jobs, res)
}

// fioDir is one direction's statistics of a job's result.
type fioDir struct {
	name string
	s    *fio.DirStats
}

// fioDirs returns the directions of r that did any I/O: read, write, flush in that order.
func fioDirs(r *fio.JobResult) []fioDir {
	var ds []fioDir
	for _, d := range [...]fioDir{{"read", &r.Read}, {"write", &r.Write}, {"trim", &r.Trim}, {"flush", &r.Flush}} {
		if d.s.IOs > 0 {
			ds = append(ds, d)
		}
	}
	return ds
}

// fioTextPercentiles are the text table's percentiles: the jobs' percentile_list when every
// job has the same one (--percentiles sets them all), else p50 and p99.
func fioTextPercentiles(jobs []fio.Job) report.Percentiles {
	first := jobs[0].Percentiles
	for _, j := range jobs[1:] {
		if !slices.Equal(j.Percentiles, first) {
			return fioDefaultText
		}
	}
	if first == nil {
		return fioDefaultText
	}
	// percentile_list keeps fio's order and repeats; the table's columns are sorted.
	ps := slices.Clone(report.Percentiles(first))
	slices.Sort(ps)
	return slices.Compact(ps)
}

// fioDefaultText are the text table's percentiles without a common percentile_list.
var fioDefaultText = report.Percentiles{50, 99}

// writeFioOut writes dir/fio.json, dir/fio.csv, dir/fio-stats.csv and the jobs' fio logs
// (fio.WriteLogs: NAME_lat.N.log and the others, N the copy's 1-based position among all job
// copies of the file, as fio numbers them).
func writeFioOut(dir string, jobs []fio.Job, res []fio.JobResult, ssd *runner.Result, plus bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := report.WriteFile(filepath.Join(dir, "fio.json"), func(w io.Writer) error { return writeFioJSON(w, jobs, res, ssd, plus) }); err != nil {
		return err
	}
	if err := fioCSV(jobs, res).SaveCSV(filepath.Join(dir, "fio.csv")); err != nil {
		return err
	}
	if err := ssd.StatsCSV().SaveCSV(filepath.Join(dir, "fio-stats.csv")); err != nil {
		return err
	}
	return fio.WriteLogs(dir, jobs, res)
}

// decodeFioFile reads a job file as fio would: include directives relative to it, ${VAR}
// from the environment, $pagesize/$mb_memory/$ncpus from the simulated host.
func decodeFioFile(path string, host pagecache.Spec) ([]fio.Job, error) {
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
