package hostos_test

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestFileDeviceRejects checks the argument errors of both modes.
func TestFileDeviceRejects(t *testing.T) {
	m, _ := tiny(t)
	run(t, m, func(p *sim.Proc) {
		buf, err := hostos.NewFileDevice(p, m.Host, "buffered", 1<<20, false)
		require.NoError(t, err)
		dir, err := hostos.NewFileDevice(p, m.Host, "direct", 1<<20, true)
		require.NoError(t, err)
		require.Equal(t, int64(1<<20), dir.Capacity())
		require.True(t, dir.Direct())
		require.False(t, buf.Direct())
		cases := []struct {
			name         string
			dev          *hostos.FileDevice
			op           uflip.Op
			offset, size int64
			want         string
		}{
			{"past the end", buf, uflip.OpRead, 1<<20 - 512, 1024, "read of 1024 B at offset 1048064 is not inside the file's 1048576 B"},
			{"negative offset", buf, uflip.OpWrite, -1, 10, "offset -1"},
			{"zero size", buf, uflip.OpWrite, 0, 0, "write of 0 B"},
			{"flush with a range", buf, uflip.OpFlush, 0, 4096, "flush with offset 0 and size 4096"},
			{"unknown op", buf, uflip.Op(7), 0, 4096, "unknown op"},
			{"direct 512 B on 4 KiB blocks", dir, uflip.OpRead, 0, 512, "direct read of 512 B at offset 0: offset and size must be multiples of the 4096-byte block"},
			{"direct misaligned offset", dir, uflip.OpWrite, 2048, 4096, "at offset 2048"},
		}
		for _, tc := range cases {
			_, err := tc.dev.Do(p, tc.op, tc.offset, tc.size)
			require.ErrorContains(t, err, tc.want, tc.name)
		}
		// A buffered file takes unaligned IOs inside it.
		_, err = buf.Do(p, uflip.OpWrite, 100, 10)
		require.NoError(t, err)
		_, err = hostos.NewFileDevice(p, m.Host, "buffered", 4096, false)
		require.ErrorContains(t, err, "file exists")
		_, err = hostos.NewFileDevice(p, m.Host, "odd", 1000, true)
		require.ErrorContains(t, err, "size 1000 is not a positive multiple of 4096")
		_, err = hostos.NewFileDevice(p, m.Host, "huge", 1<<40, false)
		require.ErrorContains(t, err, "no space")
	})
}

// TestFileDeviceBuffered checks the page-cache path: a 64 KiB write and a read of the same
// range are both pure CPU work (16 pages × 1500 cycles + a 1500-cycle syscall = 25500
// cycles at 3 GHz = 8.5 µs each, no I/O); a read of pages never cached goes to the device;
// fsync writes the 16 dirty pages and flushes.
func TestFileDeviceBuffered(t *testing.T) {
	m, _ := tiny(t)
	var f *hostos.FileDevice
	run(t, m, func(p *sim.Proc) {
		var err error
		f, err = hostos.NewFileDevice(p, m.Host, "data", 4<<20, false)
		require.NoError(t, err)
		lat, err := f.Do(p, uflip.OpWrite, 0, 64<<10)
		require.NoError(t, err)
		require.Equal(t, 8500*sim.Nanosecond, lat)
		lat, err = f.Do(p, uflip.OpRead, 0, 64<<10)
		require.NoError(t, err)
		require.Equal(t, 8500*sim.Nanosecond, lat, "a cache hit")
		require.Zero(t, m.Host.Queue.Stats().Bios, "nothing reached the block layer yet")
		require.Equal(t, int64(16), f.File().DirtyPages())

		lat, err = f.Do(p, uflip.OpRead, 2<<20, 4096)
		require.NoError(t, err)
		require.Greater(t, lat, 8500*sim.Nanosecond, "a miss waits for the device")
		st := m.Host.Queue.Stats()
		require.Positive(t, st.Bios)
		reads := st.Bios

		_, err = f.Do(p, uflip.OpFlush, 0, 0)
		require.NoError(t, err)
		require.Zero(t, f.File().DirtyPages())
		// 16 contiguous dirty pages go out as one write bio, then one flush bio.
		require.Equal(t, reads+2, st.Bios)
	})
}

// TestFileDeviceDirect checks the O_DIRECT path: IOs bypass the cache (nothing cached or
// dirty afterwards), writes carry FUA (host default direct_fua), and the bytes are counted
// by the page cache's direct-I/O statistics.
func TestFileDeviceDirect(t *testing.T) {
	m, _ := tiny(t)
	run(t, m, func(p *sim.Proc) {
		f, err := hostos.NewFileDevice(p, m.Host, "db", 1<<20, true)
		require.NoError(t, err)
		lat, err := f.Do(p, uflip.OpWrite, 8192, 16384)
		require.NoError(t, err)
		// FUA: at least one TLC LSB program, 558 µs (docs/sources.md §3.4).
		require.GreaterOrEqual(t, lat, 558*sim.Microsecond)
		lat, err = f.Do(p, uflip.OpRead, 8192, 16384)
		require.NoError(t, err)
		require.Positive(t, lat)
		require.Zero(t, f.File().CachedPages())
		s := m.Host.Cache.Stats()
		require.Equal(t, int64(16384), s.DirectWriteBytes)
		require.Equal(t, int64(16384), s.DirectReadBytes)
		q := m.Host.Queue.Stats()
		require.Equal(t, uint64(1), q.BioLatency[blk.OpWrite].Count(), "one 16 KiB bio: the file is contiguous")
		require.Equal(t, uint64(1), q.BioLatency[blk.OpRead].Count())
	})
}

// BenchmarkFileDeviceCachedRead measures a buffered 4 KiB read that hits the page cache: one
// syscall and one page copy of CPU time, no device I/O.
func BenchmarkFileDeviceCachedRead(b *testing.B) {
	m, _ := tiny(b)
	m.Eng.Spawn("bench", func(p *sim.Proc) {
		f, err := hostos.NewFileDevice(p, m.Host, "hot", 1<<20, false)
		if err != nil {
			b.Error(err)
			return
		}
		if _, err := f.Do(p, uflip.OpWrite, 0, 1<<20); err != nil {
			b.Error(err)
			return
		}
		b.ResetTimer()
		for i := range int64(b.N) {
			if _, err := f.Do(p, uflip.OpRead, (i%256)*4096, 4096); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportAllocs()
	m.Eng.Run()
}
