package runner

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// MaxDieRows is the largest die count the die heat map shows one row per die for; a
// larger array gets one row per channel, each the mean busy share of that channel's dies
// (fastdrain-tlc's 480 dies would be rows a pixel high).
const MaxDieRows = 64

// BusyRow is one row of a utilization heat map: the summed cumulative busy time, in ps, of
// its Members resources at every sample of the run's sampler, taken from the resources'
// own accounting (sim.Resource.TotalBusyAt), so the busy share over an interval is the
// difference of two samples over the interval's length times Members.
type BusyRow struct {
	Name    string
	Members int
	Samples []sim.Sample
}

// Traffic is a cumulative byte count sampled with the run's series: the host's reads and
// writes as the NVMe controller moved them, and each application's payload.
type Traffic struct {
	Name    string
	Samples []sim.Sample
}

// probes are the sampler series behind a run's heat maps and throughput plot, kept apart
// from Result.Series (series.csv and result.json are unchanged by them).
type probes struct {
	channels, dies []*sim.Series
	members        map[*sim.Series]int
	traffic        []*sim.Series
}

// trackBusy adds to s one series per channel bus and one per die row (per die, or per
// channel when there are more than MaxDieRows dies), each the cumulative busy time of its
// resources at the sample's time.
func (pr *probes) trackBusy(s *sim.Sampler, eng *sim.Engine, ssd *platforms.SSD) {
	group := func(name string, rs []*sim.Resource) *sim.Series { return pr.trackGroup(s, eng, name, rs) }
	dies := 0
	for _, ch := range ssd.Channels {
		dies += ch.NumDies()
	}
	for _, ch := range ssd.Channels {
		pr.channels = append(pr.channels, group(ch.Bus().Name(), []*sim.Resource{ch.Bus()}))
	}
	for i, ch := range ssd.Channels {
		var rs []*sim.Resource
		for d := 0; d < ch.NumDies(); d++ {
			rs = append(rs, ch.Die(d).Array())
		}
		if dies <= MaxDieRows {
			for _, r := range rs {
				pr.dies = append(pr.dies, group(r.Name(), []*sim.Resource{r}))
			}
			continue
		}
		pr.dies = append(pr.dies, group(fmt.Sprintf("ch[%d] dies (mean of %d)", i, len(rs)), rs))
	}
}

// trackGroup adds to s a series of the summed cumulative busy time of rs at each sample.
func (pr *probes) trackGroup(s *sim.Sampler, eng *sim.Engine, name string, rs []*sim.Resource) *sim.Series {
	if pr.members == nil {
		pr.members = map[*sim.Series]int{}
	}
	ser := s.Track(name, func() int64 {
		var b sim.Time
		for _, r := range rs {
			b += r.TotalBusyAt(eng.Now())
		}
		return int64(b)
	})
	pr.members[ser] = len(rs)
	return ser
}

// trackTraffic adds to s a series of the cumulative byte count *count, named name.
func (pr *probes) trackTraffic(s *sim.Sampler, name string, count *int64) {
	pr.traffic = append(pr.traffic, s.Track(name, func() int64 { return *count }))
}

// is reports whether ser is one of these probes.
func (pr *probes) is(ser *sim.Series) bool {
	if _, ok := pr.members[ser]; ok {
		return true
	}
	for _, t := range pr.traffic {
		if t == ser {
			return true
		}
	}
	return false
}

// store copies the probes' samples into res (not the series: their probes close over the
// machine).
func (pr *probes) store(res *Result) {
	rows := func(ss []*sim.Series) []BusyRow {
		var out []BusyRow
		for _, s := range ss {
			out = append(out, BusyRow{Name: s.Name, Members: pr.members[s], Samples: s.Samples})
		}
		return out
	}
	res.ChannelBusy, res.DieBusy = rows(pr.channels), rows(pr.dies)
	for _, t := range pr.traffic {
		res.Traffic = append(res.Traffic, Traffic{Name: t.Name, Samples: t.Samples})
	}
}

// MaxHeatColumns bounds a heat map's columns: an 8-inch plot has about 600 pixels of data
// width at 96 DPI, so a 10 s run's 1000 intervals of 10 ms would be under a pixel each (and
// its SVG megabytes). Longer runs merge adjacent intervals (BusyGrid).
const MaxHeatColumns = 400

// BusyGrid turns cumulative busy rows into a heat map's grid of at most maxCols columns
// (at least 1): column j covers k consecutive sample intervals, k = ⌈intervals/maxCols⌉,
// and row i's value over it is (busy at its last sample − busy at its first) / (its length ×
// members). The last column may hold fewer than k intervals: its share is over its own
// length, though it is drawn k wide. It returns false when the rows have fewer than three
// samples (two intervals).
func BusyGrid(rows []BusyRow, maxCols int) (report.Grid, bool) {
	if len(rows) == 0 || len(rows[0].Samples) < 3 {
		return report.Grid{}, false
	}
	s0 := rows[0].Samples
	n := len(s0) - 1
	k := (n + max(1, maxCols) - 1) / max(1, maxCols)
	if (n+k-1)/k < 2 {
		k = (n + 1) / 2 // keep two columns
	}
	g := report.Grid{Start: s0[0].At.Seconds(), Width: (s0[k].At - s0[0].At).Seconds()}
	for _, r := range rows {
		g.Rows = append(g.Rows, r.Name)
		var v []float64
		for a := 0; a < n; a += k {
			b := min(a+k, n)
			span := r.Samples[b].At - r.Samples[a].At
			v = append(v, float64(r.Samples[b].Value-r.Samples[a].Value)/(float64(span)*float64(max(1, r.Members))))
		}
		g.Values = append(g.Values, v)
	}
	return g, true
}

// RateLine turns a cumulative byte count into MB/s (10⁶ B/s) per sample interval, as a
// step line: point k is at sample k's time with the rate over [sample k, sample k+1), and a
// last point at the last sample repeats the last rate so the final step has its width.
func RateLine(t Traffic) report.Line {
	l := report.Line{Name: t.Name}
	s := t.Samples
	for k := 1; k < len(s); k++ {
		span := (s[k].At - s[k-1].At).Seconds()
		l.X = append(l.X, s[k-1].At.Seconds())
		l.Y = append(l.Y, float64(s[k].Value-s[k-1].Value)/1e6/span)
	}
	if n := len(l.Y); n > 0 {
		l.X = append(l.X, s[len(s)-1].At.Seconds())
		l.Y = append(l.Y, l.Y[n-1])
	}
	return l
}
