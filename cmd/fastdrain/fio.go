package main

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/runner/fiorun"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
)

// fioFlags are the flags of the fio command.
type fioFlags struct {
	cf                          cliflags.Config
	idle, outputFormat, runtime string
	countEvents                 bool
	plus                        bool // --output-format json+
	cliflags.Output
}

func newFio() *cobra.Command {
	ff := &fioFlags{}
	cf, o := &ff.cf, &ff.Output
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
		RunE: func(cmd *cobra.Command, args []string) error { return ff.run(cmd, args[0]) },
	}
	cf.Register(cmd, "fastdrain-small")
	cmd.Flags().StringVar(&ff.idle, "idle", "0", "simulated time the machine idles before the jobs, metered apart (e.g. 100ms)")
	o.Register(cmd, "fio", "json: fio's JSON schema with the SSD's statistics; csv: one row of numbers per job and direction",
		"0s:100ms", "the text table, fio.csv and fio.json's clat_ns percentiles, replacing every job's percentile_list")
	cmd.Flags().StringVar(&ff.outputFormat, "output-format", "text", "fio's name for --format (normal = text, json, json+: json with fio's latency bins)")
	cmd.Flags().StringVar(&ff.runtime, "runtime", "", "fio's --runtime: cap every job's runtime at this (a plain number is seconds)")
	cmd.Flags().BoolVar(&ff.countEvents, "count-events", false, countEventsUsage)
	return cmd
}

// parse checks the flags: --output-format, fio's name for --format
// (fiorun.ParseOutputFormat), and the output contract; it returns --idle.
func (ff *fioFlags) parse(cmd *cobra.Command) (sim.Time, error) {
	idle, err := cliflags.Time("idle", ff.idle, false)
	if err != nil {
		return 0, err
	}
	if !cmd.Flags().Changed("output-format") {
		ff.outputFormat = ""
	}
	if ff.Format, ff.plus, err = fiorun.ParseOutputFormat(ff.outputFormat, ff.Format, cmd.Flags().Changed("format")); err != nil {
		return 0, err
	}
	return idle, ff.Output.Parse()
}

// jobs reads the job file and applies --runtime and --percentiles to its jobs.
func (ff *fioFlags) jobs(path string, m *runner.Machine) ([]fio.Job, error) {
	jobs, err := fiorun.DecodeFile(path, m.Host.Cache.Spec())
	if err != nil {
		return nil, err
	}
	if err := fiorun.ApplyFlags(jobs, ff.runtime, ff.Percentiles.List); err != nil {
		return nil, err
	}
	if logs := fio.LogFiles(jobs); len(logs) > 0 && ff.Dir() == "" {
		return nil, fmt.Errorf("%s: the jobs write fio logs (%s, …), which go to --out/fio/: drop --no-files or give --out DIR", path, logs[0])
	}
	return jobs, nil
}

func (ff *fioFlags) run(cmd *cobra.Command, path string) error {
	idle, err := ff.parse(cmd)
	if err != nil {
		return err
	}
	m, err := openMachine(&ff.cf)
	if err != nil {
		return err
	}
	defer m.Close()
	jobs, err := ff.jobs(path, m)
	if err != nil {
		return err
	}
	res, err := fiorun.Run(m, jobs, fiorun.Options{Idle: idle, Timeline: ff.Timeline.Trace(), CountEvents: ff.countEvents})
	if err != nil || res.CutBeforeJobs {
		if err == nil {
			err = res.WriteCutBeforeJobs(cmd.OutOrStdout())
		}
		return err
	}
	if err := ff.Timeline.Write(cmd.ErrOrStderr(), m.Series()); err != nil {
		return err
	}
	if len(res.Results) == 0 {
		return errors.New("fio: no job ran")
	}
	runner.WarnUnwritten(cmd.ErrOrStderr(), "", m.SSD.FW.Stats, m.Before)
	fio.WriteVerifyErrors(cmd.ErrOrStderr(), res.Results)
	// Beside the numbers of json and csv, the sentence goes to stderr.
	fmt.Fprint(ff.Status(), res.CutNote())
	err = ff.Save(cliflags.FileStem(path)+"-"+ff.cf.Preset, func(dir string) error { return res.WriteDir(dir, "fastdrain "+version, ff.plus) })
	if err != nil {
		return err
	}
	if err := ff.Write(res.WriteText, res.JSON("fastdrain "+version, ff.plus), res.CSV().WriteCSV); err != nil {
		return err
	}
	return writeEventCounts(ff.Output, res.Events, res.IOs())
}
