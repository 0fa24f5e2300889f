package fio

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// DistKind is a random_distribution model (fio HOWTO, random_distribution).
type DistKind uint8

// The models.
const (
	DistRandom   DistKind = iota // uniform (fio's default)
	DistZipf                     // Zipf with exponent Theta
	DistPareto                   // Pareto with power Theta
	DistNormal                   // normal, standard deviation Theta percent of the region
	DistZoned                    // Zones, each a percentage of the I/Os over a percentage of the region
	DistZonedAbs                 // Zones with absolute sizes
)

var distNames = [...]string{"random", "zipf", "pareto", "normal", "zoned", "zoned_abs"}

// Distribution is a job's random_distribution. Center is the optional second float of zipf,
// pareto and normal: where in [0, 1] of the region the most probable block lies (-1: fio's
// default, a random place for zipf and pareto, the middle for normal).
type Distribution struct {
	Kind   DistKind
	Theta  float64
	Center float64
	Zones  [3][]Zone // per direction (read, write, trim); one set given applies to all
}

// Zone is one entry of a zoned distribution: Pct percent of the I/Os fall in the next Size
// (zoned_abs: bytes; zoned: percent of the region).
type Zone struct {
	Pct, Size int64
}

// Uniform reports whether the distribution is fio's default.
func (d Distribution) Uniform() bool { return d.Kind == DistRandom }

// parseDistribution reads random_distribution=KIND[:F[:F]][,...] or zoned[_abs]:P/S:... with
// optional per-direction sets after commas.
func parseDistribution(v string, kb int64) (Distribution, error) {
	kind, rest, _ := strings.Cut(v, ":")
	if i := strings.IndexByte(kind, ','); i >= 0 {
		kind = kind[:i]
	}
	d := Distribution{Center: -1}
	switch kind {
	case "random":
		return Distribution{Kind: DistRandom, Center: -1}, nil
	case "zipf":
		d.Kind = DistZipf
	case "pareto":
		d.Kind = DistPareto
	case "normal", "gauss":
		d.Kind = DistNormal
	case "zoned":
		d.Kind = DistZoned
	case "zoned_abs":
		d.Kind = DistZonedAbs
	default:
		return d, fmt.Errorf("%q is not one of random, zipf, pareto, normal, zoned, zoned_abs", kind)
	}
	if d.Kind == DistZoned || d.Kind == DistZonedAbs {
		sets := strings.Split(rest, ",")
		if len(sets) > 3 {
			return d, fmt.Errorf("%q: at most three comma-separated sets (reads, writes, trims)", v)
		}
		for i := range 3 {
			s := sets[min(i, len(sets)-1)]
			zs, err := parseZones(s, d.Kind == DistZonedAbs, kb)
			if err != nil {
				return d, err
			}
			d.Zones[i] = zs
		}
		return d, nil
	}
	f := strings.Split(rest, ":")
	if rest == "" || len(f) > 2 {
		return d, fmt.Errorf("%q: %s needs a value (such as %s:1.2, optionally :CENTER in [0, 1])", v, kind, kind)
	}
	var err error
	if d.Theta, err = strconv.ParseFloat(strings.TrimSpace(f[0]), 64); err != nil || !(d.Theta > 0) || math.IsInf(d.Theta, 0) {
		return d, fmt.Errorf("%q: %q is not a positive number", v, f[0])
	}
	if d.Kind == DistNormal && d.Theta > 100 {
		return d, fmt.Errorf("%q: the normal deviation is a percentage in (0, 100]", v)
	}
	if d.Kind == DistPareto && d.Theta >= 1 {
		return d, fmt.Errorf("%q: the pareto power is in (0, 1)", v)
	}
	if len(f) == 2 {
		if d.Center, err = strconv.ParseFloat(strings.TrimSpace(f[1]), 64); err != nil || d.Center < 0 || d.Center > 1 {
			return d, fmt.Errorf("%q: the centre %q is not in [0, 1]", v, f[1])
		}
	}
	return d, nil
}

