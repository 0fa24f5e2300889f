package nvmectrl

import "github.com/fastdrain-sim/fastdrain/sim"

// CommandTracer is told of every command the controller takes, for a timeline: one slice
// per command on its slot's track, and flow arrows from it to the work it causes (the
// firmware carries Command.Flow to that work). With none attached the controller pays one
// nil check per command at its arrival and one at its completion.
type CommandTracer interface {
	// CommandStart is called when cmd's SQE has arrived in slot cmd.Slot at t (its SQID
	// and SQE set). It returns the command's flow id (0: not traced), kept in cmd.Flow.
	CommandStart(t sim.Time, cmd *Command) uint64
	// CommandEnd is called when the firmware (or the controller, for a command it fails or
	// serves itself) completes cmd at t: its CQE is built and posted from then on.
	CommandEnd(t sim.Time, cmd *Command)
}

// SetCommandTracer attaches a tracer (nil detaches). Attach it before the run starts.
func (c *Controller) SetCommandTracer(t CommandTracer) { c.tracer = t }
