package buffer

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
)

// Watermarks are the low and high occupancy thresholds, as fractions of the capacity.
type Watermarks struct {
	Low  float64 `yaml:"low"`
	High float64 `yaml:"high"`
}

// Validate reports problems with the watermarks.
func (w Watermarks) Validate() error {
	if !(w.Low > 0 && w.Low < w.High && w.High <= 1) {
		return fmt.Errorf("buffer.watermarks: need 0 < low (%v) < high (%v) ≤ 1", w.Low, w.High)
	}
	return nil
}

// LevelOf classifies an occupancy of a buffer of capacity pages. Occupancy at or above
// the high mark is bufferlevel.High; below the low mark is bufferlevel.Low. An unbounded buffer
// (capacity 0) is always bufferlevel.Low.
func (w Watermarks) LevelOf(occupancy, capacity int) bufferlevel.Level {
	if capacity == 0 {
		return bufferlevel.Low
	}
	switch {
	case float64(occupancy) >= w.High*float64(capacity):
		return bufferlevel.High
	case float64(occupancy) < w.Low*float64(capacity):
		return bufferlevel.Low
	}
	return bufferlevel.Mid
}
