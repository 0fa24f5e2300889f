package prefetch

import (
	"testing"
	"unsafe"
)

// TestLineIsAHint: prefetching changes no memory, whatever the address.
func TestLineIsAHint(t *testing.T) {
	b := []uint64{1, 2, 3}
	Line(unsafe.Pointer(&b[1]))
	if b[0] != 1 || b[1] != 2 || b[2] != 3 {
		t.Fatalf("memory changed: %v", b)
	}
}

// BenchmarkLine measures one prefetch of a line already in cache (the call's cost).
func BenchmarkLine(b *testing.B) {
	x := make([]uint64, 8)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Line(unsafe.Pointer(&x[i&7]))
	}
}
