package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestReadNotHeldBehindWriteData: with one HIL worker, eight 128 KiB writes arrive just
// before a 4 KiB read of a buffered page. The worker hands each write to a write context
// once it has parsed it, so the read waits for no write's data. By hand, its extra delay
// over the same read on an idle machine is at most:
//   - the doorbell and the SQE completion each wait for at most the DMA window on the
//     host→device direction, 32 tags × 512 B = 16 KiB: 16 KiB in 64 completions of
//     276 B = 17,664 B, plus one 276 B TLP, × 253.90625 ps/B (Gen3 x4) = 4.56 µs before the
//     DLLP share; 5 µs each, 10 µs both;
//   - the eight writes' parsing on the worker's core ahead of it: 8 × 800 cycles at 400 MHz
//     = 16 µs;
//
// 26 µs in all. Held behind the writes' data it would wait for at least their 1 MiB on the
// link: 1 MiB × 276/256 × 253.90625 ps = 287 µs.
func TestReadNotHeldBehindWriteData(t *testing.T) {
	run := func(writes int) sim.Time {
		s := smallSpec(Vanilla, "sequential")
		s.Buffer.Pages = 512
		s.Workers = 1
		r := newRig(t, s, nil)
		var lat sim.Time
		r.eng.Spawn("seed", func(p *sim.Proc) {
			// Page 1000 in the buffer, so the read is a buffer hit with no flash time.
			r.cmd(p, nvme.OpWrite, 1000, 1, nvme.Hint{}, []uint64{Stamp(1000, 1)})
			start := p.Now() + 100*sim.Microsecond
			for w := 0; w < writes; w++ {
				lba := int64(32 * w)
				r.eng.Spawn("writer", func(p *sim.Proc) {
					p.SleepUntil(start)
					stamps := make([]uint64, 32)
					for i := range stamps {
						stamps[i] = Stamp(lba+int64(i), 1)
					}
					r.cmd(p, nvme.OpWrite, lba, 32, nvme.Hint{}, stamps)
				})
			}
			p.SleepUntil(start + sim.Microsecond)
			got := make([]uint64, 1)
			lat = r.cmd(p, nvme.OpRead, 1000, 1, nvme.Hint{}, got).latency
			require.Equal(t, Stamp(1000, 1), got[0])
		})
		r.eng.Run()
		return lat
	}
	idle, busy := run(0), run(8)
	require.LessOrEqual(t, busy, idle+26*sim.Microsecond, "idle %v, behind 8 writes %v", idle, busy)
}
