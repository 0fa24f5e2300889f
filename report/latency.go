package report

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// LatencyUs is a latency distribution's summary in microseconds, as the JSON and CSV
// outputs of compare and replay give it: mean, stdev (population), min, the percentiles of
// a --percentiles list (DefaultPercentiles without one) and max.
type LatencyUs struct {
	MeanUs, StdevUs, MinUs, MaxUs float64     // mean, population standard deviation, minimum, maximum
	Pcts                          Percentiles // the percentiles PUs holds, ascending
	PUs                           []float64   // at each of Pcts
}

// LatencyOf summarises h (latencies in picoseconds) at the percentiles ps (nil: the default).
func LatencyOf(h *sim.Histogram, ps Percentiles) LatencyUs {
	ps = ps.Or(DefaultPercentiles)
	l := LatencyUs{MeanUs: h.Mean() / float64(sim.Microsecond), StdevUs: h.Stdev() / float64(sim.Microsecond),
		MinUs: PsToUs(h.Min()), MaxUs: PsToUs(h.Max()), Pcts: ps, PUs: make([]float64, len(ps))}
	for i, v := range ps.Quantiles(h) {
		l.PUs[i] = PsToUs(v)
	}
	return l
}

// EmptyLatency is the summary of no samples at the percentiles ps: every value 0.
func EmptyLatency(ps Percentiles) LatencyUs {
	return LatencyOf(&sim.Histogram{}, ps)
}

// PsToUs converts picoseconds to microseconds.
func PsToUs(ps int64) float64 { return float64(ps) / float64(sim.Microsecond) }

// LatencyHeader is the column names of LatencyUs.Cells for the percentiles ps.
func LatencyHeader(ps Percentiles) []string {
	ps = ps.Or(DefaultPercentiles)
	h := []string{"mean_us", "stdev_us", "min_us"}
	return append(append(h, ps.Keys("_us")...), "max_us")
}

// Fields is the summary as ordered JSON members (the names of LatencyHeader).
func (l LatencyUs) Fields() Fields {
	f := Fields{{Key: "mean_us", Value: l.MeanUs}, {Key: "stdev_us", Value: l.StdevUs}, {Key: "min_us", Value: l.MinUs}}
	for i, k := range l.Pcts.Keys("_us") {
		f = append(f, Field{Key: k, Value: l.PUs[i]})
	}
	return append(f, Field{Key: "max_us", Value: l.MaxUs})
}

// Cells formats the summary with num, in LatencyHeader's order.
func (l LatencyUs) Cells(num func(float64) string) []string {
	c := []string{num(l.MeanUs), num(l.StdevUs), num(l.MinUs)}
	for _, v := range l.PUs {
		c = append(c, num(v))
	}
	return append(c, num(l.MaxUs))
}

// DecodeLatency reads the latency members of a JSON object written with Fields: mean_us,
// stdev_us, min_us, max_us and every pXX_us (ParsePercentileKey), ascending.
func DecodeLatency(b []byte) (LatencyUs, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return LatencyUs{}, err
	}
	var l LatencyUs
	num := func(k string, v *float64) error {
		if raw, ok := m[k]; ok {
			return json.Unmarshal(raw, v)
		}
		return nil
	}
	errs := []error{num("mean_us", &l.MeanUs), num("stdev_us", &l.StdevUs), num("min_us", &l.MinUs), num("max_us", &l.MaxUs)}
	for k := range m {
		if key, ok := strings.CutSuffix(k, "_us"); ok {
			if p, ok := ParsePercentileKey(key); ok {
				l.Pcts = append(l.Pcts, p)
			}
		}
	}
	slices.Sort(l.Pcts) // the map's order is not the file's
	l.PUs = make([]float64, len(l.Pcts))
	for i, k := range l.Pcts.Keys("_us") {
		errs = append(errs, num(k, &l.PUs[i]))
	}
	return l, errors.Join(errs...)
}

// At returns the value at percentile p, or NaN when the summary does not hold p.
func (l LatencyUs) At(p float64) float64 {
	if i := slices.Index(l.Pcts, p); i >= 0 {
		return l.PUs[i]
	}
	return math.NaN()
}

// DecodeWithLatency reads a JSON object written with Fields into tagged (a summary type's
// shadow without its UnmarshalJSON: the members with json tags) and its latency members
// into l.
func DecodeWithLatency(b []byte, tagged any, l *LatencyUs) error {
	if err := json.Unmarshal(b, tagged); err != nil {
		return err
	}
	var err error
	*l, err = DecodeLatency(b)
	return err
}
