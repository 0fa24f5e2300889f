package fio

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// fio's log files (fio HOWTO, "Log File Formats"): one line per I/O, or per direction and
// averaging window with log_avg_msec, of
//
//	time (ms), value, data direction (0 read, 1 write, 2 trim), block size (bytes), [offset (bytes),] command priority
//
// where the offset column is there only with log_offset=1, and the value is the latency in
// ns (the _lat, _clat and _slat logs), the bandwidth in KiB/s (_bw) or the IOPS (_iops; 1
// per I/O). With log_avg_msec, block size and offset are 0 and the value is the window's
// mean (log_max_value: its maximum) latency, its bandwidth or its IOPS. The command
// priority is always 0: priorities are not modelled.

// logs reports whether the job writes any log.
func (j Job) logs() bool { return j.WriteLatLog != "" || j.WriteBWLog != "" || j.WriteIOPSLog != "" }

// ioLog holds a copy's log: per-I/O records, or closed averaging windows.
type ioLog struct {
	records []LatRecord // per I/O (log_avg_msec = 0), or the windows' rows
	windows []logWindow // log_avg_msec > 0: closed windows
	open    [3]logAcc   // the current window per direction
	winEnd  sim.Time    // end of the current window (since the job's start)
}

// logAcc accumulates one direction's I/Os in a window.
type logAcc struct {
	ios, bytes     int64
	latSum, latMax sim.Time
}

// logWindow is one direction's averaging window.
type logWindow struct {
	end sim.Time
	dir Dir
	acc logAcc
}

// add logs one I/O (At since the job's start); avgMs > 0 averages over windows.
func (l *ioLog) add(rec LatRecord, avgMs int64) {
	if avgMs <= 0 {
		l.records = append(l.records, rec)
		return
	}
	w := sim.Time(avgMs) * sim.Millisecond
	if l.winEnd == 0 {
		l.winEnd = w
	}
	for rec.At >= l.winEnd {
		l.close()
		l.winEnd += w
	}
	a := &l.open[dirOf(rec.Op)]
	a.ios++
	a.bytes += rec.Size
	a.latSum += rec.Lat
	a.latMax = max(a.latMax, rec.Lat)
}

// close ends the current window, keeping a row per direction that did I/O in it.
func (l *ioLog) close() {
	for d := range l.open {
		if l.open[d].ios > 0 {
			l.windows = append(l.windows, logWindow{end: l.winEnd, dir: Dir(d), acc: l.open[d]})
		}
		l.open[d] = logAcc{}
	}
}

// logKind is one of fio's log types.
type logKind uint8

const (
	logLat logKind = iota
	logClat
	logSlat
	logBW
	logIOPS
)

var logSuffix = [...]string{"lat", "clat", "slat", "bw", "iops"}

// writeLog writes one log of a copy. The model does not split the time to submit an I/O
// from the time to complete it, so clat is the whole latency (as lat) and the slat log has
// no lines.
func writeLog(w io.Writer, l *ioLog, kind logKind, j Job) error {
	bw := bufio.NewWriter(w)
	line := func(ms int64, v int64, d Dir, bs, off int64) {
		if j.LogOffset {
			fmt.Fprintf(bw, "%d, %d, %d, %d, %d, 0\n", ms, v, d, bs, off)
		} else {
			fmt.Fprintf(bw, "%d, %d, %d, %d, 0\n", ms, v, d, bs)
		}
	}
	if kind == logSlat {
		return bw.Flush()
	}
	if j.LogAvgMsec > 0 {
		l.close() // the last, partial window
		secs := (sim.Time(j.LogAvgMsec) * sim.Millisecond).Seconds()
		for _, win := range l.windows {
			var v int64
			switch kind {
			case logLat, logClat:
				v = psToNs(int64(win.acc.latSum) / win.acc.ios)
				if j.LogMaxValue {
					v = psToNs(int64(win.acc.latMax))
				}
			case logBW:
				v = int64(float64(win.acc.bytes) / 1024 / secs)
			case logIOPS:
				v = int64(float64(win.acc.ios) / secs)
			}
			line(int64(win.end/sim.Millisecond), v, win.dir, 0, 0)
		}
		return bw.Flush()
	}
	for _, r := range l.records {
		if r.Op == uflip.OpFlush {
			continue // fio logs reads, writes and trims
		}
		var v int64
		switch kind {
		case logLat, logClat:
			v = psToNs(int64(r.Lat))
		case logBW:
			if r.Lat > 0 {
				v = int64(float64(r.Size) / 1024 / r.Lat.Seconds())
			}
		case logIOPS:
			v = 1
		}
		line(int64(r.At/sim.Millisecond), v, dirOf(r.Op), r.Size, r.Offset)
	}
	return bw.Flush()
}

// WriteLatLog writes r's per-I/O records in fio's latency log format: one line per read,
// write or trim (flushes are not logged) of completion time in ms since the job started,
// latency in ns, direction, block size in bytes and command priority 0.
func WriteLatLog(w io.Writer, r *JobResult) error {
	return writeLog(w, &ioLog{records: r.Log}, logLat, Job{})
}

// LogFiles returns the log files the jobs write: for each copy of a job with
// write_lat_log NAME: NAME_lat.N.log, NAME_clat.N.log and NAME_slat.N.log; write_bw_log
// NAME_bw.N.log; write_iops_log NAME_iops.N.log, N counting every job copy of the file
// from 1 as fio numbers its jobs (without ".N" when per_job_logs=0).
func LogFiles(jobs []Job) []string {
	var out []string
	forEachLog(jobs, nil, func(name string, _ *ioLog, _ logKind, _ Job) error {
		out = append(out, name)
		return nil
	})
	return out
}

// forEachLog calls fn for every log file of the jobs (res may be nil: names only).
func forEachLog(jobs []Job, res []JobResult, fn func(name string, l *ioLog, kind logKind, j Job) error) error {
	n := 0
	for i, j := range jobs {
		for k := range int(j.NumJobs) {
			n++
			var l *ioLog
			if res != nil {
				l = res[i].Copies[k].ioLog
			}
			suffix := fmt.Sprintf(".%d.log", n)
			if j.NoPerJobLogs {
				suffix = ".log"
			}
			for _, lk := range []struct {
				prefix string
				kinds  []logKind
			}{{j.WriteLatLog, []logKind{logLat, logClat, logSlat}}, {j.WriteBWLog, []logKind{logBW}}, {j.WriteIOPSLog, []logKind{logIOPS}}} {
				if lk.prefix == "" {
					continue
				}
				for _, kind := range lk.kinds {
					if err := fn(lk.prefix+"_"+logSuffix[kind]+suffix, l, kind, j); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// WriteLogs writes every log file of the jobs into dir.
func WriteLogs(dir string, jobs []Job, res []JobResult) error {
	return forEachLog(jobs, res, func(name string, l *ioLog, kind logKind, j Job) error {
		if l == nil {
			l = &ioLog{}
		}
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		err = writeLog(f, l, kind, j)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	})
}
