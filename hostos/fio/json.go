package fio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"

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
	return orderedObject(len(p.P), func(i int) (string, string) {
		return strconv.FormatFloat(p.P[i], 'f', 6, 64), strconv.FormatInt(p.Ns[i], 10)
	}), nil
}

// orderedObject writes a JSON object of n members in order; member i's key (quoted here)
// and value (already JSON) come from kv.
func orderedObject(n int, kv func(i int) (key, value string)) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		k, v := kv(i)
		fmt.Fprintf(&b, "%q:%s", k, v)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// Bins are fio's json+ completion latency bins: each non-empty bin as "midpoint ns": count,
// in increasing latency.
type Bins struct {
	b latBins
}

// MarshalJSON writes {"87552": 1, …}.
func (x Bins) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	for i, n := range x.b {
		if n == 0 {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		fmt.Fprintf(&b, "\"%d\":%d", binValue(i), n)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// LatNs is fio's latency summary in ns: min, max, mean, stddev, N and, for clat_ns, the
// percentiles (and with json+ the bins).
type LatNs struct {
	Min        int64        `json:"min"`
	Max        int64        `json:"max"`
	Mean       float64      `json:"mean"`
	Stddev     float64      `json:"stddev"`
	N          uint64       `json:"N"`
	Percentile *Percentiles `json:"percentile,omitempty"`
	Bins       *Bins        `json:"bins,omitempty"`
}

// DirJSON is one of fio's read/write/trim objects (fio 3.x's keys, in its order).
type DirJSON struct {
	IOBytes     int64   `json:"io_bytes"`
	IOKBytes    int64   `json:"io_kbytes"`
	BwBytes     int64   `json:"bw_bytes"`
	Bw          int64   `json:"bw"` // KiB/s
	IOPS        float64 `json:"iops"`
	Runtime     int64   `json:"runtime"` // ms
	TotalIOs    int64   `json:"total_ios"`
	ShortIOs    int64   `json:"short_ios"`
	DropIOs     int64   `json:"drop_ios"`
	SlatNs      LatNs   `json:"slat_ns"`
	ClatNs      LatNs   `json:"clat_ns"`
	LatNs       LatNs   `json:"lat_ns"`
	BwMin       int64   `json:"bw_min"`
	BwMax       int64   `json:"bw_max"`
	BwAgg       float64 `json:"bw_agg"`
	BwMean      float64 `json:"bw_mean"`
	BwDev       float64 `json:"bw_dev"`
	BwSamples   int64   `json:"bw_samples"`
	IOPSMin     int64   `json:"iops_min"`
	IOPSMax     int64   `json:"iops_max"`
	IOPSMean    float64 `json:"iops_mean"`
	IOPSStddev  float64 `json:"iops_stddev"`
	IOPSSamples int64   `json:"iops_samples"`
}

// SyncJSON is fio's sync object (the fsyncs and fdatasyncs a job issued).
type SyncJSON struct {
	TotalIOs int64 `json:"total_ios"`
	LatNs    LatNs `json:"lat_ns"`
}

// Buckets is one of fio's latency or depth distributions: keys in fio's order, values in
// percent.
type Buckets struct {
	Keys []string
	Pct  []float64
}

// MarshalJSON writes the buckets in order.
func (b Buckets) MarshalJSON() ([]byte, error) {
	return orderedObject(len(b.Keys), func(i int) (string, string) {
		return b.Keys[i], strconv.FormatFloat(b.Pct[i], 'f', 6, 64)
	}), nil
}

// OptionsJSON is a job's options as written, in file order.
type OptionsJSON []Option

// MarshalJSON writes {"key": "value", …}; a later repeat of a key replaces the earlier.
func (o OptionsJSON) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	last := map[string]int{}
	for i, kv := range o {
		last[kv.Key] = i
	}
	first := true
	for i, kv := range o {
		if last[kv.Key] != i {
			continue
		}
		if !first {
			buf.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(kv.Key)
		v, _ := json.Marshal(kv.Value)
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// JobJSON is one entry of fio's jobs array (fio 3.x's keys, in its order).
type JobJSON struct {
	JobName           string      `json:"jobname"`
	GroupID           int         `json:"groupid"`
	JobStart          int64       `json:"job_start"` // ms since the simulated epoch
	Error             int         `json:"error"`
	ETA               int64       `json:"eta"`
	Elapsed           int64       `json:"elapsed"` // s, rounded up as fio does
	JobOptions        OptionsJSON `json:"job options"`
	Read              DirJSON     `json:"read"`
	Write             DirJSON     `json:"write"`
	Trim              DirJSON     `json:"trim"`
	Sync              SyncJSON    `json:"sync"`
	JobRuntime        int64       `json:"job_runtime"` // ms
	UsrCPU            float64     `json:"usr_cpu"`
	SysCPU            float64     `json:"sys_cpu"`
	Ctx               int64       `json:"ctx"`
	Majf              int64       `json:"majf"`
	Minf              int64       `json:"minf"`
	IODepthLevel      Buckets     `json:"iodepth_level"`
	IODepthSubmit     Buckets     `json:"iodepth_submit"`
	IODepthComplete   Buckets     `json:"iodepth_complete"`
	LatencyNs         Buckets     `json:"latency_ns"`
	LatencyUs         Buckets     `json:"latency_us"`
	LatencyMs         Buckets     `json:"latency_ms"`
	LatencyDepth      int64       `json:"latency_depth"`
	LatencyTarget     int64       `json:"latency_target"`
	LatencyTargetNs   int64       `json:"latency_target_ns"`
	LatencyPercentile float64     `json:"latency_percentile"`
	LatencyWindow     int64       `json:"latency_window"`
	LatencyWindowUs   int64       `json:"latency_window_us"`
	Description       string      `json:"desc,omitempty"`
	// VerifyErrors describe verify failures (not a fio key: fio prints them to stderr).
	VerifyErrors []string `json:"-"`
}

// ReportJSON is fio's --output-format=json (or json+) document.
type ReportJSON struct {
	FioVersion    string      `json:"fio version"`
	Timestamp     int64       `json:"timestamp"`
	TimestampMs   int64       `json:"timestamp_ms"`
	Time          string      `json:"time"`
	GlobalOptions OptionsJSON `json:"global options,omitempty"`
	Jobs          []JobJSON   `json:"jobs"`
}

// psToNs rounds a time in ps to the nearest ns.
func psToNs(ps int64) int64 { return (ps + 500) / 1000 }

// latNs summarises d's latencies; pct nil leaves the percentiles out (fio's percentiles are
// its bins' values); plus adds the bins.
func latNs(d *DirStats, pct []float64, plus bool) LatNs {
	h := &d.Lat
	l := LatNs{}
	if plus {
		l.Bins = &Bins{d.Bins}
	}
	if h.Count() == 0 {
		return l
	}
	l.Min, l.Max, l.Mean, l.Stddev, l.N = psToNs(h.Min()), psToNs(h.Max()), h.Mean()/1e3, d.StddevNs(), h.Count()
	if pct != nil {
		vals := d.Bins.percentiles(pct)
		p := &Percentiles{P: pct, Ns: make([]int64, len(pct))}
		for i, v := range vals {
			p.Ns[i] = int64(v)
		}
		l.Percentile = p
	}
	return l
}

// dirJSON converts d measured over span (ps); groupKiBs is the reporting group's bandwidth
// in the direction (for bw_agg).
func dirJSON(d *DirStats, span sim.Time, pct []float64, j Job, plus bool, groupKiBs float64) DirJSON {
	secs := max(span, 1).Seconds()
	bw := int64(math.Round(float64(d.Bytes) / secs))
	clatPct, latPct := pct, []float64(nil)
	if j.NoClatPct {
		clatPct = nil
	}
	if j.LatPct {
		latPct = pct
	}
	o := DirJSON{IOBytes: d.Bytes, IOKBytes: d.Bytes / 1024, BwBytes: bw, Bw: bw / 1024,
		IOPS: float64(d.IOs) / secs, TotalIOs: d.IOs, ClatNs: latNs(d, clatPct, plus), LatNs: latNs(d, latPct, false)}
	if d.IOs > 0 {
		o.Runtime = int64(math.Round(float64(span) / float64(sim.Millisecond)))
	}
	if d.BW.N > 0 {
		o.BwMin, o.BwMax = int64(d.BW.Min), int64(d.BW.Max)
		o.BwMean, o.BwDev, o.BwSamples = d.BW.Mean(), d.BW.Dev(), d.BW.N
		if groupKiBs > 0 {
			o.BwAgg = 100 * o.BwMean / groupKiBs
		}
	}
	if d.IOPS.N > 0 {
		o.IOPSMin, o.IOPSMax = int64(d.IOPS.Min), int64(d.IOPS.Max)
		o.IOPSMean, o.IOPSStddev, o.IOPSSamples = d.IOPS.Mean(), d.IOPS.Dev(), d.IOPS.N
	}
	return o
}

// entry is one JSON job entry: a copy, or a reporting group merged.
type entry struct {
	job int
	r   JobResult
}

// entries returns what fio lists: every copy of every job as a job of the same name, except
// that the copies of group_reporting jobs in a reporting group are merged into one entry
// named after the first of them.
func entries(jobs []Job, res []JobResult) []entry {
	var es []entry
	merged := map[int]int{} // group ID → index in es of its merged entry
	parts := map[int][]JobResult{}
	for i := range res {
		copies := res[i].Copies
		if len(copies) == 0 {
			copies = []JobResult{res[i]}
		}
		if jobs[i].GroupReporting {
			g := res[i].GroupID
			if _, ok := merged[g]; !ok {
				merged[g] = len(es)
				es = append(es, entry{job: i})
			}
			parts[g] = append(parts[g], copies...)
			continue
		}
		for _, c := range copies {
			es = append(es, entry{i, c})
		}
	}
	for g, at := range merged {
		m := MergeResults(parts[g])
		m.GroupID = g
		es[at].r = m // each group's entry is written once: map order does not matter
	}
	return es
}

// Groups returns the results a summary table shows: each job's copies merged, except that
// the group_reporting jobs of a reporting group (stonewall and new_group start one) are
// merged into one result named after the first of them.
func Groups(jobs []Job, res []JobResult) []JobResult {
	var out []JobResult
	at := map[int]int{} // reporting group → index in out of its merged result
	var parts [][]JobResult
	for i := range res {
		if !jobs[i].GroupReporting {
			out = append(out, res[i])
			parts = append(parts, nil)
			continue
		}
		g := res[i].GroupID
		k, ok := at[g]
		if !ok {
			k = len(out)
			at[g] = k
			out = append(out, JobResult{})
			parts = append(parts, nil)
		}
		parts[k] = append(parts[k], res[i])
	}
	for k, p := range parts {
		if p != nil {
			gid := p[0].GroupID
			out[k] = MergeResults(p)
			out[k].GroupID = gid
		}
	}
	return out
}

// Report builds fio's JSON document for jobs and their results (one per job, in order),
// each direction measured from the end of the ramp to the job's last completion. With
// plus, every clat_ns object also holds fio's latency bins (--output-format=json+).
func Report(jobs []Job, res []JobResult, version string) ReportJSON {
	return report(jobs, res, version, false)
}

// ReportPlus is Report for --output-format=json+.
func ReportPlus(jobs []Job, res []JobResult, version string) ReportJSON {
	return report(jobs, res, version, true)
}

func report(jobs []Job, res []JobResult, version string, plus bool) ReportJSON {
	rep := ReportJSON{FioVersion: version, Time: "Thu Jan  1 00:00:00 1970"}
	if len(jobs) > 0 {
		rep.GlobalOptions = OptionsJSON(jobs[len(jobs)-1].GlobalOptions)
	}
	es := entries(jobs, res)
	groupBW := map[int]*[3]float64{}
	for _, e := range es {
		span := max(e.r.End-e.r.MeasureStart, 1).Seconds()
		g := groupBW[e.r.GroupID]
		if g == nil {
			g = &[3]float64{}
			groupBW[e.r.GroupID] = g
		}
		for d, s := range []*DirStats{&e.r.Read, &e.r.Write, &e.r.Trim} {
			g[d] += float64(s.Bytes) / 1024 / span
		}
	}
	for _, e := range es {
		rep.Jobs = append(rep.Jobs, jobJSON(jobs[e.job], e.r, plus, *groupBW[e.r.GroupID]))
	}
	return rep
}

// jobJSON converts one entry.
func jobJSON(j Job, r JobResult, plus bool, groupBW [3]float64) JobJSON {
	pct := j.Percentiles
	if pct == nil {
		pct = DefaultPercentiles
	}
	span := r.End - r.MeasureStart
	jj := JobJSON{JobName: r.Name, GroupID: r.GroupID, JobStart: int64(r.Start / sim.Millisecond), Error: r.Error,
		Elapsed: int64(math.Ceil((r.End - r.Start).Seconds())), JobOptions: OptionsJSON(j.Options),
		Read:         dirJSON(&r.Read, span, pct, j, plus, groupBW[0]),
		Write:        dirJSON(&r.Write, span, pct, j, plus, groupBW[1]),
		Trim:         dirJSON(&r.Trim, span, pct, j, plus, groupBW[2]),
		Sync:         SyncJSON{TotalIOs: r.Flush.IOs, LatNs: latNs(&r.Flush, nil, false)},
		JobRuntime:   int64(math.Round(float64(max(span, 0)) / float64(sim.Millisecond))),
		LatencyDepth: j.IODepth, LatencyPercentile: 100, Description: j.Description,
		VerifyErrors: r.VerifyErrors,
	}
	if jj.JobOptions == nil {
		jj.JobOptions = OptionsJSON{}
	}
	jj.IODepthLevel = depthBuckets(r.Depths)
	ios := r.Read.IOs + r.Write.IOs + r.Trim.IOs
	jj.IODepthSubmit = submitBuckets(ios)
	jj.IODepthComplete = submitBuckets(ios)
	jj.LatencyNs, jj.LatencyUs, jj.LatencyMs = latencyBuckets(&r)
	return jj
}

// depthBuckets is fio's iodepth_level: the share of submissions made with 1, 2–3, 4–7, …,
// ≥ 64 of the copy's I/Os in flight.
func depthBuckets(d [7]int64) Buckets {
	b := Buckets{Keys: []string{"1", "2", "4", "8", "16", "32", ">=64"}, Pct: make([]float64, 7)}
	var total int64
	for _, n := range d {
		total += n
	}
	if total > 0 {
		for i, n := range d {
			b.Pct[i] = 100 * float64(n) / float64(total)
		}
	}
	return b
}

// submitBuckets is fio's iodepth_submit and iodepth_complete: how many I/Os each submit or
// reap call handled. The model submits and reaps one I/O per call, the "4" bucket (1–4).
func submitBuckets(ios int64) Buckets {
	b := Buckets{Keys: []string{"0", "4", "8", "16", "32", "64", ">=64"}, Pct: make([]float64, 7)}
	if ios > 0 {
		b.Pct[1] = 100
	}
	return b
}

// Latency bucket bounds of fio's latency_ns, latency_us and latency_ms (fio HOWTO, "lat
// (nsec/usec/msec)": the key is the bucket's upper bound; "250=0.04% means that 0.04% of
// the I/Os completed in under 250us. 500=64.11% means that 64.11% of the I/Os required 250
// to 499us").
var (
	latKeys   = []int64{2, 4, 10, 20, 50, 100, 250, 500, 750, 1000}
	latKeysMs = []int64{2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000}
)

// latencyBuckets distributes r's reads, writes and trims over fio's latency buckets, in
// percent of all of them, from their exact latencies (the fio bins are finer than every
// bucket bound, so a bin's I/Os all fall in one bucket unless the bin straddles a bound:
// its midpoint decides).
func latencyBuckets(r *JobResult) (ns, us, ms Buckets) {
	keys := func(ks []int64, last string) Buckets {
		b := Buckets{Pct: make([]float64, len(ks))}
		for _, k := range ks {
			b.Keys = append(b.Keys, strconv.FormatInt(k, 10))
		}
		if last != "" {
			b.Keys = append(b.Keys, last)
			b.Pct = append(b.Pct, 0)
		}
		return b
	}
	ns, us, ms = keys(latKeys, ""), keys(latKeys, ""), keys(latKeysMs, ">=2000")
	var total uint64
	for _, d := range []*DirStats{&r.Read, &r.Write, &r.Trim} {
		total += d.Lat.Count()
	}
	if total == 0 {
		return
	}
	add := func(b *Buckets, ks []int64, v int64, n uint64) {
		for i, k := range ks {
			if v < k {
				b.Pct[i] += 100 * float64(n) / float64(total)
				return
			}
		}
		b.Pct[len(b.Pct)-1] += 100 * float64(n) / float64(total)
	}
	for _, d := range []*DirStats{&r.Read, &r.Write, &r.Trim} {
		for i, n := range d.Bins {
			if n == 0 {
				continue
			}
			v := int64(binValue(i))
			switch {
			case v < 1000:
				add(&ns, latKeys, v, n)
			case v < 1000000:
				add(&us, latKeys, v/1000, n)
			default:
				add(&ms, latKeysMs, v/1000000, n)
			}
		}
	}
	return
}

// WriteJSON writes the report as indented JSON.
func (r ReportJSON) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
