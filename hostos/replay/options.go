package replay

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Mode says when requests are issued.
type Mode uint8

// The replay modes.
const (
	// Timed issues each request at its trace time, relative to the start of the replay.
	Timed Mode = iota
	// AsFastAsPossible keeps QueueDepth requests outstanding, ignoring trace times.
	AsFastAsPossible
)

var modeNames = [...]string{"timed", "afap"}

// String returns "timed" or "afap".
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("mode(%d)", uint8(m))
}

// ParseMode parses "timed", "afap" or "as_fast_as_possible" (case-insensitive).
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "timed":
		return Timed, nil
	case "afap", "as_fast_as_possible", "as-fast-as-possible":
		return AsFastAsPossible, nil
	}
	return 0, fmt.Errorf("replay mode %q: want timed or afap", s)
}

// MarshalText implements encoding.TextMarshaler.
func (m Mode) MarshalText() ([]byte, error) {
	if int(m) >= len(modeNames) {
		return nil, fmt.Errorf("replay mode %d out of range", uint8(m))
	}
	return []byte(m.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseMode.
func (m *Mode) UnmarshalText(b []byte) error {
	v, err := ParseMode(string(b))
	if err == nil {
		*m = v
	}
	return err
}

// MaxDepth bounds QueueDepth and MaxOutstanding.
const MaxDepth = 1 << 16

// Options configures a replay. Zero QueueDepth and MaxOutstanding mean their defaults.
type Options struct {
	// Mode is Timed or AsFastAsPossible.
	Mode Mode `yaml:"mode"`
	// QueueDepth is the number of requests kept outstanding in AsFastAsPossible mode.
	// Default 1.
	QueueDepth int `yaml:"queue_depth"`
	// MaxOutstanding bounds the requests in flight in Timed mode; a request due while that
	// many are outstanding is issued late. Default 1024.
	MaxOutstanding int `yaml:"max_outstanding"`
	// MaxRequests stops the replay after this many requests; 0 replays the whole trace.
	MaxRequests int64 `yaml:"max_requests"`
	// Records, when set, receives one CSV line per completed request (see Records).
	Records io.Writer `yaml:"-"`
}

// DefaultOptions returns timed replay with up to 1024 requests in flight, QueueDepth 1 for
// AsFastAsPossible and no request limit.
func DefaultOptions() Options {
	return Options{Mode: Timed, QueueDepth: 1, MaxOutstanding: 1024}
}

// withDefaults fills the zero fields that stand for a default.
func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.QueueDepth == 0 {
		o.QueueDepth = d.QueueDepth
	}
	if o.MaxOutstanding == 0 {
		o.MaxOutstanding = d.MaxOutstanding
	}
	return o
}

// Validate reports every problem with the options, each naming its field.
func (o Options) Validate() error {
	o = o.withDefaults()
	var errs []error
	if o.Mode > AsFastAsPossible {
		errs = append(errs, fmt.Errorf("replay.mode: %d is not timed or afap", o.Mode))
	}
	if o.QueueDepth < 1 || o.QueueDepth > MaxDepth {
		errs = append(errs, fmt.Errorf("replay.queue_depth: %d is not in [1, %d]", o.QueueDepth, MaxDepth))
	}
	if o.MaxOutstanding < 1 || o.MaxOutstanding > MaxDepth {
		errs = append(errs, fmt.Errorf("replay.max_outstanding: %d is not in [1, %d]", o.MaxOutstanding, MaxDepth))
	}
	if o.MaxRequests < 0 {
		errs = append(errs, fmt.Errorf("replay.max_requests: %d is negative", o.MaxRequests))
	}
	return errors.Join(errs...)
}

// limit returns how many requests may be in flight at once.
func (o Options) limit() int {
	if o.Mode == AsFastAsPossible {
		return o.QueueDepth
	}
	return o.MaxOutstanding
}
