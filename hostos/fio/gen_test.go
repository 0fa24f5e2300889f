package fio

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

const gib = 1 << 30

// drain returns every IO of g, all asked for at time 0.
func drain(t *testing.T, g *Generator) []IO {
	t.Helper()
	var out []IO
	for {
		io, ok := g.Next(0)
		if !ok {
			return out
		}
		out = append(out, io)
		require.Less(t, len(out), 1<<20, "generator does not terminate")
	}
}

func job(edit func(*Job)) Job {
	j := DefaultJob()
	j.Name = "t"
	edit(&j)
	return j
}

// TestSequentialOffsets: offset 1 MiB, bs 64 KiB, size 256 KiB (4 blocks), io_size 6
// blocks: 1M, 1M+64K, 1M+128K, 1M+192K, then wrap to 1M, 1M+64K, then done.
func TestSequentialOffsets(t *testing.T) {
	g, err := NewGenerator(job(func(j *Job) {
		j.RW, j.BS, j.Offset, j.Size, j.IOSize = Write, 64<<10, 1<<20, 256<<10, 6*64<<10
	}), gib, 0)
	require.NoError(t, err)
	var offs []int64
	for _, io := range drain(t, g) {
		require.Equal(t, uflip.OpWrite, io.Op)
		require.Equal(t, int64(64<<10), io.Size)
		offs = append(offs, io.Offset)
	}
	M, K := int64(1<<20), int64(1<<10)
	require.Equal(t, []int64{M, M + 64*K, M + 128*K, M + 192*K, M, M + 64*K}, offs)
}

// TestRandomAlignmentAndCoverage: randread over 64 blocks of 4 KiB at offset 8 KiB with
// io_size 128 blocks: every offset is bs-aligned from the job offset and inside the region,
// and each pass of 64 IOs visits every block exactly once (fio's random map).
func TestRandomAlignmentAndCoverage(t *testing.T) {
	for _, rw := range []RW{RandRead, RandWrite, RandRW, Read, Write, ReadWrite} {
		g, err := NewGenerator(job(func(j *Job) {
			j.RW, j.BS, j.Offset, j.Size, j.IOSize = rw, 4096, 8192, 64*4096, 128*4096
		}), gib, 0)
		require.NoError(t, err)
		ios := drain(t, g)
		require.Len(t, ios, 128, rw.String())
		for _, io := range ios {
			require.Zero(t, (io.Offset-8192)%4096, rw.String())
			require.GreaterOrEqual(t, io.Offset, int64(8192))
			require.LessOrEqual(t, io.Offset+io.Size, int64(8192+64*4096))
		}
		if rw.Random() {
			for pass := range 2 {
				seen := map[int64]bool{}
				for _, io := range ios[pass*64 : pass*64+64] {
					seen[io.Offset] = true
				}
				require.Len(t, seen, 64, "%s pass %d", rw, pass)
			}
		}
	}
}

// TestRWMixRead: rwmixread 70 deals decks of 10 with 7 reads, so every 10 IOs hold exactly 7
// reads and 1000 IOs exactly 700; 33 % needs a deck of 100: 1000 IOs hold 330 reads.
func TestRWMixRead(t *testing.T) {
	for _, c := range []struct{ pct, deck, reads int64 }{{70, 10, 700}, {33, 100, 330}, {0, 1, 0}, {100, 1, 1000}, {50, 2, 500}} {
		for _, rw := range []RW{RandRW, ReadWrite} {
			g, err := NewGenerator(job(func(j *Job) {
				j.RW, j.RWMixRead, j.Size, j.IOSize, j.RandSeed = rw, c.pct, 1<<20, 1000*4096, 5
			}), gib, 0)
			require.NoError(t, err)
			ios := drain(t, g)
			require.Len(t, ios, 1000)
			var reads int64
			for i, io := range ios {
				if io.Op == uflip.OpRead {
					reads++
				}
				if int64(i+1)%c.deck == 0 {
					require.Equal(t, c.pct*int64(i+1)/100, reads, "pct %d after %d IOs", c.pct, i+1)
				}
			}
			require.Equal(t, c.reads, reads)
		}
	}
	// The deck is shuffled: with 50 % the order is not strictly alternating.
	g, _ := NewGenerator(job(func(j *Job) { j.RW, j.Size = RandRW, 1<<20 }), gib, 0)
	alternating := true
	ios := drain(t, g)
	for i := 1; i < len(ios); i++ {
		if ios[i].Op == ios[i-1].Op {
			alternating = false
		}
	}
	require.False(t, alternating)
}

