package uflip

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// lbas draws n IOs from g and returns their LBAs (sectors).
func lbas(g interface{ Next() IO }, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = g.Next().LBA
	}
	return out
}

// The hand-worked cases all use IOSize 4 KiB = 8 sectors, TargetOffset 64 KiB = sector 128
// and TargetSize 32 KiB = 64 sectors (8 IO slots), so LBAs run 128 … 191.
func TestSequentialGenerators(t *testing.T) {
	base := Pattern{Base: SR, IOSize: 4096, TargetOffset: 64 << 10, TargetSize: 32 << 10, Incr: 1}
	cases := []struct {
		name string
		edit func(*Pattern)
		want []int64
	}{
		// rel = 8i; wraps to the start after 8 IOs.
		{"incr 1", func(p *Pattern) {}, []int64{128, 136, 144, 152, 160, 168, 176, 184, 128, 136}},
		// rel = −8i mod 64: 0, 56, 48, …
		{"reverse", func(p *Pattern) { p.Incr = -1 }, []int64{128, 184, 176, 168, 160, 152, 144, 136, 128, 184}},
		{"in place", func(p *Pattern) { p.Incr = 0 }, []int64{128, 128, 128, 128}},
		// rel = 24i mod 64: 0, 24, 48, 72→8, 96→32, 120→56, 144→16, 168→40, 192→0.
		{"gaps of 3", func(p *Pattern) { p.Incr = 3 }, []int64{128, 152, 176, 136, 160, 184, 144, 168, 128}},
		// rel = 8i + 2 mod 64: the shift moves every IO 2 sectors (1 KiB) off the grid.
		{"shift 1 KiB", func(p *Pattern) { p.IOShift = 1024 }, []int64{130, 138, 146, 154, 162, 170, 178, 186, 130}},
		// P = 4, PS = 16: rel = 16·(i mod 4) + (8·(i div 4) mod 16).
		{"4 partitions", func(p *Pattern) { p.Partitions = 4 },
			[]int64{128, 144, 160, 176, 136, 152, 168, 184, 128, 144}},
		// P = 2, PS = 32, shift 1 sector: rel = 32·(i mod 2) + (8·(i div 2) mod 32) + 1.
		{"2 partitions shifted", func(p *Pattern) { p.Partitions = 2; p.IOShift = 512 },
			[]int64{129, 161, 137, 169, 145, 177, 153, 185, 129}},
		// P = 1 is the plain sequential formula.
		{"1 partition", func(p *Pattern) { p.Partitions = 1 }, []int64{128, 136, 144}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := base
			c.edit(&p)
			for _, b := range []Base{SR, SW} {
				p.Base = b
				g := NewGen(p, nil)
				require.Equal(t, c.want, lbas(g, len(c.want)))
			}
			g := NewGen(p, nil)
			io := g.Next()
			require.Equal(t, OpWrite, io.Op)
			require.Equal(t, int64(8), io.Sectors)
			require.Equal(t, c.want[0]*512, io.Offset())
			require.Equal(t, int64(4096), io.Size())
			require.Equal(t, int64(1), g.Count())
		})
	}
}

// TestRandomGenerator checks LBA = TargetOffset + rand(0, 7)·8 + IOShift against draws made
// here from the same named stream.
func TestRandomGenerator(t *testing.T) {
	p := Pattern{Base: RW, IOSize: 4096, TargetOffset: 64 << 10, TargetSize: 32 << 10, IOShift: 1536}
	g := NewGen(p, sim.NewRNG(7, "rw"))
	ref := sim.NewRNG(7, "rw")
	seen := map[int64]bool{}
	for range 200 {
		io := g.Next()
		want := 128 + ref.Int64N(8)*8 + 3
		require.Equal(t, want, io.LBA)
		require.Equal(t, OpWrite, io.Op)
		require.Equal(t, int64(3), (io.LBA-128)%8, "IOShift keeps every LBA 3 sectors off the grid")
		seen[io.LBA] = true
	}
	require.Len(t, seen, 8, "200 uniform draws over 8 slots hit every slot")
	// Same seed and name, same sequence; another name, another sequence.
	a, b, c := NewGen(p, sim.NewRNG(7, "x")), NewGen(p, sim.NewRNG(7, "x")), NewGen(p, sim.NewRNG(7, "y"))
	sa, sb, sc := lbas(a, 32), lbas(b, 32), lbas(c, 32)
	require.Equal(t, sa, sb)
	require.NotEqual(t, sa, sc)
}

