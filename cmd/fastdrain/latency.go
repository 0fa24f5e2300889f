package main

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// latencyUs is a latency distribution's summary in microseconds, as the JSON and CSV outputs
// of compare and replay give it: mean, stdev (population), min, the percentiles of the
// --percentiles list (report.DefaultPercentiles without one) and max.
type latencyUs struct {
	MeanUs, StdevUs, MinUs, MaxUs float64
	Pcts                          report.Percentiles
	PUs                           []float64 // at each of Pcts
}

// latencyOf summarises h (latencies in picoseconds) at the percentiles ps (nil: the default).
func latencyOf(h *sim.Histogram, ps report.Percentiles) latencyUs {
	ps = ps.Or(report.DefaultPercentiles)
	l := latencyUs{MeanUs: h.Mean() / float64(sim.Microsecond), StdevUs: h.Stdev() / float64(sim.Microsecond),
		MinUs: psToUs(h.Min()), MaxUs: psToUs(h.Max()), Pcts: ps, PUs: make([]float64, len(ps))}
	for i, v := range ps.Quantiles(h) {
		l.PUs[i] = psToUs(v)
	}
	return l
}

// emptyLatency is the summary of no samples at the percentiles ps: every value 0.
func emptyLatency(ps report.Percentiles) latencyUs {
	return latencyOf(&sim.Histogram{}, ps)
}

// psToUs converts picoseconds to microseconds.
func psToUs(ps int64) float64 { return float64(ps) / float64(sim.Microsecond) }

// latencyHeader is the column names of latencyUs.cells for the percentiles ps.
func latencyHeader(ps report.Percentiles) []string {
	ps = ps.Or(report.DefaultPercentiles)
	h := []string{"mean_us", "stdev_us", "min_us"}
	return append(append(h, ps.Keys("_us")...), "max_us")
}

// fields is the summary as ordered JSON members (the names of latencyHeader).
func (l latencyUs) fields() report.Fields {
	f := report.Fields{{Key: "mean_us", Value: l.MeanUs}, {Key: "stdev_us", Value: l.StdevUs}, {Key: "min_us", Value: l.MinUs}}
	for i, k := range l.Pcts.Keys("_us") {
		f = append(f, report.Field{Key: k, Value: l.PUs[i]})
	}
	return append(f, report.Field{Key: "max_us", Value: l.MaxUs})
}

// cells formats the summary with num, in latencyHeader's order.
func (l latencyUs) cells(num func(float64) string) []string {
	c := []string{num(l.MeanUs), num(l.StdevUs), num(l.MinUs)}
	for _, v := range l.PUs {
		c = append(c, num(v))
	}
	return append(c, num(l.MaxUs))
}

// exact formats a number exactly (the shortest decimal that reads back the same).
func exact(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// decodeLatency reads the latency members of a JSON object written with fields: mean_us,
// stdev_us, min_us, max_us and every pXX_us (report.ParsePercentileKey), ascending.
func decodeLatency(b []byte) (latencyUs, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return latencyUs{}, err
	}
	var l latencyUs
	num := func(k string, v *float64) error {
		if raw, ok := m[k]; ok {
			return json.Unmarshal(raw, v)
		}
		return nil
	}
	errs := []error{num("mean_us", &l.MeanUs), num("stdev_us", &l.StdevUs), num("min_us", &l.MinUs), num("max_us", &l.MaxUs)}
	for k := range m {
		if key, ok := strings.CutSuffix(k, "_us"); ok {
			if p, ok := report.ParsePercentileKey(key); ok {
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

// at returns the value at percentile p, or NaN when the summary does not hold p.
func (l latencyUs) at(p float64) float64 {
	if i := slices.Index(l.Pcts, p); i >= 0 {
		return l.PUs[i]
	}
	return math.NaN()
}

// decodeWithLatency reads a JSON object written with fields into tagged (a summary type's
// shadow without its UnmarshalJSON: the members with json tags) and its latency members
// into l.
func decodeWithLatency(b []byte, tagged any, l *latencyUs) error {
	if err := json.Unmarshal(b, tagged); err != nil {
		return err
	}
	var err error
	*l, err = decodeLatency(b)
	return err
}
