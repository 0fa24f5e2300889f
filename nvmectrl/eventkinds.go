package nvmectrl

import (
	"strconv"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// eventKinds names the controller's event kinds (the low byte of Event.Code).
var eventKinds = [...]string{
	evSQDoorbell: "sq-doorbell",
	evCQDoorbell: "cq-doorbell",
	evArbitrate:  "arbitrate",
	evFetchDone:  "sqe-fetched",
	evAdmin:      "admin",
	evPost:       "cqe-post",
	evCQEArrive:  "cqe-arrive",
	evCoalesce:   "coalesce-timer",
	evMSIXArrive: "msix-arrive",
	evDrainCQ:    "drain-cq",
	evDMA:        "dma-tags-back",
}

// EventKind names the step ev runs, for event counts (sim.EventKinder).
func (c *Controller) EventKind(ev *sim.Event) string {
	if k := ev.Code & 0xFF; k < int64(len(eventKinds)) && eventKinds[k] != "" {
		return eventKinds[k]
	}
	return "code " + strconv.FormatInt(ev.Code&0xFF, 10)
}
