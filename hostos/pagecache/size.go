package pagecache

import "github.com/fastdrain-sim/fastdrain/sim"

// Size is an amount of memory or storage in bytes ("4GiB", "512MiB"); it is sim.Size, shared
// by every configuration section.
type Size = sim.Size

// Binary size units, re-exported from sim for this package's specs.
const (
	B   = sim.Byte
	KiB = sim.KiB
	MiB = sim.MiB
	GiB = sim.GiB
	TiB = sim.TiB
)
