package pcie

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Hand arithmetic used throughout (docs/sources.md §2): on Gen3 x4 one byte takes
// 8 bits · 130/128 / (8 GT/s · 4 lanes) = 253.90625 ps = 65000/256 ps. A 4 KiB posted write at
// MPS 256 with 64-bit addresses is 16 TLPs × (256 + 24) B = 4480 B = 1 137 500 ps exactly.
// With the DLLP share it takes 1538·214/(1534·214 − 24608) = 329132/303668 times as long.
const (
	gen3x4Num = 65000 // ps per byte on Gen3 x4 = gen3x4Num / gen3x4Den
	gen3x4Den = 256
	latency   = 400 * sim.Nanosecond
)

func ceilDiv64(a, b int64) sim.Time { return sim.Time((a + b - 1) / b) }

// TestDMAWrite4KiB is the example: a 4 KiB posted DMA write on Gen3 x4 at MPS 256.
func TestDMAWrite4KiB(t *testing.T) {
	// Without DLLPs: 4480 B · 65000/256 ps = 1 137 500 ps, plus 400 ns latency.
	l := NewLink("pcie", noDLLP())
	require.Equal(t, sim.Time(1_137_500)+latency, l.DMAWrite(0, 4096))

	// With DLLPs: 1 137 500 · 329132 / 303668 = 1 232 884.76 → 1 232 885 ps.
	// 4096 B / 1.232885 µs = 3.32 GB/s, docs/sources.md §2's "about 3.3 GB/s".
	l = NewLink("pcie", DefaultSpec())
	want := ceilDiv64(1_137_500*329_132, 303_668)
	require.Equal(t, sim.Time(1_232_885), want)
	require.Equal(t, want+latency, l.DMAWrite(0, 4096))
	require.InDelta(t, 3.3e9, 4096/(float64(want)*1e-12), 0.05e9)

	// The whole of it is on Up: TLPs as "mwr", the link-layer share as "dllp".
	l.Sync(sim.MaxTime)
	end := want + latency
	require.Equal(t, sim.Time(1_137_500), l.Up.BusyAt(end, l.Up.Activity("mwr")))
	require.Equal(t, want-1_137_500, l.Up.BusyAt(end, l.Up.Activity(DLLPActivity)))
	require.Zero(t, l.Down.TotalBusyAt(end))
	require.Equal(t, int64(16), l.UpStats.TLPs[MWr])
	require.Equal(t, int64(4096), l.UpStats.Payload)
	require.Equal(t, int64(16*24), l.UpStats.Overhead)
}

// TestDMAWriteMPS128 checks docs/sources.md §2's "about 3.0 GB/s" at MPS 128: 32 TLPs × 152 B =
// 4864 B · 65000/256 = 1 235 000 ps, times 1538·169/(1534·169 − 24608) = 259922/234638.
func TestDMAWriteMPS128(t *testing.T) {
	s := DefaultSpec()
	s.MPS = 128
	want := ceilDiv64(1_235_000*259_922, 234_638)
	require.Equal(t, want+latency, NewLink("pcie", s).DMAWrite(0, 4096))
	require.InDelta(t, 3.0e9, 4096/(float64(want)*1e-12), 0.05e9)
}

// TestBackToBackWritesSerialize checks FIFO serialization on one direction.
func TestBackToBackWritesSerialize(t *testing.T) {
	l := NewLink("pcie", noDLLP())
	require.Equal(t, 1_137_500+latency, l.DMAWrite(0, 4096))
	// Issued while the first is on the wire: starts when it ends.
	require.Equal(t, 2*1_137_500+latency, l.DMAWrite(100*sim.Nanosecond, 4096))
	// Issued after the wire went idle: starts at its own time.
	require.Equal(t, 3*sim.Microsecond+1_137_500+latency, l.DMAWrite(3*sim.Microsecond, 4096))
	// The other direction is independent.
	require.Equal(t, sim.Time(7110)+latency, l.MMIOWrite(0, 4))
}

// TestNoDrift books many transfers whose wire time is not a whole number of picoseconds:
// a doorbell is 28 B · 253.90625 = 7109.375 ps. Back to back, 1000 of them end at exactly
// 7 109 375 ps, not 1000 · 7110 as rounding each one would give.
func TestNoDrift(t *testing.T) {
	l := NewLink("pcie", noDLLP())
	var last sim.Time
	for range 1000 {
		last = l.MMIOWrite(0, 4)
	}
	require.Equal(t, sim.Time(7_109_375)+latency, last)
	l.Sync(sim.MaxTime)
	require.Equal(t, sim.Time(7_109_375), l.Down.TotalBusyAt(last))

	// 1000 × 4 KiB with DLLPs: ceil(1000 · 1 137 500 · 329132 / 303668).
	l = NewLink("pcie", DefaultSpec())
	for range 1000 {
		last = l.DMAWrite(0, 4096)
	}
	require.Equal(t, ceilDiv64(1000*1_137_500*329_132, 303_668)+latency, last)
}

