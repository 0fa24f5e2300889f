package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/internal/enum"
)

// The victimization hint's accounting (docs/design.md "The hint protocol" and "Decisions after
// the first measurements"). A hinted write says how many pages its victimization still has
// to flush, itself included. The predicted occupancy counts every page of it once: in the
// buffer (occupancy), on its way into a reserved slot (reserved), or still to come. The
// pages still to come are split in two: victimOut, the pages of hinted writes already
// received whose slots are not yet reserved, which count down as their slots are reserved
// (the data transfer starts, and the page is then counted in reserved); and announcedAfter,
// the pages the latest hinted write said would come after it, which the next hinted write
// replaces. So several hinted writes in flight at once are each counted once, and the
// pass's last write, which announces only its own pages (nothing after it), leaves the
// prediction at the occupancy once its pages have arrived.

// announce records the hint of a write of n pages that has just been received.
func (f *Firmware) announce(cmd *hal.HostCmd, n int64) {
	if !cmd.Hint.Victim {
		return
	}
	f.Stats.HintedWrites++
	if f.evict.hintEp {
		f.Stats.HintActedOn++ // room was being made for it ahead of its arrival
	}
	f.wb.victimOut += n
	f.wb.announcedAfter = max(int64(cmd.Hint.Pages)-n, 0)
	f.evict.notify()
}

// victimReserved counts k pages of a hinted write off the pages still to come as their
// buffer slots are reserved: from then on they are counted in reserved, then in the
// occupancy. (Counting them off only once stored counted each page twice while its data
// was on its way: 992 pages at the foreground switches of issue 20's quick runs, enough
// to put a prediction of 13,921 pages over a high watermark of 14,745.)
func (f *Firmware) victimReserved(cmd *hal.HostCmd, k int64) {
	if cmd.Hint.Victim {
		f.wb.victimOut = max(f.wb.victimOut-k, 0)
	}
}

// announced returns the pages the host's victimization is predicted still to send.
func (f *Firmware) announced() int64 { return f.wb.victimOut + f.wb.announcedAfter }

// predicted returns the predicted occupancy: the occupancy, the slots reserved for writes
// whose data is on its way, and the pages announced whose slots are not yet reserved; each
// page is in exactly one of the three.
func (f *Firmware) predicted() int64 {
	return int64(f.buf.Occupancy()) + f.announced() + int64(f.wb.reserved)
}

// Upcall is which occupancy the buffer level in completions reports.
type Upcall uint8

// Upcall readings of the paper (docs/design.md "Decisions after the first measurements").
const (
	// UpcallPredicted reports the level of the predicted occupancy (occupancy + announced +
	// reserved): above-high as soon as the announced victimization would fill the buffer
	// past the high watermark: the reading of the paper's introduction, where the firmware
	// notifies the kernel "when the page victimization causes the buffer overflow in the
	// near-future" (as issue 20 quotes it).
	UpcallPredicted Upcall = iota
	// UpcallCurrent reports the level of the current occupancy against the watermarks: the
	// literal reading of a buffer status reported with each completion. Foreground eviction
	// can keep the occupancy under high, so the upcall may then never fire (issue 20 saw 0
	// ratio switches in every FD run).
	UpcallCurrent
)

var upcallNames = [...]string{"predicted", "current"}

// String returns the configuration name.
func (u Upcall) String() string { return enum.Name(upcallNames[:], "Upcall", u) }

// MarshalText implements encoding.TextMarshaler.
func (u Upcall) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (u *Upcall) UnmarshalText(b []byte) error {
	if v, ok := enum.Parse[Upcall](upcallNames[:], string(b)); ok {
		*u = v
		return nil
	}
	return fmt.Errorf("upcall %q is not one of predicted, current", b)
}
