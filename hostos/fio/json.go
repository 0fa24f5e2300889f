package fio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// DefaultPercentiles is fio's default clat percentile list.
var DefaultPercentiles = []float64{1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99}

// Percentiles maps a percentile to a latency in ns; it marshals as a JSON object whose keys
// are fio's "%f" spelling ("99.000000") in list order.
type Percentiles struct {
	P  []float64
	Ns []int64
}

// MarshalJSON writes {"1.000000": 1234, …}.
func (p Percentiles) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, q := range p.P {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:%d", strconv.FormatFloat(q, 'f', 6, 64), p.Ns[i])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// LatNs is fio's latency summary in ns: min, max, mean, stddev, N and, for clat_ns, the
// percentiles.
type LatNs struct {
	Min        int64        `json:"min"`
	Max        int64        `json:"max"`
	Mean       float64      `json:"mean"`
	Stddev     float64      `json:"stddev"`
	N          uint64       `json:"N"`
	Percentile *Percentiles `json:"percentile,omitempty"`
}

// DirJSON is one of fio's read/write/trim objects.
type DirJSON struct {
	IOBytes  int64   `json:"io_bytes"`
	IOKBytes int64   `json:"io_kbytes"`
	BwBytes  int64   `json:"bw_bytes"`
	Bw       int64   `json:"bw"` // KiB/s
	IOPS     float64 `json:"iops"`
	Runtime  int64   `json:"runtime"` // ms
	TotalIOs int64   `json:"total_ios"`
	ShortIOs int64   `json:"short_ios"`
	DropIOs  int64   `json:"drop_ios"`
	SlatNs   LatNs   `json:"slat_ns"`
	ClatNs   LatNs   `json:"clat_ns"`
	LatNs    LatNs   `json:"lat_ns"`
}

// SyncJSON is fio's sync object (the flushes that fsync= issues).
type SyncJSON struct {
	TotalIOs int64 `json:"total_ios"`
	LatNs    LatNs `json:"lat_ns"`
}

// JobJSON is one entry of fio's jobs array.
type JobJSON struct {
	JobName    string            `json:"jobname"`
	GroupID    int               `json:"groupid"`
	Error      int               `json:"error"`
	Elapsed    int64             `json:"elapsed"` // s, rounded up as fio does
	JobOptions map[string]string `json:"job options"`
	Read       DirJSON           `json:"read"`
	Write      DirJSON           `json:"write"`
	Trim       DirJSON           `json:"trim"`
	Sync       SyncJSON          `json:"sync"`
}

// ReportJSON is fio's --output-format=json document.
type ReportJSON struct {
	FioVersion string    `json:"fio version"`
	Jobs       []JobJSON `json:"jobs"`
}

// psToNs rounds a time in ps to the nearest ns.
func psToNs(ps int64) int64 { return (ps + 500) / 1000 }

// latNs summarises d's latencies; pct nil leaves the percentiles out.
func latNs(d *DirStats, pct []float64) LatNs {
	h := &d.Lat
	if h.Count() == 0 {
		return LatNs{}
	}
	l := LatNs{Min: psToNs(h.Min()), Max: psToNs(h.Max()), Mean: h.Mean() / 1e3, Stddev: d.StddevNs(), N: h.Count()}
	if pct != nil {
		p := &Percentiles{P: pct, Ns: make([]int64, len(pct))}
		for i, q := range pct {
			p.Ns[i] = psToNs(h.Quantile(report.Fraction(q))) // q/100 in decimal: 99.9 asks rank 999 of 1,000
		}
		l.Percentile = p
	}
	return l
}

// dirJSON converts d measured over span (ps).
func dirJSON(d *DirStats, span sim.Time, pct []float64) DirJSON {
	secs := max(span, 1).Seconds()
	bw := int64(math.Round(float64(d.Bytes) / secs))
	o := DirJSON{IOBytes: d.Bytes, IOKBytes: d.Bytes / 1024, BwBytes: bw, Bw: bw / 1024,
		IOPS: float64(d.IOs) / secs, TotalIOs: d.IOs, ClatNs: latNs(d, pct), LatNs: latNs(d, nil)}
	if d.IOs > 0 {
		o.Runtime = int64(math.Round(float64(span) / float64(sim.Millisecond)))
	}
	return o
}

// jobOptions lists a job's resolved options as fio's "job options" strings.
func jobOptions(j Job) map[string]string {
	o := map[string]string{
		"rw": j.RW.String(), "bs": strconv.FormatInt(j.BS, 10), "iodepth": strconv.FormatInt(j.IODepth, 10),
		"numjobs": strconv.FormatInt(j.NumJobs, 10), "size": strconv.FormatInt(j.Size, 10),
		"offset": strconv.FormatInt(j.Offset, 10), "direct": boolStr(j.Direct),
	}
	if j.BSRangeMax > 0 {
		o["bsrange"] = fmt.Sprintf("%d-%d", j.BS, j.BSRangeMax)
	}
	if len(j.BSSplit) > 0 {
		parts := make([]string, len(j.BSSplit))
		for i, b := range j.BSSplit {
			parts[i] = fmt.Sprintf("%d/%d", b.Size, b.Pct)
		}
		o["bssplit"] = strings.Join(parts, ":")
	}
	if j.RW.Mixed() {
		o["rwmixread"] = strconv.FormatInt(j.RWMixRead, 10)
	}
	if j.IOEngine != "" {
		o["ioengine"] = j.IOEngine
	}
	if j.IOSize > 0 {
		o["io_size"] = strconv.FormatInt(j.IOSize, 10)
	}
	if j.Runtime > 0 {
		o["runtime"] = strconv.FormatInt(int64(j.Runtime/sim.Millisecond), 10) + "ms"
	}
	if j.TimeBased {
		o["time_based"] = "1"
	}
	if j.Filename != "" {
		o["filename"] = j.Filename
	}
	return o
}

func boolStr(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// MergeResults merges results into one named after the first (fio's group_reporting);
// the merge has no Log and no Copies.
func MergeResults(res []JobResult) JobResult {
	m := res[0]
	m.Log, m.Copies = nil, nil
	m.Read.Lat, m.Write.Lat, m.Flush.Lat = sim.Histogram{Name: m.Read.Lat.Name}, sim.Histogram{Name: m.Write.Lat.Name}, sim.Histogram{Name: m.Flush.Lat.Name}
	m.Read.IOs, m.Read.Bytes, m.Read.SumSq = 0, 0, 0
	m.Write.IOs, m.Write.Bytes, m.Write.SumSq = 0, 0, 0
	m.Flush.IOs, m.Flush.Bytes, m.Flush.SumSq = 0, 0, 0
	for i := range res {
		r := &res[i]
		m.Start, m.End = min(m.Start, r.Start), max(m.End, r.End)
		m.MeasureStart = min(m.MeasureStart, r.MeasureStart)
		if m.Err == "" && r.Err != "" {
			m.Err, m.Errno, m.ErrAt = r.Err, r.Errno, r.ErrAt
		}
		for _, op := range []uflip.Op{uflip.OpRead, uflip.OpWrite, uflip.OpFlush} {
			d, s := m.Dir(op), r.Dir(op)
			d.IOs += s.IOs
			d.Bytes += s.Bytes
			d.SumSq += s.SumSq
			d.Lat.Merge(&s.Lat)
		}
	}
	return m
}

// Report builds fio's JSON document for jobs and their results (one per job, in order).
// Each copy of a job (numjobs) is one entry, as in fio; with group_reporting on the first
// job, all results are merged into one entry. Each
// direction is measured from the end of the ramp to the job's last completion.
func Report(jobs []Job, res []JobResult, version string) ReportJSON {
	rep := ReportJSON{FioVersion: version}
	type entry struct {
		job int
		r   JobResult
	}
	var es []entry
	switch {
	case len(jobs) > 0 && jobs[0].GroupReporting:
		es = []entry{{0, MergeResults(res)}}
	default: // fio reports every copy of a job as a job of the same name
		for i := range res {
			if len(res[i].Copies) == 0 {
				es = append(es, entry{i, res[i]})
			}
			for _, c := range res[i].Copies {
				es = append(es, entry{i, c})
			}
		}
	}
	for _, e := range es {
		j, r := jobs[e.job], e.r
		pct := j.Percentiles
		if pct == nil {
			pct = DefaultPercentiles
		}
		span := r.End - r.MeasureStart
		el := int64(math.Ceil((r.End - r.Start).Seconds()))
		jj := JobJSON{JobName: r.Name, Error: r.Errno, Elapsed: el, JobOptions: jobOptions(j),
			Read: dirJSON(&r.Read, span, pct), Write: dirJSON(&r.Write, span, pct), Trim: dirJSON(&DirStats{}, span, pct),
			Sync: SyncJSON{TotalIOs: r.Flush.IOs, LatNs: latNs(&r.Flush, nil)}}
		rep.Jobs = append(rep.Jobs, jj)
	}
	return rep
}

// WriteJSON writes the report as indented JSON.
func (r ReportJSON) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteLatLog writes r's per-I/O records in fio's latency log format, one line per read
// or write: completion time in ms since the run started, latency in ns, direction (0 read,
// 1 write), block size in bytes, offset in bytes. Flushes are not logged.
func WriteLatLog(w io.Writer, r *JobResult) error {
	bw := bufio.NewWriter(w)
	for _, l := range r.Log {
		if l.Op == uflip.OpFlush {
			continue
		}
		dir := 0
		if l.Op == uflip.OpWrite {
			dir = 1
		}
		fmt.Fprintf(bw, "%d, %d, %d, %d, %d\n", int64(l.At/sim.Millisecond), psToNs(int64(l.Lat)), dir, l.Size, l.Offset)
	}
	return bw.Flush()
}