// parseZones reads P/S:P/S:...; an empty S takes what the other zones leave (percent) and
// is only allowed for the last zone of a zoned (not zoned_abs) list.
func parseZones(s string, abs bool, kb int64) ([]Zone, error) {
	parts := strings.Split(s, ":")
	if len(parts) > 256 {
		return nil, fmt.Errorf("%q: at most 256 zones", s)
	}
	var zs []Zone
	var pctSum, sizeSum int64
	for i, p := range parts {
		ps, ss, ok := strings.Cut(p, "/")
		if !ok {
			return nil, fmt.Errorf("%q: zone %q is not PERCENT/SIZE", s, p)
		}
		pct, err := strconv.ParseInt(strings.TrimSpace(ps), 10, 64)
		if err != nil || pct < 0 || pct > 100 {
			return nil, fmt.Errorf("%q: %q is not a percentage", s, ps)
		}
		var size int64
		switch {
		case strings.TrimSpace(ss) == "" && !abs && i == len(parts)-1:
			size = 100 - sizeSum
		case abs:
			if size, err = ParseSizeBase(ss, kb); err != nil || size <= 0 {
				return nil, fmt.Errorf("%q: %q is not a positive size", s, ss)
			}
		default:
			if size, err = strconv.ParseInt(strings.TrimSpace(ss), 10, 64); err != nil || size <= 0 || size > 100 {
				return nil, fmt.Errorf("%q: %q is not a percentage of the region", s, ss)
			}
		}
		pctSum += pct
		sizeSum += size
		zs = append(zs, Zone{Pct: pct, Size: size})
	}
	if pctSum != 100 {
		return nil, fmt.Errorf("%q: the zones' I/O percentages add up to %d, not 100", s, pctSum)
	}
	if !abs && sizeSum > 100 {
		return nil, fmt.Errorf("%q: the zones cover %d%% of the region, more than 100", s, sizeSum)
	}
	return zs, nil
}

// problems checks the distribution (parseDistribution checks what it reads; this catches
// values set in Go).
func (d Distribution) problems() []problem {
	if int(d.Kind) >= len(distNames) {
		return []problem{{"random_distribution", fmt.Sprintf("%d is not a distribution", d.Kind)}}
	}
	return nil
}

// String returns fio's spelling of the distribution.
func (d Distribution) String() string {
	switch d.Kind {
	case DistRandom:
		return "random"
	case DistZoned, DistZonedAbs:
		var parts []string
		for _, z := range d.Zones[0] {
			parts = append(parts, fmt.Sprintf("%d/%d", z.Pct, z.Size))
		}
		return distNames[d.Kind] + ":" + strings.Join(parts, ":")
	}
	s := distNames[d.Kind] + ":" + strconv.FormatFloat(d.Theta, 'g', -1, 64)
	if d.Center >= 0 {
		s += ":" + strconv.FormatFloat(d.Center, 'g', -1, 64)
	}
	return s
}

// sampler draws block indices in [0, n) from a distribution.
type sampler struct {
	d     Distribution
	n     int64
	rng   *sim.RNG
	shift int64 // where rank 0 (the hottest block) lies
	zipf  zipfInv
	zones [3][]zoneRange
}

// zoneRange is a zone resolved to blocks: a cumulative percentage and a block range.
type zoneRange struct {
	cumPct      int64
	first, size int64
}

