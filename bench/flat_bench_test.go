package bench

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
)

// flatSets is the fio path's machine (bench/instructions.sh): mqsim-ref with two dies of two
// planes per chip, 4 KiB pages, half the namespace preconditioned in random order.
var flatSets = []string{"flash.dies_per_package=2", "flash.die.page_size=4096",
	"precondition.fill=0.5", "precondition.random=true", "host.pagecache.direct_fua=false"}

// flatCases are BenchmarkFlatSize's arrays: channels × chips (two dies each), with the
// blocks per plane that keep the raw capacity at 64 GiB while the dies grow (64, 256 and
// 512 dies), and the 8×4 array at four times that capacity.
var flatCases = []struct {
	name string
	sets []string
}{
	{"8x4", []string{"flash.channels=8", "flash.ways=4", "flash.die.blocks_per_plane=512"}},
	{"16x8", []string{"flash.channels=16", "flash.ways=8", "flash.die.blocks_per_plane=128"}},
	{"32x8", []string{"flash.channels=32", "flash.ways=8", "flash.die.blocks_per_plane=64"}},
	{"8x4-4x-capacity", []string{"flash.channels=8", "flash.ways=4", "flash.die.blocks_per_plane=2048"}},
}

// BenchmarkFlatSize is issue 37's flatness check: the cost of one whole-stack 4 KiB random
// I/O at QD 32 (ns/op; one op is one I/O) on arrays of 8 × 4, 16 × 8 and 32 × 8 chips
// at one capacity, and on the 8 × 4 array at four times the capacity. Each case reports its
// cost over the 8×4 case's when that ran first in the same invocation ("x-8x4"; the target
// is 0.85–1.15), and its engine events per I/O. The build and, for writes, a warm-up of
// twice the DRAM buffer's pages are not timed, so the timed writes meet a full buffer.
// Reads are uniform over the preconditioned half, writes over the whole namespace. Wall
// time drifts on a shared machine: compare interleaved runs, or count instructions with
// bench/instructions.sh 'FlatSize/write/16x8$' (the build and warm-up drop out there).
func BenchmarkFlatSize(b *testing.B) {
	for _, op := range []uflip.Op{uflip.OpRead, uflip.OpWrite} {
		base := 0.0 // the 8x4 case's ns per I/O for op, once it has run
		for _, c := range flatCases {
			b.Run(op.String()+"/"+c.name, func(b *testing.B) {
				m, raw := machineOf(b, "mqsim-ref", "", append(append([]string{}, flatSets...), c.sets...)...)
				span := raw.Capacity()
				if op == uflip.OpRead {
					span = int64(m.Config.Precondition.Fill*float64(m.SSD.FW.LogicalPages())) * pageSize
				} else {
					drive(b, m, raw, op, 2*m.Config.Firmware.Buffer.Pages, span)
				}
				fired := m.Eng.Fired()
				b.ResetTimer()
				drive(b, m, raw, op, b.N, span)
				b.StopTimer()
				cost := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
				b.ReportMetric(float64(m.Eng.Fired()-fired)/float64(b.N), "events/IO")
				switch {
				case c.name == "8x4":
					base = cost
				case base > 0:
					b.ReportMetric(cost/base, "x-8x4")
				}
			})
		}
	}
}
