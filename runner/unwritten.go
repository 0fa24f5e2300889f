package runner

import (
	"fmt"
	"io"

	"github.com/fastdrain-sim/fastdrain/firmware"
)

// unwrittenShare is the share of read pages above which reads of never-written pages get a
// warning: the firmware answers them without touching flash, so a workload that reads what
// it never wrote on a device that was not preconditioned measures the buffer, not the drive.
const unwrittenShare = 0.01

// WarnUnwritten prints the warning for the firmware counters of one run (st minus before)
// when more than 1 % of the read pages had never been written; it returns the count.
func WarnUnwritten(w io.Writer, label string, st, before firmware.Stats) int64 {
	reads, unmapped := st.ReadPages-before.ReadPages, st.Unmapped-before.Unmapped
	if reads > 0 && float64(unmapped) > unwrittenShare*float64(reads) {
		fmt.Fprintf(w, "warning: %s%d of %d read pages (%.1f %%) had never been written and were answered without a flash read; precondition the device (precondition.fill) or write before reading to measure the flash\n",
			label, unmapped, reads, 100*float64(unmapped)/float64(reads))
	}
	return unmapped
}
