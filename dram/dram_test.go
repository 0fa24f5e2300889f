package dram

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/sim"
)

const ns = sim.Nanosecond

// op is one data move issued by its own process at a given time.
type op struct {
	at    sim.Time
	addr  uint64
	bytes int
	write bool
}

// run drives a real engine: each op is a process that calls Access at op.at and sleeps
// until the returned time. It returns the time each process woke (its completion).
// Processes that start at the same time call Access in the order given.
func run(t *testing.T, d *DRAM, ops ...op) []sim.Time {
	t.Helper()
	eng := sim.NewEngine()
	defer eng.Close()
	done := make([]sim.Time, len(ops))
	for i, o := range ops {
		eng.Spawn("mover", func(p *sim.Proc) {
			p.SleepUntil(o.at)
			p.SleepUntil(d.Access(p.Now(), o.addr, o.bytes, o.write))
			done[i] = p.Now()
		})
	}
	eng.Run()
	return done
}

// quiet is DefaultSpec without refresh, so hand computations need not account for it.
func quiet() Spec {
	s := DefaultSpec()
	s.Refresh = false
	return s
}

// Hand numbers below use docs/sources.md §4.1 DDR3-1600: tCK 1.25 ns, CL = tRCD = tRP = 13.75 ns,
// CWL 10 ns (8 nCK), tRAS 35 ns, tRRD 7.5 ns, tFAW 40 ns, tWTR = tRTP = 7.5 ns, BL8 burst
// 4 tCK = 5 ns. DefaultSpec is x32, so a burst carries 32 B; a row is 4 KiB, 8 banks.
const rowStride = 8 * 4096 // same bank, next row: RowSize × Banks

