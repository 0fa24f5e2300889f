package firmware

import (
	"strconv"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// The names of the firmware's event kinds, for event counts (sim.EventKinder): each is a
// step of a task, run to completion.
var (
	workerSteps = [...]string{
		stepStart: "start", stepData: "write-data", stepPages: "write-pages", stepRead: "read-done",
		stepFetched: "write-fetched", stepOld: "old-data", stepFlush: "flush-look", stepRanges: "dsm-ranges",
		stepTrim: "trim-page", stepBoot: "boot", stepZero: "zero-page",
	}
	evictorSteps = [...]string{evRound: "round", evDecided: "decided", evIssued: "issued", evRetry: "retry"}
	gcSteps      = [...]string{
		gcWake: "wake", gcProgs: "programs-done", gcRead: "read", gcComputed: "computed", gcMoved: "moved", gcErased: "erased",
	}
	opDone = [...]string{opHostRead: "done: host-read", opEvict: "done: evict-program", opGCRead: "done: gc-read",
		opGCProgram: "done: gc-program", opErase: "done: erase"}
	opArrive = [...]string{opHostRead: "arrive: host-read", opEvict: "arrive: evict-program", opGCRead: "arrive: gc-read",
		opGCProgram: "arrive: gc-program", opErase: "arrive: erase"}
	plEvents = [...]string{plDeadline: "holdup-end", plCut: "cut"}
)

// stepName is names[code], or the code's number if it has no name.
func stepName(names []string, code int64) string {
	if code >= 0 && code < int64(len(names)) && names[code] != "" {
		return names[code]
	}
	return "code " + strconv.FormatInt(code, 10)
}

// EventKind names the worker's step (sim.EventKinder).
func (wk *worker) EventKind(ev *sim.Event) string { return stepName(workerSteps[:], ev.Code) }

// EventKind names the evictor's step (sim.EventKinder).
func (ev *evictor) EventKind(e *sim.Event) string { return stepName(evictorSteps[:], e.Code) }

// EventKind names the GC task's step (sim.EventKinder).
func (t *gcTask) EventKind(ev *sim.Event) string { return stepName(gcSteps[:], ev.Code) }

// EventKind names the power-loss event (sim.EventKinder).
func (p *powerState) EventKind(ev *sim.Event) string { return stepName(plEvents[:], ev.Code) }

// EventKind names what the completed transaction was for (sim.EventKinder).
func (s *scheduler) EventKind(ev *sim.Event) string {
	if tx, ok := ev.Data.(*channel.Transaction); ok {
		if op, ok := tx.Tag.(*flashOp); ok {
			return stepName(opDone[:], int64(op.kind))
		}
	}
	return "done"
}

// EventKind names what the arriving operation is for (sim.EventKinder).
func (a *arrivalHandler) EventKind(ev *sim.Event) string {
	if op, ok := ev.Data.(*flashOp); ok {
		return stepName(opArrive[:], int64(op.kind))
	}
	return "arrive"
}
