package channel

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/onfi"
)

// Policy is how the channel chooses the next transaction to put on an idle bus. In YAML it
// is "fifo" or "read-first".
type Policy uint8

// The arbitration policies. Under both, a read whose data is waiting in its die (tR done)
// moves its data out before any new command is issued, and a transaction only starts when
// its die can take it.
const (
	// FIFO starts transactions in submission order, across dies; a transaction waits for
	// every earlier one to the same die (no overtaking on a die).
	FIFO Policy = iota
	// ReadFirst starts any startable read before any program or erase; within each class
	// the order is FIFO. A read may overtake earlier programs and erases to its own die.
	ReadFirst
)

// String returns the policy's YAML name.
func (p Policy) String() string {
	switch p {
	case FIFO:
		return "fifo"
	case ReadFirst:
		return "read-first"
	}
	return fmt.Sprintf("policy(%d)", uint8(p))
}

// MarshalText implements encoding.TextMarshaler.
func (p Policy) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (p *Policy) UnmarshalText(b []byte) error {
	for _, v := range []Policy{FIFO, ReadFirst} {
		if string(b) == v.String() {
			*p = v
			return nil
		}
	}
	return fmt.Errorf("channel policy %q is not one of fifo, read-first", b)
}

// Spec is the immutable configuration of one channel and the dies on it.
type Spec struct {
	Dies   int    `yaml:"dies"`   // dies (ways) sharing the bus, 1 … 64
	Policy Policy `yaml:"policy"` // fifo or read-first
	// StatusPoll makes the channel read the die's status (70h, or 78h when several dies
	// share the bus) once at the end of every array operation before the data-out or the
	// completion. Without it, readiness comes from the R/B# signal at no bus cost.
	StatusPoll bool `yaml:"status_poll"`

	ONFI onfi.Spec `yaml:"onfi"` // bus timing
	Die  die.Spec  `yaml:"die"`  // every die on the channel
}

// DefaultSpec returns a channel of 4 dies with FIFO arbitration, no status polling, the
// default ONFI bus (NV-DDR2, 333 MT/s) and the default 2D TLC die.
func DefaultSpec() Spec {
	return Spec{Dies: 4, Policy: FIFO, ONFI: onfi.DefaultSpec(), Die: die.DefaultSpec()}
}

// Validate reports every problem with the spec and with its ONFI and die specs, each
// naming its field.
func (s Spec) Validate() error {
	var errs []error
	if s.Dies < 1 || s.Dies > 64 {
		errs = append(errs, fmt.Errorf("channel.dies: %d is not in 1 … 64", s.Dies))
	}
	if s.Policy != FIFO && s.Policy != ReadFirst {
		errs = append(errs, fmt.Errorf("channel.policy: %v is not one of fifo, read-first", s.Policy))
	}
	errs = append(errs, s.ONFI.Validate(), s.Die.Validate())
	return errors.Join(errs...)
}
