package runner

import (
	"fmt"
)

// PlotTag is what every plot title of the run carries so two plots can be told apart:
// the preset, the variant (the run's label) and the simulated duration, e.g.
// "fastdrain-tlc, fd, 10s".
func (r *Result) PlotTag() string {
	return fmt.Sprintf("%s, %s, %s", r.Config.Name, r.Label, r.Scenario.Duration)
}
