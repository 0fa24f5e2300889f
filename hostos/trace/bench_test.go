package trace

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/sampletraces"
)

// BenchmarkVSCSI parses the 113,873-line CloudPhysics sample from memory and reports
// lines per second; per-line parsing should not allocate (the allocations are the
// Reader and its 64 KiB buffer).
func BenchmarkVSCSI(b *testing.B) {
	data, err := os.ReadFile(sampletraces.Path(b, sampletraces.CloudPhysics))
	if err != nil {
		b.Fatal(err)
	}
	benchParse(b, data)
}

// BenchmarkBlkparse parses the 50,000-line blkparse sample.
func BenchmarkBlkparse(b *testing.B) {
	data, err := os.ReadFile(sampletraces.Path(b, sampletraces.Apress))
	if err != nil {
		b.Fatal(err)
	}
	benchParse(b, data)
}

func benchParse(b *testing.B, data []byte) {
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	var lines int64
	for b.Loop() {
		rd, err := NewReader(bytes.NewReader(data), "bench", Options{})
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := rd.Next(); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
		lines += rd.Stats().Lines
	}
	b.ReportMetric(float64(lines)/b.Elapsed().Seconds(), "lines/s")
}
