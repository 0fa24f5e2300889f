package main

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/replay"
	"github.com/fastdrain-sim/fastdrain/runner"
)

// replayNotes are the sentences about faults after replay's tables: the requests the device
// failed (the replay went on past them), then what happened to the drive (dev's notes).
func replayNotes(res *replay.Result, dev *runner.Result) []string {
	var notes []string
	if res.Errors > 0 {
		notes = append(notes, fmt.Sprintf("%d of %d requests failed with an I/O error and the replay went on; the first: %v.",
			res.Errors, res.Requests, res.DeviceErr))
	}
	return append(notes, dev.Notes()...)
}
