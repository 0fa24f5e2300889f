package lostcmd

import (
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Firmware stands between a controller and its firmware (nvmectrl.Controller.SetFirmware)
// and drops the N-th I/O command (counting from 1) of opcode Op: the firmware never sees
// it, so it never completes. Every other command passes through, unless Hang is set: then
// every I/O command from that one on is dropped (a firmware that stopped taking commands).
type Firmware struct {
	Next nvmectrl.Firmware // the real firmware
	Op   nvme.Opcode
	N    int
	Hang bool
	// Dropped counts the commands dropped.
	Dropped int
	// Seen counts the commands of Op so far; Lost is the lost command as fetched (nil until
	// then), LostAt when the controller handed it over.
	Seen   int
	Lost   *nvmectrl.Command
	LostAt sim.Time
}

// Install puts a Firmware losing the n-th command of op between ctrl and its firmware.
// Install it once the host has probed the controller (a built machine): the controller's
// optional queries of its firmware (Identify's cache bit, namespaces, zones, FDP logs)
// are not passed through.
func Install(ctrl *nvmectrl.Controller, op nvme.Opcode, n int) *Firmware {
	f := &Firmware{Next: ctrl.Firmware(), Op: op, N: n}
	ctrl.SetFirmware(f)
	return f
}

// Submit implements nvmectrl.Firmware.
func (f *Firmware) Submit(now sim.Time, cmd *nvmectrl.Command) {
	if cmd.SQID != 0 {
		if f.Hang && f.Lost != nil {
			f.Dropped++
			return
		}
		if cmd.SQE.Opcode() == f.Op {
			if f.Seen++; f.Seen == f.N {
				f.Lost, f.LostAt = cmd, now
				f.Dropped++
				return
			}
		}
	}
	f.Next.Submit(now, cmd)
}
