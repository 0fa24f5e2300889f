package channel

import (
	"strconv"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// eventKinds names the channel's event kinds.
var eventKinds = [...]string{evBus: "bus-phase-done", evArray: "array-done", evDispatch: "dispatch"}

// EventKind names the step ev runs, for event counts (sim.EventKinder).
func (c *Channel) EventKind(ev *sim.Event) string {
	if ev.Code >= 0 && ev.Code < int64(len(eventKinds)) {
		return eventKinds[ev.Code]
	}
	return "code " + strconv.FormatInt(ev.Code, 10)
}
