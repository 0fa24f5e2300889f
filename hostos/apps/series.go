package apps

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// SeriesSpec bounds the memory a response-time series may use.
type SeriesSpec struct {
	// MaxPoints is how many (completion, latency) points are kept. Every point is kept
	// until there are MaxPoints; after that the kept set is a uniform random sample of all
	// points (reservoir sampling, Algorithm R) drawn from a seeded stream, so it is
	// deterministic.
	MaxPoints int `yaml:"max_points"`
	// Interval is the width of the per-interval aggregates (count, mean, max), which keep
	// every latency spike whatever the sampling. When a run is longer than MaxIntervals
	// intervals, adjacent intervals are merged and the width doubles.
	Interval sim.Time `yaml:"interval"`
	// MaxIntervals bounds the number of per-interval aggregates.
	MaxIntervals int `yaml:"max_intervals"`
}

// DefaultSeriesSpec keeps up to 100 000 points (1.6 MB) and 10 ms aggregates: a 30 s run
// of a latency-critical app at a few thousand requests per second keeps a good share of its
// points, and 10 ms is fine enough to show the paper's victimization spikes (Fig. 1b, 6a
// span tens of seconds with spikes lasting tens to hundreds of milliseconds).
func DefaultSeriesSpec() SeriesSpec {
	return SeriesSpec{MaxPoints: 100000, Interval: 10 * sim.Millisecond, MaxIntervals: 10000}
}

func (s SeriesSpec) problems(path string) []error {
	var errs []error
	if s.MaxPoints < 1 {
		errs = append(errs, fmt.Errorf("%smax_points: %d must be at least 1", path, s.MaxPoints))
	}
	if s.Interval <= 0 {
		errs = append(errs, fmt.Errorf("%sinterval: %v must be positive", path, s.Interval))
	}
	if s.MaxIntervals < 2 {
		errs = append(errs, fmt.Errorf("%smax_intervals: %d must be at least 2", path, s.MaxIntervals))
	}
	return errs
}

// Point is one request: when it completed and its response time.
type Point struct {
	At      sim.Time
	Latency sim.Time
}

// Interval aggregates the requests that completed in [Start, Start+Width).
type Interval struct {
	Start sim.Time
	Width sim.Time
	Count int64
	Sum   sim.Time // total response time, for the mean
	Max   sim.Time
}

// Mean returns the interval's mean response time (0 when empty), rounded down.
func (iv Interval) Mean() sim.Time {
	if iv.Count == 0 {
		return 0
	}
	return iv.Sum / sim.Time(iv.Count)
}

// Series is a bounded record of response time over time: a deterministic sample of the
// points and exact per-interval aggregates.
type Series struct {
	spec   SeriesSpec
	rng    *sim.RNG
	seen   int64
	points []Point
	width  sim.Time
	count  []int64
	sum    []sim.Time
	max    []sim.Time
}

// NewSeries returns an empty series whose sampling stream is (seed, name).
func NewSeries(spec SeriesSpec, seed uint64, name string) *Series {
	return &Series{spec: spec, rng: sim.NewRNG(seed, name), width: spec.Interval}
}

// Add records a request that completed at at with response time lat.
func (s *Series) Add(at, lat sim.Time) {
	s.seen++
	pt := Point{At: at, Latency: lat}
	if len(s.points) < s.spec.MaxPoints {
		s.points = append(s.points, pt)
	} else if j := s.rng.Int64N(s.seen); j < int64(s.spec.MaxPoints) {
		s.points[j] = pt
	}
	i := int(at / s.width)
	for i >= s.spec.MaxIntervals {
		s.coarsen()
		i = int(at / s.width)
	}
	for len(s.count) <= i {
		s.count = append(s.count, 0)
		s.sum = append(s.sum, 0)
		s.max = append(s.max, 0)
	}
	s.count[i]++
	s.sum[i] += lat
	s.max[i] = max(s.max[i], lat)
}

// coarsen merges adjacent intervals, doubling their width.
func (s *Series) coarsen() {
	n := (len(s.count) + 1) / 2
	for i := range n {
		c, su, m := s.count[2*i], s.sum[2*i], s.max[2*i]
		if 2*i+1 < len(s.count) {
			c += s.count[2*i+1]
			su += s.sum[2*i+1]
			m = max(m, s.max[2*i+1])
		}
		s.count[i], s.sum[i], s.max[i] = c, su, m
	}
	s.count, s.sum, s.max = s.count[:n], s.sum[:n], s.max[:n]
	s.width *= 2
}

// Seen returns how many points were added.
func (s *Series) Seen() int64 { return s.seen }

// Points returns the kept points in completion order (ties by latency).
func (s *Series) Points() []Point {
	out := slices.Clone(s.points)
	slices.SortFunc(out, func(a, b Point) int {
		if c := cmp.Compare(a.At, b.At); c != 0 {
			return c
		}
		return cmp.Compare(a.Latency, b.Latency)
	})
	return out
}

// Intervals returns the per-interval aggregates from time 0, empty intervals included.
func (s *Series) Intervals() []Interval {
	out := make([]Interval, len(s.count))
	for i := range out {
		out[i] = Interval{Start: sim.Time(i) * s.width, Width: s.width, Count: s.count[i],
			Sum: s.sum[i], Max: s.max[i]}
	}
	return out
}
