package nvmedrv

import (
	"strconv"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// EventKind names the step ev runs, for event counts (sim.EventKinder).
func (v *vector) EventKind(ev *sim.Event) string {
	switch ev.Code {
	case evIRQEntered:
		return "irq-entered"
	case evCQEDone:
		return "cqe-done"
	}
	return "code " + strconv.FormatInt(ev.Code, 10)
}
