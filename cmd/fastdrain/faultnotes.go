package main

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/hostos/replay"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
)

// fioNotes are the sentences about faults after fio's table: each job an I/O error stopped
// (fio stops a job at its first error), then what happened to the drive (dev's notes).
func fioNotes(res []fio.JobResult, dev *runner.Result) []string {
	var notes []string
	for _, r := range res {
		if r.Err != "" {
			notes = append(notes, fmt.Sprintf("job %s stopped at its first I/O error, %s after it started, as fio stops a job (errno %d): %s.",
				r.Name, report.Duration(r.ErrAt), r.Errno, r.Err))
		}
	}
	return append(notes, dev.Notes()...)
}

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
