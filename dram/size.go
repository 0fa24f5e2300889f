package dram

import "github.com/fastdrain-sim/fastdrain/sim"

// Size is a number of bytes; it is sim.Size, shared by every configuration section.
type Size = sim.Size

// Binary size units, re-exported from sim for this package's specs.
const (
	Byte = sim.Byte
	KiB  = sim.KiB
	MiB  = sim.MiB
	GiB  = sim.GiB
	TiB  = sim.TiB
)
