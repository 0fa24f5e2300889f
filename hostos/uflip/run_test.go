package uflip

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func goodRun() Run {
	return Run{Pattern: Pattern{Base: SR, IOSize: 32 << 10, TargetSize: 1 << 20, Incr: 1},
		IOCount: 128, NbRun: 3}
}

func TestRunValidate(t *testing.T) {
	require.NoError(t, goodRun().Validate())
	cases := []struct {
		name string
		edit func(*Run)
		want string
	}{
		{"io_size zero", func(r *Run) { r.IOSize = 0 }, "io_size: 0 must be positive"},
		{"io_size unaligned", func(r *Run) { r.IOSize = 1000 }, "io_size: 1000 is not a multiple of 512"},
		{"target_offset", func(r *Run) { r.TargetOffset = 100 }, "target_offset: 100 is not a multiple of 512"},
		{"target_size", func(r *Run) { r.TargetSize = 48 << 10 }, "target_size: 49152 is not a multiple of io_size 32768"},
		{"io_shift", func(r *Run) { r.IOShift = 64 << 10 }, "io_shift: 65536 exceeds io_size 32768"},
		{"partitions random", func(r *Run) { r.Base = RR; r.Partitions = 4 }, "partitions: 4 applies only to the sequential bases"},
		{"partitions split", func(r *Run) { r.Partitions = 3 }, "partitions: target_size 1048576 is not a multiple of partitions×io_size = 98304"},
		{"base", func(r *Run) { r.Base = 9 }, "base: 9 is not one of SR, RR, SW, RW"},
		{"ratio alone", func(r *Run) { r.Ratio = 2 }, "ratio: 2 is set but there is no second pattern"},
		{"second", func(r *Run) { r.Second = &Pattern{Base: RW, IOSize: 700, TargetSize: 1 << 20} },
			"second.io_size: 700 is not a multiple of 512"},
		{"io_count", func(r *Run) { r.IOCount = 0 }, "io_count: 0 must be positive"},
		{"io_ignore", func(r *Run) { r.IOIgnore = 128 }, "io_ignore: 128 is not in [0, io_count)"},
		{"parallel_degree", func(r *Run) { r.ParallelDegree = 3 }, "parallel_degree: 3 streams do not split target_size"},
		{"pause", func(r *Run) { r.Pause = -1 }, "pause: -1ps is negative"},
		{"burst", func(r *Run) { r.Burst = -2 }, "burst: -2 is negative"},
		{"nb_run", func(r *Run) { r.NbRun = 0 }, "nb_run: 0 must be positive"},
		{"fill a write", func(r *Run) { r.Base, r.Fill = SW, true }, "fill: applies only to a plain read run"},
		{"fill a mix", func(r *Run) {
			r.Fill, r.Ratio = true, 1
			r.Second = &Pattern{Base: RR, IOSize: 4096, TargetSize: 1 << 20}
		}, "fill: applies only to a plain read run"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := goodRun()
			c.edit(&r)
			err := r.Validate()
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
		})
	}
	// Every problem at once, each named.
	r := Run{Pattern: Pattern{IOSize: 1000, TargetOffset: 3}, Ratio: -1, IOIgnore: -1, Burst: -1}
	err := r.Validate()
	for _, f := range []string{"io_size", "target_offset", "target_size", "ratio", "io_count",
		"io_ignore", "burst", "nb_run"} {
		require.Contains(t, err.Error(), f+":")
	}
}

func TestPermIsBijection(t *testing.T) {
	for _, n := range []uint64{1, 2, 3, 17, 1000, 4096} {
		p := NewPerm(n, sim.NewRNG(3, "perm"))
		seen := make([]bool, n)
		moved := 0
		for i := range n {
			v := p.At(i)
			require.Less(t, v, n)
			require.False(t, seen[v], "n=%d: %d twice", n, v)
			seen[v] = true
			if v != i {
				moved++
			}
		}
		if n >= 17 {
			require.Greater(t, moved, int(n/2), "a random permutation moves most elements")
		}
	}
}

// TestRandomFormat: 18 chunks of 128 KiB (2.25 MiB) give 2 chunks per phase; phase k writes
// them with 2·2^k IOs of 256>>k sectors, 2·(1+2+…+256) = 1022 IOs in all, and every sector is
// written exactly once.
func TestRandomFormat(t *testing.T) {
	const chunks = 18
	f := NewFormat(FormatRandom, chunks*FormatChunk+4096, 5) // the 4 KiB tail is not used
	require.Equal(t, int64(1022), f.Len())
	written := make([]int, chunks*256)
	var sizes []int64
	sorted := true
	prev := int64(-1)
	for {
		io, ok := f.Next()
		if !ok {
			break
		}
		require.Equal(t, OpWrite, io.Op)
		for s := io.LBA; s < io.LBA+io.Sectors; s++ {
			written[s]++
		}
		sizes = append(sizes, io.Sectors)
		if io.LBA < prev {
			sorted = false
		}
		prev = io.LBA
	}
	require.Len(t, sizes, 1022)
	for s, n := range written {
		require.Equal(t, 1, n, "sector %d", s)
	}
	i := 0
	for k := range 9 {
		for range 2 << k {
			require.Equal(t, int64(256>>k), sizes[i], "IO %d in phase %d", i, k)
			i++
		}
	}
	require.False(t, sorted, "random order")
}

func TestSequentialFormat(t *testing.T) {
	f := NewFormat(FormatSequential, 3*FormatChunk, 0)
	require.Equal(t, int64(3), f.Len())
	for _, want := range []int64{0, 256, 512} {
		io, ok := f.Next()
		require.True(t, ok)
		require.Equal(t, IO{Pattern: 1, Base: SW, Op: OpWrite, LBA: want, Sectors: 256}, io)
	}
	_, ok := f.Next()
	require.False(t, ok)
	_, ok = NewFormat(FormatNone, 1<<20, 0).Next()
	require.False(t, ok)
	_, ok = NewFormat(FormatRandom, 4096, 0).Next()
	require.False(t, ok, "a device below one chunk has nothing to format")
}

func BenchmarkFormatRandom(b *testing.B) {
	f := NewFormat(FormatRandom, 1<<30, 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := f.Next(); !ok {
			f = NewFormat(FormatRandom, 1<<30, 1)
		}
	}
}
