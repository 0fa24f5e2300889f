package pcie

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// BenchmarkDMAWrite4KiB books one 4 KiB posted write per iteration, each issued when the
// previous one arrives, as a controller streaming read data does.
func BenchmarkDMAWrite4KiB(b *testing.B) {
	l := NewLink("pcie", DefaultSpec())
	var now sim.Time
	b.ReportAllocs()
	for b.Loop() {
		now = l.DMAWrite(now, 4096) - l.spec.Latency
	}
}

// BenchmarkDMARead64 books one SQE fetch per iteration, each issued when the previous
// completes.
func BenchmarkDMARead64(b *testing.B) {
	l := NewLink("pcie", DefaultSpec())
	var now sim.Time
	b.ReportAllocs()
	for b.Loop() {
		now = l.DMARead(now, 64)
	}
}

// BenchmarkCommandTraffic books the link traffic of one 4 KiB write command per iteration:
// doorbell, SQE fetch, data fetch, CQE, MSI-X, issued every 1.5 µs (just above the
// ~1.25 µs the data completions need on Down), so several commands overlap on the link.
func BenchmarkCommandTraffic(b *testing.B) {
	l := NewLink("pcie", DefaultSpec())
	var now sim.Time
	b.ReportAllocs()
	for b.Loop() {
		l.MMIOWrite(now, 4)
		l.DMARead(now, 64)
		l.DMARead(now, 4096)
		l.DMAWrite(now, 16)
		l.MSIX(now)
		now += 1500 * sim.Nanosecond
	}
}

// BenchmarkTLPTime measures the pure helper, which derives the rates from the spec.
func BenchmarkTLPTime(b *testing.B) {
	s := DefaultSpec()
	b.ReportAllocs()
	for b.Loop() {
		_ = s.TLPTime(s.WriteTLPBytes(4096))
	}
}