// newSampler returns a sampler over n blocks of blockSize bytes.
func newSampler(d Distribution, n, blockSize int64, rng *sim.RNG) *sampler {
	s := &sampler{d: d, n: n, rng: rng}
	switch d.Kind {
	case DistZipf, DistPareto:
		if d.Center >= 0 {
			s.shift = int64(d.Center * float64(n-1))
		} else {
			s.shift = rng.Int64N(n)
		}
		if d.Kind == DistZipf {
			s.zipf = newZipfInv(d.Theta, n)
		}
	case DistZoned, DistZonedAbs:
		for dir := range 3 {
			var cum, first int64
			for _, z := range d.Zones[dir] {
				size := z.Size / blockSize // zoned_abs: bytes
				if d.Kind == DistZoned {
					size = n * z.Size / 100
				}
				size = min(max(size, 1), n-first)
				if size <= 0 {
					break
				}
				cum += z.Pct
				s.zones[dir] = append(s.zones[dir], zoneRange{cumPct: cum, first: first, size: size})
				first += size
			}
		}
	}
	return s
}

// next returns a block index for direction dir.
func (s *sampler) next(dir Dir) int64 {
	switch s.d.Kind {
	case DistZipf:
		return (s.zipf.sample(s.rng) + s.shift) % s.n
	case DistPareto:
		// Block (n−1)·u^(ln h / ln(1−h)) counted from the hot spot: with h = 0.2 the
		// lowest fifth of the ranks gets about four fifths of the I/Os.
		u := s.rng.Float64()
		k := int64(float64(s.n-1) * math.Pow(u, math.Log(s.d.Theta)/math.Log(1-s.d.Theta)))
		return (min(max(k, 0), s.n-1) + s.shift) % s.n
	case DistNormal:
		center := 0.5
		if s.d.Center >= 0 {
			center = s.d.Center
		}
		for {
			x := center*float64(s.n) + s.rng.NormFloat64()*s.d.Theta/100*float64(s.n)
			if x >= 0 && x < float64(s.n) {
				return int64(x)
			}
		}
	case DistZoned, DistZonedAbs:
		zs := s.zones[dir]
		if len(zs) == 0 {
			return s.rng.Int64N(s.n)
		}
		r := s.rng.Int64N(zs[len(zs)-1].cumPct)
		for _, z := range zs {
			if r < z.cumPct {
				return z.first + s.rng.Int64N(z.size)
			}
		}
	}
	return s.rng.Int64N(s.n)
}

// zipfInv samples ranks 0..n−1 with P(k) ∝ (k+1)^−θ by rejection-inversion (W. Hörmann and
// G. Derflinger, "Rejection-inversion to generate variates from monotone discrete
// distributions", ACM TOMACS 6(3), 1996), valid for any θ > 0 in O(1) per draw.
type zipfInv struct {
	theta         float64
	n             float64
	hx0, hn, s    float64
	oneMinusTheta float64
}

func newZipfInv(theta float64, n int64) zipfInv {
	z := zipfInv{theta: theta, n: float64(n), oneMinusTheta: 1 - theta}
	z.hx0 = z.h(1.5) - 1 // H(x0) with the first rank's mass
	z.hn = z.h(z.n + 0.5)
	z.s = 2 - z.hInv(z.h(2.5)-math.Pow(2, -theta))
	return z
}

// h is the integral of x^−θ (its antiderivative), with the θ = 1 limit ln x.
func (z zipfInv) h(x float64) float64 {
	if math.Abs(z.oneMinusTheta) < 1e-9 {
		return math.Log(x)
	}
	return math.Pow(x, z.oneMinusTheta) / z.oneMinusTheta
}

// hInv is h's inverse.
func (z zipfInv) hInv(y float64) float64 {
	if math.Abs(z.oneMinusTheta) < 1e-9 {
		return math.Exp(y)
	}
	return math.Pow(y*z.oneMinusTheta, 1/z.oneMinusTheta)
}

// sample returns a rank in [0, n).
func (z zipfInv) sample(rng *sim.RNG) int64 {
	for {
		u := z.hn + rng.Float64()*(z.hx0-z.hn)
		x := z.hInv(u)
		k := math.Floor(x + 0.5)
		k = min(max(k, 1), z.n)
		if k-x <= z.s || u >= z.h(k+0.5)-math.Pow(k, -z.theta) {
			return int64(k) - 1
		}
	}
}
