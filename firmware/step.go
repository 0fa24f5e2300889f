package firmware

import "github.com/fastdrain-sim/fastdrain/sim"

// step is one named step of a firmware task, bound to its task once (when the task is
// built): a timer armed with it (Firmware.at) runs run when due, to completion, the way a
// controller's main loop runs the handler of the next due step. halt, if set, is a flag
// that stops the task: while it is true the step does nothing (no power). The name is
// the event kind of the step for event counts (sim.EventKinder), "task: step".
type step struct {
	name string
	halt *bool
	run  func()
}

// newStep binds run as the step called name of a task that halt stops.
func newStep(name string, halt *bool, run func()) step {
	return step{name: name, halt: halt, run: run}
}

// HandleEvent runs the step (sim.Handler).
func (s *step) HandleEvent(*sim.Event) {
	if s.halt != nil && *s.halt {
		return
	}
	s.run()
}

// EventKind names the step (sim.EventKinder).
func (s *step) EventKind(*sim.Event) string { return s.name }
