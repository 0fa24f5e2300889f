package firmware

import (
	"strconv"

	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// The names of the flash operations' event kinds, for event counts (sim.EventKinder): a
// transaction's completion and an operation's arrival at its die's queue, by what the
// operation is for. (The tasks' steps are named by their step values, step.go.)
var (
	opDone = [...]string{opHostRead: "done: host-read", opEvict: "done: evict-program", opGCRead: "done: gc-read",
		opGCProgram: "done: gc-program", opErase: "done: erase", opPad: "done: finality-pad", opBackup: "done: zone-backup"}
	opArrive = [...]string{opHostRead: "arrive: host-read", opEvict: "arrive: evict-program", opGCRead: "arrive: gc-read",
		opGCProgram: "arrive: gc-program", opErase: "arrive: erase", opPad: "arrive: finality-pad", opBackup: "arrive: zone-backup"}
)

// opName is names[k], or the kind's number if it has no name.
func opName(names []string, k opKind) string {
	if int(k) < len(names) && names[k] != "" {
		return names[k]
	}
	return "kind " + strconv.Itoa(int(k))
}

// EventKind names what the completed transaction was for (sim.EventKinder).
func (s *scheduler) EventKind(ev *sim.Event) string {
	if tx, ok := ev.Data.(*hal.FlashCmd); ok {
		if op, ok := tx.Tag.(*flashOp); ok {
			return opName(opDone[:], op.kind)
		}
	}
	return "done"
}

// EventKind names what the arriving operation is for (sim.EventKinder).
func (a *arrivalHandler) EventKind(ev *sim.Event) string {
	if op, ok := ev.Data.(*flashOp); ok {
		return opName(opArrive[:], op.kind)
	}
	return "arrive"
}
