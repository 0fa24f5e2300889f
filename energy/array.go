package energy

import (
	"errors"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Array returns the energy a bare flash array spent from time zero to t, in joules, per row
// of Rows (only the NAND array and ONFI bus rows are non-zero): its die arrays and channel
// buses charged exactly as a Meter charges them (docs/energy.md). It is for drivers of an
// array without the rest of an SSD (flashbench), which have no DRAM, cores or link to
// meter. t must not be before the current time of the engine the resources follow.
func Array(spec Spec, dies, buses []*sim.Resource, t sim.Time) ([]float64, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	if len(dies) == 0 {
		return nil, errors.New("energy: an array needs at least one die")
	}
	j := make([]float64, len(rows))
	for _, g := range []group{dieGroup(spec.NAND, dies), busGroup(spec.NAND, buses)} {
		g.read(t, j)
	}
	return j, nil
}

// Sum returns the joules of j (per row of Rows) that belong to component (one of
// Components).
func Sum(j []float64, component string) float64 {
	var s float64
	for i, r := range rows {
		if r.Component == component {
			s += j[i]
		}
	}
	return s
}
