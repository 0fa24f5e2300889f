package flashbench

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// ParseSLCTimes parses "tR/tPROG", e.g. "25us/300us".
func ParseSLCTimes(s string) ([2]sim.Time, error) {
	var t [2]sim.Time
	parts := strings.Split(s, "/")
	if len(parts) != 2 {
		return t, fmt.Errorf("%q: want tR/tPROG, e.g. 25us/300us", s)
	}
	for i, p := range parts {
		v, err := sim.ParseTime(strings.TrimSpace(p))
		if err != nil || v <= 0 {
			return t, fmt.Errorf("%q: %q is not a positive duration", s, p)
		}
		t[i] = v
	}
	return t, nil
}

// ParseMix parses "R/P/E" weights, e.g. "70/30/0".
func ParseMix(s string) ([3]int, error) {
	var w [3]int
	parts := strings.Split(s, "/")
	if len(parts) != 3 {
		return w, fmt.Errorf("%q: want three weights read/program/erase, e.g. 70/30/0", s)
	}
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v < 0 {
			return w, fmt.Errorf("%q: weight %q is not a non-negative integer", s, p)
		}
		w[i] = v
	}
	return w, nil
}