// TestFsyncEveryN: fsync 3 on 6 writes gives W W W F W W W F.
func TestFsyncEveryN(t *testing.T) {
	g, err := NewGenerator(job(func(j *Job) { j.RW, j.Fsync, j.Size, j.IOSize = Write, 3, 1<<20, 6*4096 }), gib, 0)
	require.NoError(t, err)
	var ops []uflip.Op
	for _, io := range drain(t, g) {
		ops = append(ops, io.Op)
		if io.Op == uflip.OpFlush {
			require.Equal(t, IO{Op: uflip.OpFlush}, io)
		}
	}
	W, F := uflip.OpWrite, uflip.OpFlush
	require.Equal(t, []uflip.Op{W, W, W, F, W, W, W, F}, ops)
}

// TestRuntimeStopsGenerator: runtime 1 ms after a 0.5 ms ramp: IOs are handed out until
// 1.5 ms, and only those asked for from 0.5 ms count toward io_size.
func TestRuntimeStopsGenerator(t *testing.T) {
	us := sim.Microsecond
	g, err := NewGenerator(job(func(j *Job) {
		j.RW, j.Size, j.IOSize, j.Runtime, j.RampTime = Read, 1<<20, 4*4096, sim.Millisecond, 500*us
	}), gib, 0)
	require.NoError(t, err)
	for _, at := range []sim.Time{0, 100 * us, 400 * us} { // during the ramp: not counted
		_, ok := g.Next(at)
		require.True(t, ok)
	}
	for _, at := range []sim.Time{500 * us, 600 * us, 700 * us, 800 * us} { // io_size 4 blocks
		_, ok := g.Next(at)
		require.True(t, ok)
	}
	_, ok := g.Next(900 * us)
	require.False(t, ok, "io_size reached")
	g2, _ := NewGenerator(job(func(j *Job) { j.Runtime, j.RampTime = sim.Millisecond, 500*us }), gib, 0)
	_, ok = g2.Next(0)
	require.True(t, ok)
	_, ok = g2.Next(1499 * us)
	require.True(t, ok)
	_, ok = g2.Next(1500 * us)
	require.False(t, ok, "runtime over at ramp + runtime")
}

func TestGeneratorDeterminism(t *testing.T) {
	j := job(func(j *Job) { j.RW, j.Size, j.RandSeed = RandRW, 1<<20, 9 })
	a, _ := NewGenerator(j, gib, 0)
	b, _ := NewGenerator(j, gib, 0)
	c, _ := NewGenerator(j, gib, 1)
	da, db, dc := drain(t, a), drain(t, b), drain(t, c)
	require.Equal(t, da, db)
	require.NotEqual(t, da, dc, "each copy has its own stream")
}

func TestGeneratorErrors(t *testing.T) {
	_, err := NewGenerator(job(func(j *Job) { j.BS = 100 }), gib, 0)
	require.ErrorContains(t, err, "bs: 100 is not a multiple of 512")
	_, err = NewGenerator(job(func(j *Job) { j.Offset, j.Size = gib-4096, 8192 }), gib, 0)
	require.ErrorContains(t, err, "does not fit the device")
}

func BenchmarkGeneratorRandRW(b *testing.B) {
	g, _ := NewGenerator(job(func(j *Job) { j.RW, j.IOSize = RandRW, 1<<62 }), gib, 0)
	b.ReportAllocs()
	for b.Loop() {
		g.Next(0)
	}
}