func TestAccessTiming(t *testing.T) {
	x64 := quiet()
	x64.BusWidth, x64.RowSize = 64, 8*KiB
	ddr4 := quiet() // DDR4 with 16 banks; DDR3-1600 timings kept so the sums stay the same
	ddr4.Kind, ddr4.Banks = "ddr4", 16
	tests := []struct {
		name string
		spec Spec
		ops  []op
		want []sim.Time
	}{
		// Closed bank: tRCD + CL + bursts. x64: 64 B is one burst: 13.75 + 13.75 + 5.
		{"closed bank x64", x64, []op{{0, 0, 64, false}}, []sim.Time{32500}},
		// x32: 64 B is two bursts: 13.75 + 13.75 + 2 × 5 = 37.5 ns.
		{"closed bank x32", quiet(), []op{{0, 0, 64, false}}, []sim.Time{37500}},
		// Second read of the open row at 100 ns: CL + 2 bursts = 100 + 13.75 + 10.
		{"row hit", quiet(), []op{{0, 0, 64, false}, {100 * ns, 64, 64, false}},
			[]sim.Time{37500, 123750}},
		// Other row, same bank at 200 ns: tRP + tRCD + CL + 10 = 200 + 41.25 + 10.
		{"row conflict", quiet(), []op{{0, 0, 64, false}, {200 * ns, rowStride, 64, false}},
			[]sim.Time{37500, 251250}},
		// Conflict issued at once: precharge waits for tRAS = 35 ns after the activate at 0
		// (tRTP would allow 13.75 + 5 + 7.5 = 26.25), then 35 + 13.75 + 13.75 + 13.75 + 10.
		{"conflict respects tRAS", quiet(), []op{{0, 0, 64, false}, {0, rowStride, 64, false}},
			[]sim.Time{37500, 86250}},
		// 4 KiB write, closed bank: tRCD + CWL + 128 bursts × 5 ns = 13.75 + 10 + 640.
		// 640 ns = 4096 B / (4 B × 1600 MT/s).
		{"4KiB write", quiet(), []op{{0, 0, 4096, true}}, []sim.Time{663750}},
		// Two movers at once to different banks: the second's data waits for the first's
		// 640 ns on the bus, so it ends exactly its own 640 ns of bus time later.
		{"two movers contend", quiet(), []op{{0, 0, 4096, true}, {0, 4096, 4096, true}},
			[]sim.Time{663750, 1303750}},
		// 8 KiB read across a row boundary: bank 1 activates during bank 0's stream, so the
		// bus streams back to back: 27.5 + 2 × 640.
		{"sequential across banks", quiet(), []op{{0, 0, 8192, false}}, []sim.Time{1307500}},
		// With 16 banks, address 8 × 4 KiB is bank 8, not bank 0's next row: no conflict.
		// The second activate waits tRRD (7.5 ns), its data the first's bus time (37.5 ns):
		// 37.5 + 10 = 47.5 ns.
		{"ddr4 16 banks", ddr4, []op{{0, 0, 64, false}, {0, rowStride, 64, false}},
			[]sim.Time{37500, 47500}},
		// One byte still costs one burst: 13.75 + 13.75 + 5.
		{"partial burst", quiet(), []op{{0, 100, 1, false}}, []sim.Time{32500}},
		// 64 B at offset 16 straddles three 32 B bursts: 27.5 + 15.
		{"unaligned", quiet(), []op{{0, 16, 64, false}}, []sim.Time{42500}},
		// Work starts on the next clock edge: now = 1 ps → 1.25 ns, + 37.5 ns.
		{"clock edge", quiet(), []op{{1, 0, 64, false}}, []sim.Time{38750}},
		// Write to bank 0, then read from bank 1: write data 23.75–33.75 ns; the read waits
		// tWTR after it: command 41.25, data 55 + 10 = 65 ns.
		{"write to read tWTR", quiet(), []op{{0, 0, 64, true}, {0, 4096, 64, false}},
			[]sim.Time{33750, 65000}},
		// Five one-burst reads to banks 0–4 at once: activates at 0, 7.5, 15, 22.5 (tRRD),
		// the fifth waits for tFAW: 0 + 40, then 40 + 13.75 + 13.75 + 5 = 72.5 ns. The others
		// end at act + 32.5, with their bursts spaced by tRRD (32.5, 40, 47.5, 55).
		{"tRRD and tFAW", quiet(), []op{{0, 0, 32, false}, {0, 4096, 32, false},
			{0, 2 * 4096, 32, false}, {0, 3 * 4096, 32, false}, {0, 4 * 4096, 32, false}},
			[]sim.Time{32500, 40000, 47500, 55000, 72500}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, run(t, New("dram", tc.spec), tc.ops...))
		})
	}
}

func TestRowCounters(t *testing.T) {
	d := New("dram", quiet())
	// Miss (closed), hit, conflict (other row in bank 0), and an 8 KiB read from bank 2
	// that crosses into bank 3: two more misses.
	run(t, d, op{0, 0, 64, false}, op{100 * ns, 128, 64, true}, op{200 * ns, rowStride, 64, false},
		op{300 * ns, 2 * 4096, 8192, false})
	require.Equal(t, Stats{
		Reads: 3, Writes: 1, BytesRead: 64 + 64 + 8192, BytesWritten: 64,
		RowHits: 1, RowMisses: 3, RowConflicts: 1,
	}, d.Stats())
}

func TestBusUtilization(t *testing.T) {
	d := New("dram", quiet())
	run(t, d, op{0, 0, 4096, true}, op{0, 4096, 4096, true}, op{2 * sim.Microsecond, 0, 4096, false})
	// Two 4 KiB writes: 2 × 640 ns of write; one 4 KiB read: 640 ns (docs/sources.md §4.1, x32).
	bus := d.Bus()
	end := 3 * sim.Microsecond
	require.Equal(t, 1280*ns, bus.BusyAt(end, bus.Activity("write")))
	require.Equal(t, 640*ns, bus.BusyAt(end, bus.Activity("read")))
	require.Equal(t, sim.Time(0), bus.BusyAt(end, bus.Activity("refresh")))
}

