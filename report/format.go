package report

import (
	"strconv"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Duration formats a time for people: four significant digits in the largest unit that
// keeps the number at least 1 ("912.2ms", "572.5us", "49.15us", "13.75ns"). Exact values
// are in the JSON and CSV outputs; this is for tables.
func Duration(t sim.Time) string {
	if t == 0 {
		return "0"
	}
	neg := t < 0
	if neg {
		t = -t
	}
	units := []struct {
		name  string
		scale sim.Time
	}{{"s", sim.Second}, {"ms", sim.Millisecond}, {"us", sim.Microsecond}, {"ns", sim.Nanosecond}, {"ps", sim.Picosecond}}
	for _, u := range units {
		if t >= u.scale {
			v := float64(t) / float64(u.scale)
			digits := 3
			switch {
			case v >= 1000:
				digits = 0
			case v >= 100:
				digits = 1
			case v >= 10:
				digits = 2
			}
			s := strconv.FormatFloat(v, 'f', digits, 64)
			if neg {
				s = "-" + s
			}
			return s + u.name
		}
	}
	return strconv.FormatInt(int64(t), 10) + "ps"
}