// TestMixOrder: with ratio r, IO i comes from pattern 2 when i mod (r+1) = 0, and each
// pattern advances its own counter over its own target.
func TestMixOrder(t *testing.T) {
	first := Pattern{Base: SR, IOSize: 4096, TargetSize: 1 << 20, Incr: 1}                         // LBAs 0, 8, 16, …
	second := Pattern{Base: SW, IOSize: 8192, TargetOffset: 1 << 20, TargetSize: 1 << 20, Incr: 1} // 2048, 2064, …
	s := NewStream(NewGen(first, nil), NewGen(second, nil), 2)
	type io struct {
		pat int
		op  Op
		lba int64
	}
	want := []io{{2, OpWrite, 2048}, {1, OpRead, 0}, {1, OpRead, 8}, {2, OpWrite, 2064},
		{1, OpRead, 16}, {1, OpRead, 24}, {2, OpWrite, 2080}, {1, OpRead, 32}}
	for i, w := range want {
		got := s.Next()
		require.Equal(t, w, io{got.Pattern, got.Op, got.LBA}, "IO %d", i)
	}
	// Ratio 0: i mod 1 = 0 always, so every IO is pattern 2.
	s = NewStream(NewGen(first, nil), NewGen(second, nil), 0)
	require.Equal(t, []int64{2048, 2064, 2080}, lbas(s, 3))
	// No second pattern: the first alone.
	s = NewStream(NewGen(first, nil), nil, 3)
	require.Equal(t, []int64{0, 8, 16}, lbas(s, 3))
}

// TestParallelStreamsSplitTarget: stream k of D works on the k-th of D equal slices.
func TestParallelStreamsSplitTarget(t *testing.T) {
	r := Run{Pattern: Pattern{Base: SW, IOSize: 4096, TargetSize: 64 << 10, Incr: 1},
		IOCount: 4, ParallelDegree: 4, NbRun: 1}
	require.NoError(t, r.Validate())
	// 64 KiB / 4 = 16 KiB = 32 sectors per stream: stream k starts at 32k and wraps after 4 IOs.
	for k := range int64(4) {
		s := NewRunStream(r, k, 1, "x")
		require.Equal(t, []int64{32 * k, 32*k + 8, 32*k + 16, 32*k + 24, 32 * k}, lbas(s, 5))
	}
}

func TestBaseParse(t *testing.T) {
	for _, s := range []string{"SR", "rr", "Sw", "rW"} {
		_, err := ParseBase(s)
		require.NoError(t, err, s)
	}
	var b Base
	require.NoError(t, b.UnmarshalText([]byte("rw")))
	require.Equal(t, RW, b)
	require.Error(t, b.UnmarshalText([]byte("XX")))
	require.True(t, RW.Random())
	require.False(t, SW.Random())
	require.Equal(t, OpRead, RR.Op())
}

func FuzzParseBase(f *testing.F) {
	for _, s := range []string{"SR", "rr", "", "S", "SRX", "\xff\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseBase(s)
		if err == nil {
			require.Equal(t, len(s), 2)
			require.True(t, b.valid())
		}
	})
}

func BenchmarkGenRandom(b *testing.B) {
	g := NewGen(Pattern{Base: RW, IOSize: 4096, TargetSize: 1 << 30}, sim.NewRNG(1, "b"))
	b.ReportAllocs()
	for b.Loop() {
		g.Next()
	}
}

func BenchmarkStreamPartitionedMix(b *testing.B) {
	p1 := Pattern{Base: SW, IOSize: 4096, TargetSize: 1 << 30, Partitions: 16, Incr: 1}
	p2 := Pattern{Base: RR, IOSize: 4096, TargetSize: 1 << 30}
	s := NewStream(NewGen(p1, nil), NewGen(p2, sim.NewRNG(1, "b")), 3)
	b.ReportAllocs()
	for b.Loop() {
		s.Next()
	}
}
