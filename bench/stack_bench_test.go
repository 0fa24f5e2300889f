package bench

import (
	"fmt"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// qd is the queue depth of the benchmarks: 32 processes, each with one synchronous 4 KiB
// O_DIRECT I/O in flight.
const qd = 32

// stackTarget is the whole-stack target of issue 8: simulated host I/Os per wall-second on
// one core. The read and write benchmarks on the preset report their rate over it as
// "x-target" (≥ 1: met); the fd variant has no target of its own.
const stackTarget = 500_000

// The other targets of issue 8, reported the same way (the benchmarks say how).
const (
	buildTarget = 0.5     // seconds per build of the 400 GB device
	heapTarget  = 1 << 30 // bytes of heap the 400 GB machine holds
	sweepTarget = 1.8     // two workers' sweep rate over one worker's
)

// pageSize is the I/O size: one 4 KiB logical block of the fastdrain-tlc namespace.
const pageSize = 4096

// machine builds the fastdrain-tlc preset (variant "" = the preset as it is), with extra
// --set overrides, and opens its raw block device.
func machine(tb testing.TB, variant string, sets ...string) (*platforms.Machine, *hostos.RawDevice) {
	tb.Helper()
	return machineOf(tb, "fastdrain-tlc", variant, sets...)
}

// machineOf is machine for any preset.
func machineOf(tb testing.TB, preset, variant string, sets ...string) (*platforms.Machine, *hostos.RawDevice) {
	tb.Helper()
	c, err := platforms.Load(platforms.Options{Preset: preset, Variant: variant, Sets: sets})
	if err != nil {
		tb.Fatal(err)
	}
	m, err := platforms.Build(c)
	if err != nil {
		tb.Fatal(err)
	}
	raw, err := hostos.NewRawDevice(m.Host, m.SSD.FW.LogicalPages()*int64(c.Firmware.PageSize))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(m.Eng.Close)
	return m, raw
}

// drive runs n 4 KiB random I/Os of op at QD 32 on raw and returns the simulated time they
// took. Offsets are uniform over the first span bytes (a multiple of 4 KiB), drawn from one
// PCG stream per process, so the run is deterministic.
func drive(tb testing.TB, m *platforms.Machine, raw *hostos.RawDevice, op uflip.Op, n int, span int64) sim.Time {
	tb.Helper()
	left, running := n, qd
	start := m.Eng.Now()
	var failed error
	for k := 0; k < qd; k++ {
		rng := sim.NewRNG(uint64(k)+1, fmt.Sprintf("bench.proc[%d]", k))
		m.Eng.Spawn(fmt.Sprintf("bench.proc[%d]", k), func(p *sim.Proc) {
			for left > 0 && failed == nil {
				left--
				off := rng.Int64N(span/pageSize) * pageSize
				if _, err := raw.Do(p, op, off, pageSize); err != nil {
					failed = err
				}
			}
			if running--; running == 0 {
				m.Eng.Stop()
			}
		})
	}
	m.Eng.Run()
	if failed != nil {
		tb.Fatal(failed)
	}
	if running != 0 {
		tb.Fatalf("%d processes still blocked at %v", running, m.Eng.Now())
	}
	return m.Eng.Now() - start
}

// benchStack runs b.N I/Os of op on the fastdrain-tlc preset and reports simulated host
// I/Os per wall-second ("IOs/s", target ≥ 500,000 on one core), the simulated IOPS and the
// engine events fired per I/O, and for the preset as it is (variant "") the rate over the
// target ("x-target").
// Reads are uniform over the preconditioned half of the namespace (every read goes to
// flash); writes over the whole namespace.
func benchStack(b *testing.B, op uflip.Op, variant string) {
	m, raw := machine(b, variant)
	span := raw.Capacity()
	if op == uflip.OpRead {
		span = int64(m.Config.Precondition.Fill*float64(m.SSD.FW.LogicalPages())) * pageSize
	}
	b.ReportAllocs()
	fired := m.Eng.Fired()
	b.ResetTimer()
	sim := drive(b, m, raw, op, b.N, span)
	rate := float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(rate, "IOs/s")
	if variant == "" {
		b.ReportMetric(rate/stackTarget, "x-target")
	}
	b.ReportMetric(float64(b.N)/sim.Seconds(), "sim-IOPS")
	b.ReportMetric(float64(m.Eng.Fired()-fired)/float64(b.N), "events/IO")
}

// BenchmarkStackRandRead4K: 4 KiB random reads at QD 32 through host, PCIe, NVMe,
// firmware and flash on the fastdrain-tlc preset. Target: ≥ 500,000 simulated I/Os per
// wall-second per core.
func BenchmarkStackRandRead4K(b *testing.B) { benchStack(b, uflip.OpRead, "") }

// BenchmarkStackRandWrite4K: 4 KiB random writes at QD 32 (O_DIRECT|O_SYNC, whose FUA the
// block layer drops: the drive's buffer is power-loss protected, so it reports no volatile
// write cache; served by that buffer, evicted to flash). Target as above.
func BenchmarkStackRandWrite4K(b *testing.B) { benchStack(b, uflip.OpWrite, "") }

// BenchmarkStackRandWrite4KFD: the random writes with the full FastDrain variant (fd:
// FastDrain buffer, latency-aware FTL, host hints).
func BenchmarkStackRandWrite4KFD(b *testing.B) { benchStack(b, uflip.OpWrite, "fd") }

// BenchmarkScaling shows how the cost grows: simulated I/Os per wall-second ("IOs/s") of
// 4 KiB random reads and writes at QD 32 for a base run (50,000 I/Os on the preset's
// 120 GiB device), a run ten times longer, and the same base run on the 4× larger 400 GB
// device (512 blocks per plane). Target: each within 20 % of the base; the longer run and
// the larger device report their rate over the base's ("x-base", within 0.8–1.2: met) when
// the base ran first in the same invocation. One iteration is one whole run; the build, and
// for writes a warm-up of twice the DRAM buffer's pages (so the timed writes all meet a full
// buffer and are matched by evictions), are not timed.
func BenchmarkScaling(b *testing.B) {
	const base = 50_000
	cases := []struct {
		name string
		ios  int
		sets []string
	}{
		{"base", base, nil},
		{"10x-longer", 10 * base, nil},
		{"4x-device", base, []string{"flash.die.blocks_per_plane=512"}},
	}
	for _, op := range []uflip.Op{uflip.OpRead, uflip.OpWrite} {
		baseRate := 0.0 // the base case's rate for op, once it has run
		for _, c := range cases {
			b.Run(op.String()+"/"+c.name, func(b *testing.B) {
				ios := 0
				for b.Loop() {
					b.StopTimer()
					m, raw := machine(b, "", c.sets...)
					span := raw.Capacity()
					if op == uflip.OpRead {
						span = int64(m.Config.Precondition.Fill*float64(m.SSD.FW.LogicalPages())) * pageSize
					} else {
						// Steady state: fill the DRAM buffer first, so every timed write
						// is matched by an eviction to flash.
						drive(b, m, raw, op, 2*m.Config.Firmware.Buffer.Pages, span)
					}
					b.StartTimer()
					drive(b, m, raw, op, c.ios, span)
					b.StopTimer()
					m.Eng.Close()
					ios += c.ios
					b.StartTimer()
				}
				rate := float64(ios) / b.Elapsed().Seconds()
				b.ReportMetric(rate, "IOs/s")
				switch {
				case c.name == "base":
					baseRate = rate
				case baseRate > 0:
					b.ReportMetric(rate/baseRate, "x-base")
				}
			})
		}
	}
}
