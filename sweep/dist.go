package sweep

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/flashbench"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Distribution is one latency distribution of a point, in picoseconds: an application's
// request latencies in a run point, an operation kind's (read, program, erase) in a
// flashbench point. Shards carry them whole, so merging shards keeps every distribution
// exactly and two points' distributions can be pooled (Pool) without loss.
type Distribution struct {
	Name string            `json:"name"`
	Ps   sim.HistogramData `json:"ps"`
}

// runDistributions returns the latency distribution of each application of the scenario
// that reported one, in the scenario's order.
func runDistributions(r *runner.Result, appNames []string) []Distribution {
	var out []Distribution
	for _, name := range appNames {
		if a := r.App(name); a != nil && a.Latency != nil {
			out = append(out, Distribution{Name: name, Ps: a.Latency.Data()})
		}
	}
	return out
}

// flashbenchDistributions returns the latency distribution of each operation kind.
func flashbenchDistributions(r *flashbench.Result) []Distribution {
	var out []Distribution
	for k := channel.Read; k <= channel.Erase; k++ {
		if h := r.Latency[k]; h != nil {
			out = append(out, Distribution{Name: k.String(), Ps: h.Data()})
		}
	}
	return out
}

// checkDistributions reports a row's distributions that no writer could have written:
// duplicate names or histogram data that does not rebuild.
func checkDistributions(ds []Distribution) error {
	seen := map[string]bool{}
	for i, d := range ds {
		if d.Name == "" || seen[d.Name] {
			return fmt.Errorf("latency_ps[%d]: name %q is empty or repeated", i, d.Name)
		}
		seen[d.Name] = true
		if _, err := sim.FromData(d.Name, d.Ps); err != nil {
			return fmt.Errorf("latency_ps[%d]: %w", i, err)
		}
	}
	return nil
}

// Pool merges the distribution called name over the given points (for example the seeds of
// one configuration) into one histogram; a point without it, or one that failed, is an error.
func (r *Result) Pool(name string, points ...int) (*sim.Histogram, error) {
	out := &sim.Histogram{Name: name}
	for _, k := range points {
		row, ok := r.row(k)
		if !ok {
			return nil, fmt.Errorf("pool %s: point %d is not in this result", name, k)
		}
		var found bool
		for _, d := range row.Latency {
			if d.Name != name {
				continue
			}
			h, err := sim.FromData(name, d.Ps)
			if err != nil {
				return nil, fmt.Errorf("pool %s: point %d: %w", name, k, err)
			}
			out.Merge(h)
			found = true
		}
		if !found {
			return nil, fmt.Errorf("pool %s: point %d has no distribution %q", name, k, name)
		}
	}
	return out, nil
}

// row returns the row of point k.
func (r *Result) row(k int) (Row, bool) {
	for _, w := range r.Rows {
		if w.Point == k {
			return w, true
		}
	}
	return Row{}, false
}