// TestDMAReadRoundTrip checks a 4 KiB device read: 8 MRd (MRRS 512) up, 16 CplD (MPS 256)
// down, and both latencies.
func TestDMAReadRoundTrip(t *testing.T) {
	l := NewLink("pcie", noDLLP())
	// First MRd: 24 B · 253.90625 = 6093.75 → 6094 ps; host sees it at 406 094 ps.
	// Completions: 16 × (256 + 20) B = 4416 B · 253.90625 = 1 121 250 ps.
	want := sim.Time(6094) + latency + 1_121_250 + latency
	require.Equal(t, sim.Time(1_927_344), want)
	require.Equal(t, want, l.DMARead(0, 4096))

	require.Equal(t, [NumKinds]int64{MRd: 8}, l.UpStats.TLPs)
	require.Equal(t, int64(8*24), l.UpStats.Overhead)
	require.Zero(t, l.UpStats.Payload)
	require.Equal(t, [NumKinds]int64{CplD: 16}, l.DownStats.TLPs)
	require.Equal(t, int64(4096), l.DownStats.Payload)
	require.Equal(t, int64(16*20), l.DownStats.Overhead)

	l.Sync(sim.MaxTime)
	require.Equal(t, sim.Time(8*24*gen3x4Num/gen3x4Den), l.Up.BusyAt(want, l.Up.Activity("mrd")))
	require.Equal(t, sim.Time(1_121_250), l.Down.BusyAt(want, l.Down.Activity("cpld")))
}

// TestSmallReadLatency checks a 64 B SQE fetch on the default link against docs/sources.md §2's
// DMA read round trip of ~0.7–1 µs.
func TestSmallReadLatency(t *testing.T) {
	rt := NewLink("pcie", DefaultSpec()).DMARead(0, 64)
	require.Greater(t, rt, 2*latency)
	require.GreaterOrEqual(t, rt, 700*sim.Nanosecond)
	require.LessOrEqual(t, rt, 1*sim.Microsecond)
}

// TestHostDMAReadMirrors checks that a host register read is the mirror of a device read:
// MRd 24 B = 6093.75 → 6094 ps, 400 ns, CplD 4 + 20 B = 6093.75 ps, 400 ns.
func TestHostDMAReadMirrors(t *testing.T) {
	want := sim.Time(6094) + latency + 6094 + latency
	l := NewLink("pcie", noDLLP())
	require.Equal(t, want, l.HostDMARead(0, 4))
	require.Equal(t, int64(1), l.DownStats.TLPs[MRd])
	require.Equal(t, int64(1), l.UpStats.TLPs[CplD])
	require.Equal(t, want, NewLink("pcie", noDLLP()).DMARead(0, 4))
}

// TestMSIX checks that an interrupt is a 4 B posted write up: 28 B = 7109.375 → 7110 ps.
func TestMSIX(t *testing.T) {
	l := NewLink("pcie", noDLLP())
	require.Equal(t, 7110+latency, l.MSIX(0))
	require.Equal(t, [NumKinds]int64{MSIX: 1}, l.UpStats.TLPs)
	l.Sync(sim.MaxTime)
	require.Equal(t, sim.Time(7110), l.Up.BusyAt(sim.Second, l.Up.Activity("msix")))
}

// TestGen1 checks 8b/10b: Gen1 x1 moves a byte in 10 bits / 2.5 GT/s = 4 ns. A doorbell with
// a 32-bit address is 4 + 20 = 24 B = 96 ns. With DLLPs (Gen1 x1, MPS 256: every 416 B) it
// takes 96 000 · 1538·416 / (1534·416 − 24608) = 96 000 · 639808/613536 ps.
func TestGen1(t *testing.T) {
	s := noDLLP()
	s.Gen, s.Lanes, s.Addr64 = 1, 1, false
	require.Equal(t, 96*sim.Nanosecond+latency, NewLink("pcie", s).MMIOWrite(0, 4))
	s.DLLPOverhead = true
	require.Equal(t, ceilDiv64(96_000*639_808, 613_536)+latency, NewLink("pcie", s).MMIOWrite(0, 4))
}

// TestGapFilling checks that a doorbell is not held behind completions booked for later.
func TestGapFilling(t *testing.T) {
	l := NewLink("pcie", noDLLP())
	// A 64 B read puts its CplD (84 B = 21 328.125 ps) on Down at 406 094 ps.
	l.DMARead(0, 64)
	// Doorbells at 100 ns and 398 ns fit before it (7109.375 ps each).
	require.Equal(t, 100*sim.Nanosecond+7110+latency, l.MMIOWrite(100*sim.Nanosecond, 4))
	require.Equal(t, 398*sim.Nanosecond+7110+latency, l.MMIOWrite(398*sim.Nanosecond, 4))
	// 4 KiB at 400 ns does not fit in the 6094 ps before it: it starts when the CplD ends,
	// 406 094 + 21 328.125 = 427 422.125 ps, and ends 1 137 500 ps later.
	require.Equal(t, sim.Time(1_564_923)+latency, l.MMIOWrite(400*sim.Nanosecond, 4096))

	end := 2 * sim.Microsecond
	l.Sync(end)
	mwr, cpld := l.Down.Activity("mwr"), l.Down.Activity("cpld")
	// Rounded intervals: [100000,107110) + [398000,405110) + [427423,1564923).
	require.Equal(t, sim.Time(7110+7110+1_137_500), l.Down.BusyAt(end, mwr))
	require.Equal(t, sim.Time(427_423-406_094), l.Down.BusyAt(end, cpld))
}

