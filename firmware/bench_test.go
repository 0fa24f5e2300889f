package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// benchIO runs b.N 4 KiB random I/Os of op at QD 32 through the whole SSD (controller,
// HIL, buffer, FTL, scheduler, channels, dies) and reports simulated I/Os per wall-second.
func benchIO(b *testing.B, op nvme.Opcode) {
	s := smallSpec(FastDrain, "latency-aware")
	s.Verify = false
	r := newRig(b, s, nil)
	span := r.fw.LogicalPages() / 2
	if op == nvme.OpRead {
		if err := r.fw.Precondition(0.5, 0, false, 1); err != nil {
			b.Fatal(err)
		}
	}
	left := b.N
	for k := 0; k < 32; k++ {
		rng := sim.NewRNG(1, "bench"+string(rune('a'+k)))
		r.eng.Spawn("host", func(p *sim.Proc) {
			st := []uint64{0}
			for left > 0 {
				left--
				lba := rng.Int64N(span)
				st[0] = Stamp(lba, 2)
				r.cmd(p, op, lba, 1, nvme.Hint{}, st)
			}
		})
	}
	b.ReportAllocs()
	b.ResetTimer()
	r.eng.Run()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "IOs/s")
}

// BenchmarkRandomWrite4K: 4 KiB random writes through the firmware path (issue 3: no
// allocation per I/O in steady state).
func BenchmarkRandomWrite4K(b *testing.B) { benchIO(b, nvme.OpWrite) }

// BenchmarkRandomRead4K: 4 KiB random reads of preconditioned data from flash.
func BenchmarkRandomRead4K(b *testing.B) { benchIO(b, nvme.OpRead) }
