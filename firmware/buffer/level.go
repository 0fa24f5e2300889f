package buffer

import "fmt"

// Level is the buffer-pressure level the SSD reports to the host in every completion
// (docs/design.md "Status reporting"): below the low watermark, between the two, or above the
// high watermark.
type Level uint8

// Levels, as encoded on the wire.
const (
	BelowLow  Level = 0
	Between   Level = 1
	AboveHigh Level = 2
)

// String returns "below-low", "between" or "above-high".
func (l Level) String() string {
	switch l {
	case BelowLow:
		return "below-low"
	case Between:
		return "between"
	case AboveHigh:
		return "above-high"
	}
	return fmt.Sprintf("Level(%d)", uint8(l))
}

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
// the high mark is AboveHigh; below the low mark is BelowLow. An unbounded buffer
// (capacity 0) is always BelowLow.
func (w Watermarks) LevelOf(occupancy, capacity int) Level {
	if capacity == 0 {
		return BelowLow
	}
	switch {
	case float64(occupancy) >= w.High*float64(capacity):
		return AboveHigh
	case float64(occupancy) < w.Low*float64(capacity):
		return BelowLow
	}
	return Between
}