// TestNVMeWriteFlow drives a real engine through one NVMe write's link traffic: doorbell,
// SQE fetch, 4 KiB data fetch, CQE write and MSI-X, each issued when the previous arrives.
func TestNVMeWriteFlow(t *testing.T) {
	e := sim.NewEngine()
	l := NewLink("pcie", noDLLP())
	var got []sim.Time
	e.At(0, func() {
		db := l.MMIOWrite(e.Now(), 4)
		got = append(got, db)
		e.At(db, func() {
			sqe := l.DMARead(e.Now(), 64)
			got = append(got, sqe)
			e.At(sqe, func() {
				data := l.DMARead(e.Now(), 4096)
				got = append(got, data)
				e.At(data, func() {
					got = append(got, l.DMAWrite(e.Now(), 16), l.MSIX(e.Now()))
				})
			})
		})
	})
	e.Run()
	// Doorbell: 28 B = 7109.375 → 7110, +400 ns → 407 110.
	// SQE: MRd 24 B from 407 110 ends 413 203.75 → 413 204; +400 ns → 813 204; CplD 84 B =
	// 21 328.125 → 834 532.125 → 834 533; +400 ns → 1 234 533.
	// Data: first MRd ends 1 234 533 + 6093.75 → 1 240 627; +400 ns → 1 640 627; 16 CplD
	// 1 121 250 → 2 761 877; +400 ns → 3 161 877.
	// CQE: 16 + 24 = 40 B = 10 156.25 from 3 161 877 (Up idle since the MRds) ends
	// 3 172 033.25 → 3 172 034; +400 ns → 3 572 034.
	// MSI-X right behind it: 3 172 033.25 + 7109.375 = 3 179 142.625 → 3 179 143 → 3 579 143.
	require.Equal(t, []sim.Time{407_110, 1_234_533, 3_161_877, 3_572_034, 3_579_143}, got)
}

func TestPanics(t *testing.T) {
	bad := DefaultSpec()
	bad.Lanes = 3
	require.PanicsWithValue(t,
		"pcie x: invalid spec: pcie.lanes: 3 is not one of 1, 2, 4, 8, 16",
		func() { NewLink("x", bad) })
	l := NewLink("x", DefaultSpec())
	require.PanicsWithValue(t, "pcie x: DMAWrite of 0 bytes at 5ns", func() { l.DMAWrite(5*sim.Nanosecond, 0) })
	require.Panics(t, func() { l.DMARead(0, -1) })
	require.Panics(t, func() { l.MMIOWrite(-1, 4) })
}

func TestActivityNames(t *testing.T) {
	l := NewLink("pcie0", DefaultSpec())
	names := []string{"idle", "mwr", "mrd", "cpld", "msix", "dllp"}
	require.Equal(t, names, l.Down.Activities())
	require.Equal(t, names, l.Up.Activities())
	require.Equal(t, "pcie0.down", l.Down.Name())
	require.Equal(t, "pcie0.up", l.Up.Name())
	require.Equal(t, "cpld", CplD.String())
}

// TestBookingAhead checks a caller that books at a future time and then at an earlier one:
// the earlier transfer takes the idle wire before the future one, as long as no operation
// has been called after the future one's start.
func TestBookingAhead(t *testing.T) {
	l := NewLink("pcie", noDLLP())
	at10 := 10 * sim.Microsecond
	require.Equal(t, at10+1_137_500+latency, l.DMAWrite(at10, 4096))
	require.Equal(t, 1_137_500+latency, l.DMAWrite(0, 4096), "fits in the idle wire before 10 µs")
	// 8 writes of 1.1375 µs fit before 10 µs (9.1 µs); the 9th (to 10.2375 µs) does not.
	for i := range 7 {
		require.Equal(t, sim.Time(i+2)*1_137_500+latency, l.DMAWrite(0, 4096))
	}
	require.Equal(t, at10+2*1_137_500+latency, l.DMAWrite(0, 4096))

	// Once an operation is called at 11 µs, the booking at 10 µs is recorded and nothing can
	// go before it any more.
	l = NewLink("pcie", noDLLP())
	l.DMAWrite(at10, 4096)
	l.MMIOWrite(11*sim.Microsecond, 4)
	require.Equal(t, at10+2*1_137_500+latency, l.DMAWrite(0, 4096))
}
