package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/nvmectrl"
)

// The victimization hint's accounting (DESIGN.md "The hint protocol" and "Decisions after
// the first measurements"). A hinted write says how many pages its victimization still has
// to flush, itself included. The pages the host is predicted still to send are split in
// two: victimOut, the pages of hinted writes already received but not yet in the buffer,
// which count down one by one as they arrive; and announcedAfter, the pages the latest
// hinted write said would come after it, which the next hinted write replaces. So several
// hinted writes in flight at once are each counted once, and the pass's last write, which
// announces only its own pages (nothing after it), leaves the prediction at zero once its
// pages have arrived.

// announce records the hint of a write of n pages that has just been received.
func (f *Firmware) announce(cmd *nvmectrl.Command, n int64) {
	if !cmd.Hint.Victim {
		return
	}
	f.wb.victimOut += n
	f.wb.announcedAfter = max(int64(cmd.Hint.Pages)-n, 0)
	f.evict.notify()
}

// victimStored counts one page of a hinted write off the prediction as it enters the
// buffer.
func (f *Firmware) victimStored(cmd *nvmectrl.Command) {
	if cmd.Hint.Victim && f.wb.victimOut > 0 {
		f.wb.victimOut--
	}
}

// announced returns the pages the host's victimization is predicted still to send.
func (f *Firmware) announced() int64 { return f.wb.victimOut + f.wb.announcedAfter }

// predicted returns the predicted occupancy: the occupancy, the pages announced and not yet
// received, and the slots reserved for writes whose data is on its way.
func (f *Firmware) predicted() int64 {
	return int64(f.buf.Occupancy()) + f.announced() + int64(f.wb.reserved)
}

// Upcall is which occupancy the buffer level in completions reports.
type Upcall uint8

// Upcall readings of the paper (DESIGN.md "Decisions after the first measurements").
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
func (u Upcall) String() string {
	if int(u) < len(upcallNames) {
		return upcallNames[u]
	}
	return fmt.Sprintf("Upcall(%d)", uint8(u))
}

// MarshalText implements encoding.TextMarshaler.
func (u Upcall) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (u *Upcall) UnmarshalText(b []byte) error {
	for i, n := range upcallNames {
		if string(b) == n {
			*u = Upcall(i)
			return nil
		}
	}
	return fmt.Errorf("upcall %q is not one of predicted, current", b)
}
