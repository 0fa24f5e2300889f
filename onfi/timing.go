package onfi

import "github.com/fastdrain-sim/fastdrain/sim"

// The functions below turn a Spec into bus time. Each is a pure function of the spec and its
// arguments. plane is 0-based and planes is the number of planes in a multi-plane command
// (1 for a single-plane command); the timing of each plane follows Sequence.

// MTps returns the data rate of the spec's interface and mode in mega-transfers per second
// (docs/sources.md §3.1), or 0 if the mode does not exist (Validate reports it).
func (s Spec) MTps() int {
	if s.Rate > 0 {
		return s.Rate
	}
	r, _ := RateMTps(s.Interface, s.Mode)
	return r
}

// CmdCycle returns the bus time of one command or address cycle: tWC, but no shorter than
// tCAD, the minimum spacing of command/address cycles on NV-DDR and later interfaces.
func (s Spec) CmdCycle() sim.Time { return max(s.TWC, s.TCAD) }

// CmdAddr returns the bus time of cmds command cycles and addrs address cycles.
func (s Spec) CmdAddr(cmds, addrs int) sim.Time { return sim.Time(cmds+addrs) * s.CmdCycle() }

// Transfer returns the bus time of moving n bytes of data in or out: ⌈n / (BusWidth/8)⌉
// transfers at MTps, i.e. 10⁶/MTps ps each. The total is rounded up to a whole picosecond
// once (not per transfer), so a transfer is never faster than the bus:
// 16,384 B at 333 MT/s on 8 bits = ⌈16384·10⁶/333⌉ ps = 49,201,202 ps. A burst's fixed
// cost TBurst (preamble and postamble) is added once.
func (s Spec) Transfer(n int) sim.Time {
	if n <= 0 {
		return 0
	}
	bytesPer := int64(s.BusWidth / 8)
	transfers := (int64(n) + bytesPer - 1) / bytesPer
	rate := int64(s.MTps())
	return sim.Time((transfers*1_000_000+rate-1)/rate) + s.TBurst
}

// fullAddr returns the number of address cycles of a column-and-row address.
func (s Spec) fullAddr() int { return s.ColumnCycles + s.RowCycles }

// dummyBusy returns tDBSY for every plane but the last of a multi-plane command.
func (s Spec) dummyBusy(plane, planes int) sim.Time {
	if plane < planes-1 {
		return s.TDBSY
	}
	return 0
}

// ReadIssue returns the bus time to issue the read of one plane: 00h, column and row
// address, 30h (32h for a non-last plane), then tWB until the die goes busy, plus tDBSY
// after a non-last plane. The die's tR starts when the last plane's ReadIssue ends.
func (s Spec) ReadIssue(plane, planes int) sim.Time {
	return s.CmdAddr(2, s.fullAddr()) + s.TWB + s.dummyBusy(plane, planes)
}

// ReadOutSetup returns the bus time before a plane's data can be clocked out after tR:
// tRR for the first plane, and, in a multi-plane read, selecting each plane's register
// with 06h-address-E0h followed by tCCS.
func (s Spec) ReadOutSetup(plane, planes int) sim.Time {
	var t sim.Time
	if plane == 0 {
		t = s.TRR
	}
	if planes > 1 {
		t += s.CmdAddr(2, s.fullAddr()) + s.TCCS
	}
	return t
}

// ProgramSetup returns the bus time before a plane's data-in: 80h (81h for a later plane),
// column and row address, then tADL.
func (s Spec) ProgramSetup(plane, planes int) sim.Time {
	return s.CmdAddr(1, s.fullAddr()) + s.TADL
}

// ProgramConfirm returns the bus time after a plane's data-in: the confirm command (10h,
// 15h for cache program, 11h for a non-last plane), tWB, and tDBSY after a non-last plane.
// The die's tPROG starts when the last plane's ProgramConfirm ends.
func (s Spec) ProgramConfirm(plane, planes int) sim.Time {
	return s.CmdAddr(1, 0) + s.TWB + s.dummyBusy(plane, planes)
}

// EraseIssue returns the bus time to issue the erase of one plane's block: 60h, row address,
// D0h (D1h for a non-last plane), tWB, plus tDBSY after a non-last plane.
func (s Spec) EraseIssue(plane, planes int) sim.Time {
	return s.CmdAddr(2, s.RowCycles) + s.TWB + s.dummyBusy(plane, planes)
}

// StatusRead returns the bus time of one status poll: 70h (or 78h with a row address when
// enhanced, needed when several dies share the chip enable), tWHR, and one status byte.
func (s Spec) StatusRead(enhanced bool) sim.Time {
	addrs := 0
	if enhanced {
		addrs = s.RowCycles
	}
	return s.CmdAddr(1, addrs) + s.TWHR + s.Transfer(s.BusWidth/8)
}

// ReadCommand returns the bus time to issue a planes-plane read (the sum of ReadIssue).
func (s Spec) ReadCommand(planes int) sim.Time {
	var t sim.Time
	for p := range planes {
		t += s.ReadIssue(p, planes)
	}
	return t
}

// ReadDataOut returns the bus time to move a planes-plane read's data out after tR, with n
// bytes per plane: the sum of ReadOutSetup and Transfer(n) over the planes.
func (s Spec) ReadDataOut(planes, n int) sim.Time {
	var t sim.Time
	for p := range planes {
		t += s.ReadOutSetup(p, planes) + s.Transfer(n)
	}
	return t
}

// ProgramBus returns the bus time of a planes-plane program (or cache program) with n bytes
// per plane, split into command time (setup and confirm of every plane) and data-in time.
func (s Spec) ProgramBus(planes, n int) (cmd, data sim.Time) {
	for p := range planes {
		cmd += s.ProgramSetup(p, planes) + s.ProgramConfirm(p, planes)
		data += s.Transfer(n)
	}
	return cmd, data
}

// EraseCommand returns the bus time to issue a planes-plane erase (the sum of EraseIssue).
func (s Spec) EraseCommand(planes int) sim.Time {
	var t sim.Time
	for p := range planes {
		t += s.EraseIssue(p, planes)
	}
	return t
}
