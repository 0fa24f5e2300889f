package fio

import (
	"math"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// DirStats are the statistics of one direction (read, write, trim or flush) of a job.
type DirStats struct {
	IOs   int64
	Bytes int64
	Lat   sim.Histogram // latency in ps: exact min/max/mean, quantiles within 1 %
	SumSq float64       // sum of squared latencies in ns², for the standard deviation
	Bins  latBins       // fio's completion latency bins (json+), in ns

	// Bandwidth and IOPS samples (fio's bw_* and iops_* keys): one per I/O when the job
	// logs bandwidth per I/O, else one per full averaging window.
	BW, IOPS sampleStats
	win      window
}

// sampleStats accumulates samples: count, min, max, sum and sum of squares.
type sampleStats struct {
	N          int64
	Min, Max   float64
	Sum, SumSq float64
}

func (s *sampleStats) add(v float64) {
	if s.N == 0 || v < s.Min {
		s.Min = v
	}
	if s.N == 0 || v > s.Max {
		s.Max = v
	}
	s.N++
	s.Sum += v
	s.SumSq += v * v
}

func (s *sampleStats) merge(o sampleStats) {
	if o.N == 0 {
		return
	}
	if s.N == 0 || o.Min < s.Min {
		s.Min = o.Min
	}
	if s.N == 0 || o.Max > s.Max {
		s.Max = o.Max
	}
	s.N += o.N
	s.Sum += o.Sum
	s.SumSq += o.SumSq
}

// Mean returns the samples' mean (0 without samples).
func (s sampleStats) Mean() float64 {
	if s.N == 0 {
		return 0
	}
	return s.Sum / float64(s.N)
}

// Dev returns the samples' standard deviation (fio's sample standard deviation, n−1).
func (s sampleStats) Dev() float64 {
	if s.N < 2 {
		return 0
	}
	m := s.Mean()
	v := (s.SumSq - float64(s.N)*m*m) / float64(s.N-1)
	if v < 0 {
		return 0
	}
	return math.Sqrt(v)
}

// window is an averaging window of bytes and I/Os completed.
type window struct {
	start      sim.Time
	bytes, ios int64
	started    bool
}

// StddevNs returns the population standard deviation of the latencies in ns (0 without IOs).
func (d *DirStats) StddevNs() float64 {
	n := float64(d.Lat.Count())
	if n == 0 {
		return 0
	}
	mean := d.Lat.Mean() / 1e3
	v := d.SumSq/n - mean*mean
	if v < 0 { // rounding
		return 0
	}
	return math.Sqrt(v)
}

// record counts one completed I/O of size bytes and latency lat.
func (d *DirStats) record(size int64, lat sim.Time) {
	d.IOs++
	d.Bytes += size
	d.Lat.Record(int64(lat))
	ns := float64(lat) / 1e3
	d.SumSq += ns * ns
	d.Bins.add(uint64(psToNs(int64(lat))))
}

// sampleEvery is fio's default bandwidth and IOPS averaging time (fio HOWTO, bwavgtime and
// iopsavgtime: "Default: 500ms").
const sampleEvery = 500 * sim.Millisecond

// sample adds the bandwidth and IOPS samples of an I/O completed at now: with perIO, one
// sample of this I/O (bandwidth size/latency in KiB/s, IOPS 1, as fio does when it logs
// every I/O); otherwise one sample per finished window of sampleEvery from start.
func (d *DirStats) sample(now, start sim.Time, size int64, lat sim.Time, perIO bool) {
	if perIO {
		if lat > 0 {
			d.BW.add(float64(size) / 1024 / lat.Seconds())
		}
		d.IOPS.add(1)
		return
	}
	w := &d.win
	if !w.started {
		w.started, w.start = true, start
	}
	for now >= w.start+sampleEvery {
		secs := sampleEvery.Seconds()
		d.BW.add(float64(w.bytes) / 1024 / secs)
		d.IOPS.add(float64(w.ios) / secs)
		w.start += sampleEvery
		w.bytes, w.ios = 0, 0
	}
	w.bytes += size
	w.ios++
}

// merge adds o's statistics.
func (d *DirStats) merge(o *DirStats) {
	d.IOs += o.IOs
	d.Bytes += o.Bytes
	d.SumSq += o.SumSq
	d.Lat.Merge(&o.Lat)
	d.Bins.merge(o.Bins)
	d.BW.merge(o.BW)
	d.IOPS.merge(o.IOPS)
}

// LatRecord is one line of a per-I/O latency log: when the I/O completed (since the job's
// start), its latency, direction, size and offset.
type LatRecord struct {
	At     sim.Time
	Lat    sim.Time
	Op     uflip.Op
	Size   int64
	Offset int64
}

// JobResult is the outcome of one job, its NumJobs copies merged, counting only IOs
// submitted after ramp_time.
type JobResult struct {
	Name  string
	Read  DirStats
	Write DirStats
	Trim  DirStats
	Flush DirStats
	// MeasureStart is when counting began: Start + startdelay + ramp_time.
	MeasureStart sim.Time
	Start        sim.Time    // when the job started
	End          sim.Time    // last completion
	Log          []LatRecord // a copy's per-I/O records in completion order (logging jobs)
	// Copies are the results of the job's NumJobs copies, in order (fio reports each copy
	// as a job unless group_reporting); the job's own fields merge them. Nil in a copy.
	Copies []JobResult
	// Error is fio's error number of the job (its JSON "error"), the first it met as fio
	// keeps it: 0; 84, EILSEQ, after a verify failure; an I/O error's errno. VerifyFailures
	// are the failed blocks, the first few described in VerifyErrors.
	Error          int
	VerifyFailures int64
	VerifyErrors   []string
	// Err is the I/O error (uflip.ErrIO) that stopped the job, as fio stops a job at its
	// first one (continue_on_error=none): the I/O and the device's account of it; empty if
	// none did. Errno is its errno, ErrAt when it came (since Start). Merged results keep
	// the first copy's.
	Err   string
	Errno int
	ErrAt sim.Time
	// Depths counts submissions by the number of the copy's I/Os in flight, including the
	// submitted one (fio's iodepth_level): index i is depths [2^i, 2^(i+1)), the last ≥ 64.
	Depths [7]int64
	// GroupID is the job's reporting group (stonewall and new_group start a new one).
	GroupID int

	ioLog *ioLog // a copy's log (logging jobs)
}

// Dir returns the statistics of op.
func (r *JobResult) Dir(op uflip.Op) *DirStats {
	switch op {
	case uflip.OpRead:
		return &r.Read
	case uflip.OpWrite:
		return &r.Write
	case uflip.OpTrim:
		return &r.Trim
	}
	return &r.Flush
}

// MergeResults merges results into one named after the first (fio's group_reporting);
// the merge has no Log and no Copies.
func MergeResults(res []JobResult) JobResult {
	m := JobResult{Name: res[0].Name, Start: res[0].Start, End: res[0].End, MeasureStart: res[0].MeasureStart, GroupID: res[0].GroupID}
	m.Read.Lat.Name, m.Write.Lat.Name = res[0].Read.Lat.Name, res[0].Write.Lat.Name
	m.Trim.Lat.Name, m.Flush.Lat.Name = res[0].Trim.Lat.Name, res[0].Flush.Lat.Name
	for i := range res {
		r := &res[i]
		m.Start, m.End = min(m.Start, r.Start), max(m.End, r.End)
		m.MeasureStart = min(m.MeasureStart, r.MeasureStart)
		for _, op := range []uflip.Op{uflip.OpRead, uflip.OpWrite, uflip.OpTrim, uflip.OpFlush} {
			m.Dir(op).merge(r.Dir(op))
		}
		if m.Error == 0 {
			m.Error = r.Error
		}
		if m.Err == "" && r.Err != "" {
			m.Err, m.Errno, m.ErrAt = r.Err, r.Errno, r.ErrAt
		}
		m.VerifyFailures += r.VerifyFailures
		m.VerifyErrors = append(m.VerifyErrors, r.VerifyErrors...)
		for k := range m.Depths {
			m.Depths[k] += r.Depths[k]
		}
	}
	if len(m.VerifyErrors) > maxVerifyErrors {
		m.VerifyErrors = m.VerifyErrors[:maxVerifyErrors]
	}
	return m
}

// maxVerifyErrors bounds the failures described per job.
const maxVerifyErrors = 8

// depthBucket returns the iodepth_level bucket of n I/Os in flight.
func depthBucket(n int) int {
	b := 0
	for n > 1 && b < 6 {
		n >>= 1
		b++
	}
	return b
}
