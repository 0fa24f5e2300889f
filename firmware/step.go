package firmware

import "github.com/fastdrain-sim/fastdrain/sim"

// step is one named step of a firmware task, bound to its task once (when the task is
// built): a timer armed with it (Firmware.at) runs run when due, to completion, the way a
// controller's main loop runs the handler of the next due step. halt, if set, is a flag
// that stops the task: while it is true the step does nothing (no power). task and name
// name it in event counts (sim.TaskStepper).
type step struct {
	task, name string
	halt       *bool
	run        func()
}

// newStep binds run as the step called name of task, which halt stops.
func newStep(task, name string, halt *bool, run func()) step {
	return step{task: task, name: name, halt: halt, run: run}
}

// HandleEvent runs the step (sim.Handler).
func (s *step) HandleEvent(*sim.Event) {
	if s.halt != nil && *s.halt {
		return
	}
	s.run()
}

// TaskStep names the task and the step (sim.TaskStepper).
func (s *step) TaskStep() (task, step string) { return s.task, s.name }
