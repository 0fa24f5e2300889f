package calibrate

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/stretchr/testify/require"
)

// planSet returns the points of a uFLIP plan's run steps (every repetition), in plan
// order, with no measured value yet: the Set a uflip.json of that plan would give.
func planSet(t *testing.T, spec uflip.PlanSpec, capacity int64) *Set {
	t.Helper()
	plan, err := uflip.NewPlan(spec, capacity)
	require.NoError(t, err)
	s := &Set{Capacity: plan.Capacity, RunPause: spec.RunPause, Settle: spec.Settle, Seed: 1}
	for _, st := range plan.Steps {
		if st.Kind != uflip.StepRun {
			continue
		}
		for rep := range int(st.Run.NbRun) {
			r := st.RepRun(rep)
			r.NbRun = 1
			s.Points = append(s.Points, Point{Name: st.Label, Pattern: "uflip " + st.Bench.String() + " " + r.Base.String(),
				Group: len(s.Points), uflip: &uflipPoint{label: st.Label, rep: rep, bench: st.Bench, run: r,
					ignore: r.IOIgnore, count: r.IOCount}})
		}
	}
	return s
}

// measure fills s's measured values by replaying it on the hidden configuration.
func measure(t *testing.T, hidden platforms.Config, s *Set) {
	t.Helper()
	sims, err := Simulate(hidden, s, SimOptions{})
	require.NoError(t, err)
	for i := range s.Points {
		s.Points[i].Measured = sims[i]
	}
}

// set returns c with parameter name set to v (through the fit's own Param, so the hidden
// machine is one the search can reach).
func setParam(t *testing.T, c platforms.Config, name string, v float64) platforms.Config {
	t.Helper()
	for _, p := range Params(c.Flash.Bytes()) {
		if p.Name == name {
			p.set(&c, v)
			return c
		}
	}
	t.Fatalf("no parameter %s", name)
	return c
}
