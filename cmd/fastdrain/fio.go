package main

import (
	"errors"
	"fmt"
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
	var idleStr, format, outputFormat, out, capStr string
	var pcts percentileFlag
	var tlf timelineFlags
	cmd := &cobra.Command{
		Use:   "fio JOBFILE",
		Short: "Run fio job files (INI or YAML) on a simulated platform",
		Long: `fio runs the jobs of a fio INI job file, or of a YAML job file with fio's option names
(docs/fio.md lists every option and how it maps), side by side on the simulated machine:
direct jobs on the raw block device (O_DIRECT), buffered jobs on a file in the page cache
(all jobs of a file must agree). --format text prints IOPS, bandwidth and latency per job
and direction, then the SSD's energy over the jobs (and over --idle, if given) per
component and activity (docs/energy.md); --format json (or --output-format=json) prints
fio's JSON document instead; --format csv prints one row of numbers per job and direction
(docs/fio.md; not fio's terse format). --out DIR also writes DIR/fio.json, DIR/fio.csv and
the write_lat_log logs (NAME_lat.N.log, N counting every job copy of the file from 1).
--timeline FILE writes a Perfetto trace of the resources, the NVMe commands and the
sampled firmware and page-cache state, as run and replay do (docs/outputs.md).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			idle, err := sim.ParseTime(idleStr)
			if err != nil || idle < 0 {
				return fmt.Errorf("--idle %q: want a time such as 100ms", idleStr)
			}
			if cmd.Flags().Changed("output-format") {
				if cmd.Flags().Changed("format") && format != outputFormat {
					return fmt.Errorf("--format %q and --output-format %q disagree; give one", format, outputFormat)
				}
				format = outputFormat
				if format == "normal" { // fio's name for its text output
					format = "text"
				}
				if format == "terse" {
					return errors.New(`--output-format "terse": fio's terse (semicolon) format is not written; --format csv gives the same numbers with a header (docs/fio.md)`)
				}
			}
			if format != "text" && format != "json" && format != "json+" && format != "csv" {
				return fmt.Errorf("--format %q: want text, json, json+ or csv", format)
			}
			if err := pcts.parse(); err != nil {
				return err
			}
			tl, err := tlf.build()
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
			if logs := fio.LogFiles(jobs); len(logs) > 0 && out == "" {
				return fmt.Errorf("%s: the jobs write fio logs (%s, …): give --out DIR for them", args[0], logs[0])
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
				res, runErr = fio.RunMachine(p, fm, jobs)
			})
			before := m.SSD.FW.Stats
			m.Eng.Run()
			if runErr != nil {
				return runErr
			}
			if smp != nil {
				if err := tlf.write(tl, cmd.ErrOrStderr(), smp.Series()); err != nil {
					return err
				}
			}
			if len(res) == 0 {
				return errors.New("fio: no job ran")
			}
			warnUnwritten(cmd.ErrOrStderr(), "", m.SSD.FW.Stats, before)
			fio.WriteVerifyErrors(cmd.ErrOrStderr(), res)
			if out != "" {
				if err := writeFioOut(out, jobs, res); err != nil {
					return err
				}
			}
			switch format {
			case "json":
				return fio.Report(jobs, res, "fastdrain "+version).WriteJSON(cmd.OutOrStdout())
			case "json+":
				return fio.ReportPlus(jobs, res, "fastdrain "+version).WriteJSON(cmd.OutOrStdout())
			case "csv":
				return fioCSV(jobs, res).WriteCSV(cmd.OutOrStdout())
			}
			t := fioTable(jobs, res)
			w := cmd.OutOrStdout()
			if err := t.WriteText(w); err != nil {
				return err
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
			return nil
		},
	}
	cf.register(cmd, "fastdrain-small")
	cmd.Flags().StringVar(&idleStr, "idle", "0", "simulated time the machine idles before the jobs, metered apart (e.g. 100ms)")
	cmd.Flags().StringVar(&format, "format", "text", "terminal output: text, json (fio's JSON schema) or csv (one row of numbers per job and direction)")
	cmd.Flags().StringVar(&outputFormat, "output-format", "text", "fio's name for --format (normal = text, json, json+)")
	cmd.Flags().StringVar(&out, "out", "", "directory for fio.json, fio.csv and latency logs (empty: no files)")
	cmd.Flags().StringVar(&capStr, "runtime", "", "fio's --runtime: cap every job's runtime at this (a plain number is seconds)")
	pcts.register(cmd, "the text table, fio.csv and fio.json's clat_ns percentiles, replacing every job's percentile_list")
	tlf.register(cmd, "0s:100ms")
	return cmd
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

// fioGroups returns the results a table reports: one merged result with group_reporting
// (the jobs' first section sets it for all), else each job's.
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

// writeFioOut writes dir/fio.json, dir/fio.csv and a NAME_lat.N.log per copy of each write_lat_log job
// (N: the copy's 1-based position among all job copies of the file, as fio numbers them)
// and the bandwidth and IOPS logs the jobs ask for.
func writeFioOut(dir string, jobs []fio.Job, res []fio.JobResult) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "fio.json"))
	if err != nil {
		return err
	}
	err = fio.Report(jobs, res, "fastdrain "+version).WriteJSON(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := fioCSV(jobs, res).SaveCSV(filepath.Join(dir, "fio.csv")); err != nil {
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
