package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/internal/enum"
)

// BackgroundSet is the rule that bounds background eviction's programs in flight
// (firmware.buffer.background_set). The paper's firmware "estimates the average number of
// flash channels/dies that are intensively accessed by the applications' I/O requests. For
// each internal buffer eviction, we evict a limited set of pages to the flash dies in idle"
// (Zhang et al., IEEE CAL 2020, §3): the set is the dies in idle, and the words bound it no
// further than "a limited set of pages" for each eviction.
type BackgroundSet uint8

// The background set rules.
const (
	// BackgroundSetIdleDies is the paper's words taken as they stand: every die
	// the background round may send to gets up to background_per_die programs queued, and
	// no other bound applies (background_max and background_share do not). Under FD-Buf
	// those are the dies the idle-die estimate calls idle of host work (activity.go), and
	// the "limited set of pages" of one eviction is one page to each of them; the
	// Oracle-BG control is under the same rule without the estimate (every die with no
	// host read queued or in flight).
	BackgroundSetIdleDies BackgroundSet = iota
	// BackgroundSetShare (the default) bounds the programs in flight to background_share of
	// the dies (at least one), under background_max: our choice, with the rationale in
	// docs/firmware.md. It is the default because under idle-dies the paper's own
	// observations do not occur (FD-Buf's buffer never fills; docs/firmware.md).
	BackgroundSetShare
)

var backgroundSetNames = [...]string{"idle-dies", "share"}

// String returns the configuration name.
func (b BackgroundSet) String() string { return enum.Name(backgroundSetNames[:], "BackgroundSet", b) }

// MarshalText implements encoding.TextMarshaler.
func (b BackgroundSet) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (b *BackgroundSet) UnmarshalText(t []byte) error {
	if v, ok := enum.Parse[BackgroundSet](backgroundSetNames[:], string(t)); ok {
		*b = v
		return nil
	}
	return fmt.Errorf("firmware.buffer.background_set: %q is not one of idle-dies, share", t)
}

// backgroundBudget returns the most background programs a firmware keeps in flight over
// dies dies. Under the idle-dies rule, background_per_die on every die: no bound but the
// per-die one (480 on the paper's 480 dies). Under the share rule, b.BackgroundMax, and
// with b.BackgroundShare set no more than that share of the dies, rounded down, but at
// least one (Buffer.BackgroundShare gives the rationale): for the paper's 480 dies at
// 0.01, 4.8, so 4.
func backgroundBudget(b Buffer, dies int) int {
	if b.BackgroundSet == BackgroundSetIdleDies {
		return dies * b.BackgroundPerDie
	}
	if b.BackgroundShare == 0 {
		return b.BackgroundMax
	}
	return min(b.BackgroundMax, max(1, int(b.BackgroundShare*float64(dies))))
}
