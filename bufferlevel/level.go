package bufferlevel

import "strconv"

// Level is the write buffer's occupancy against its watermarks (docs/design.md "The hint
// protocol"). Its values are those the status carriers put on the wire.
type Level uint8

// The levels. None is no level: a completion that carries none.
const (
	Low  Level = 0    // below the low watermark
	Mid  Level = 1    // between the watermarks
	High Level = 2    // at or above the high watermark
	None Level = 0xFF // no level
)

// String returns "below-low", "between", "above-high" or "none".
func (l Level) String() string {
	switch l {
	case Low:
		return "below-low"
	case Mid:
		return "between"
	case High:
		return "above-high"
	case None:
		return "none"
	}
	return "level " + strconv.Itoa(int(l))
}
