package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/fastdrain-sim/fastdrain/energy"
	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
)

func newFio() *cobra.Command {
	cf := &configFlags{}
	var idleStr string
	cmd := &cobra.Command{
		Use:   "fio JOBFILE",
		Short: "Run fio-like YAML jobs on a simulated platform",
		Long: `fio runs the jobs of a YAML job file (hostos/fio: rw, bs, iodepth, numjobs, size, offset,
rwmixread, runtime, io_size, direct, fsync, ramp_time, randseed, with fio's meanings) side by
side on the simulated machine: direct jobs on the raw block device (O_DIRECT), buffered jobs on
a file in the page cache (all jobs of a file must agree), and prints IOPS, bandwidth and
latency per job and direction, then the SSD's energy over the jobs (and over --idle, if
given) per component and activity (docs/energy.md).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			idle, err := sim.ParseTime(idleStr)
			if err != nil || idle < 0 {
				return fmt.Errorf("--idle %q: want a time such as 100ms", idleStr)
			}
			f, err := os.Open(args[0])
			if err != nil {
				return err
			}
			jobs, err := fio.Decode(f, args[0])
			f.Close()
			if err != nil {
				return err
			}
			direct := jobs[0].Direct
			for _, j := range jobs {
				if j.Direct != direct {
					return fmt.Errorf("%s: job %q has direct=%v but job %q has direct=%v; run them from separate files",
						args[0], jobs[0].Name, direct, j.Name, j.Direct)
				}
			}
			m, raw, err := simDevice(cf)
			if err != nil {
				return err
			}
			defer m.Eng.Close()
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
				var dev uflip.Device = raw
				capacity := raw.Capacity()
				if !direct {
					// Buffered jobs share one file covering the jobs' regions.
					var size int64
					for _, j := range jobs {
						off, n, err := j.Region(capacity)
						if err != nil {
							runErr = err
							return
						}
						size = max(size, off+n)
					}
					fd, err := hostos.NewFileDevice(p, m.Host, "fio.data", size, false)
					if err != nil {
						runErr = err
						return
					}
					dev, capacity = fd, size
				}
				res, runErr = fio.Run(p, dev, capacity, jobs)
			})
			m.Eng.Run()
			if runErr != nil {
				return runErr
			}
			if len(res) == 0 {
				return errors.New("fio: no job ran")
			}
			t := &report.Table{Title: "fio jobs", Header: []string{"job", "dir", "IOs", "IOPS", "MB/s", "mean", "p50", "p99", "max"}}
			for _, r := range res {
				secs := max(r.End-r.Start, 1).Seconds()
				for _, d := range []struct {
					name string
					s    *fio.DirStats
				}{{"read", &r.Read}, {"write", &r.Write}, {"flush", &r.Flush}} {
					if d.s.IOs == 0 {
						continue
					}
					h := &d.s.Lat
					t.Append(r.Name, d.name, fmt.Sprint(d.s.IOs), fmt.Sprintf("%.0f", float64(d.s.IOs)/secs),
						fmt.Sprintf("%.1f", float64(d.s.Bytes)/secs/1e6), report.Duration(sim.Time(int64(h.Mean()))),
						report.Duration(sim.Time(h.Quantile(0.5))), report.Duration(sim.Time(h.Quantile(0.99))), report.Duration(sim.Time(h.Max())))
				}
			}
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
	return cmd
}
