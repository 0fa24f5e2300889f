package report

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Save writes the timeline's trace-event JSON to path, gzipped when path ends in .gz.
func (t *Timeline) Save(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	var w io.Writer = f
	var gz *gzip.Writer
	if strings.HasSuffix(path, ".gz") {
		gz = gzip.NewWriter(f)
		w = gz
	}
	if err := t.WriteJSON(w); err != nil {
		f.Close()
		return err
	}
	if gz != nil {
		if err := gz.Close(); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// ParseWindow parses a timeline window FROM:TO of simulated times, such as 1s:1.2s; TO
// must be after FROM.
func ParseWindow(s string) (from, to sim.Time, err error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return 0, 0, errors.New("want FROM:TO such as 1s:1.2s")
	}
	if from, err = sim.ParseTime(a); err != nil {
		return 0, 0, fmt.Errorf("FROM: %w", err)
	}
	if to, err = sim.ParseTime(b); err != nil {
		return 0, 0, fmt.Errorf("TO: %w", err)
	}
	if to <= from {
		return 0, 0, errors.New("TO must be after FROM (want FROM:TO such as 1s:1.2s)")
	}
	return from, to, nil
}