func TestRefresh(t *testing.T) {
	d := New("dram", DefaultSpec())
	// Row 0 opened at 0. The refresh due at tREFI = 7.8 µs precharges it (its tRAS expired
	// long ago) at 7800, refreshes from 7813.75 for tRFC = 160 ns to 7973.75, and closes
	// every row, so the read at 7.8 µs misses: 7973.75 + 13.75 + 13.75 + 10 = 8011.25 ns.
	done := run(t, d, op{0, 0, 64, false}, op{7800 * ns, 0, 64, false})
	require.Equal(t, []sim.Time{37500, 8011250}, done)
	st := d.Stats()
	require.Equal(t, int64(1), st.Refreshes)
	require.Equal(t, int64(0), st.RowHits)
	require.Equal(t, int64(2), st.RowMisses)
	bus := d.Bus()
	require.Equal(t, 160*ns, bus.BusyAt(10*sim.Microsecond, bus.Activity("refresh")))

	// After an idle stretch every due refresh is charged: at 10 × 7.8 µs + 1 ns, ten more.
	d = New("dram", DefaultSpec())
	run(t, d, op{78001 * ns, 0, 64, false})
	require.Equal(t, int64(10), d.Stats().Refreshes)
	bus = d.Bus()
	require.Equal(t, 1600*ns, bus.BusyAt(100*sim.Microsecond, bus.Activity("refresh")))
}

func TestRefreshWaitsForBus(t *testing.T) {
	d := New("dram", DefaultSpec())
	// A 4 KiB write to bank 1 at 7.7 µs streams until 7700 + 13.75 + 10 + 640 = 8363.75 ns,
	// past the refresh due at 7.8 µs. A read at 7.9 µs triggers that refresh; it waits for
	// the bus and for bank 1's write recovery: precharge at 8363.75 + 15 = 8378.75, refresh
	// 8392.5–8552.5, then the read misses: 8552.5 + 37.5 = 8590 ns.
	done := run(t, d, op{7700 * ns, 4096, 4096, true}, op{7900 * ns, 0, 64, false})
	require.Equal(t, []sim.Time{8363750, 8590000}, done)
}

func TestPeakBandwidth(t *testing.T) {
	// docs/sources.md §4.1: 1600 MT/s × width: x16 3.2, x32 6.4, x64 12.8 GB/s.
	for _, tc := range []struct {
		width int
		want  int64
	}{{16, 3_200_000_000}, {32, 6_400_000_000}, {64, 12_800_000_000}} {
		s := quiet()
		s.BusWidth = tc.width
		require.Equal(t, tc.want, New("dram", s).PeakBandwidth(), "x%d", tc.width)
	}
}

func TestAccessEdgeCases(t *testing.T) {
	d := New("dram", quiet())
	require.Equal(t, 5*ns, d.Access(5*ns, 0, 0, false), "zero bytes cost nothing")
	require.Equal(t, Stats{}, d.Stats())
	last := uint64(512 * MiB)
	require.NotPanics(t, func() { d.Access(0, last-64, 64, false) })
	require.PanicsWithValue(t, "dram dram at 0s: access [0x1fffffc0, 0x20000040) beyond capacity 512MiB",
		func() { d.Access(0, last-64, 128, false) }, "crossing the end")
	require.Panics(t, func() { d.Access(0, 1<<63, 1, false) }, "far out of range")
	require.Panics(t, func() { d.Access(0, 0, -1, true) }, "negative size")
	require.Panics(t, func() { New("dram", Spec{}) }, "invalid spec")
}

func BenchmarkAccess(b *testing.B) {
	b.Run("sequential-4KiB", func(b *testing.B) {
		d := New("dram", DefaultSpec())
		var now sim.Time
		var addr uint64
		b.ReportAllocs()
		for b.Loop() {
			now = d.Access(now, addr, 4096, true)
			addr = (addr + 4096) % uint64(512*MiB)
		}
	})
	b.Run("random-64B", func(b *testing.B) {
		d := New("dram", DefaultSpec())
		var now sim.Time
		rng := uint64(12345)
		b.ReportAllocs()
		for b.Loop() {
			rng = rng*6364136223846793005 + 1442695040888963407
			now = d.Access(now, (rng>>20)%uint64(512*MiB-64), 64, rng&1 == 0)
		}
	})
}
