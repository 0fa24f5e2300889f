package hostos_test

import (
	"fmt"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/nvmedrv"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// tiny builds the tiny preset's whole machine (vanilla firmware) and opens its raw device.
// The tiny preset has 4 KiB LBAs and a 3 GHz host whose syscall costs 1500 cycles (host
// defaults: 0.5 µs).
func tiny(t testing.TB) (*platforms.Machine, *hostos.RawDevice) {
	t.Helper()
	c, err := platforms.Load(platforms.Options{Preset: "tiny", Variant: "vanilla"})
	require.NoError(t, err)
	m, err := platforms.Build(c)
	require.NoError(t, err)
	raw, err := hostos.NewRawDevice(m.Host, capacity(m))
	require.NoError(t, err)
	t.Cleanup(m.Eng.Close)
	return m, raw
}

// capacity is the namespace size the machine's host was built with.
func capacity(m *platforms.Machine) int64 {
	return m.SSD.FW.LogicalPages() * int64(m.Config.Firmware.PageSize)
}

// run spawns body as a process, runs the engine to the end and fails if body did not return.
func run(t testing.TB, m *platforms.Machine, body func(p *sim.Proc)) {
	t.Helper()
	finished := false
	m.Eng.Spawn("test", func(p *sim.Proc) {
		body(p)
		finished = true
	})
	m.Eng.Run()
	require.True(t, finished, "the test process is still blocked at %v", m.Eng.Now())
}

// TestRawDeviceRejects checks every argument error, each naming the values, with nothing
// submitted to the block layer.
func TestRawDeviceRejects(t *testing.T) {
	m, raw := tiny(t)
	cp := raw.Capacity()
	// tiny: 2 ch × 2 dies × 2 planes × 32 blocks × 64 pages × 4 KiB = 64 MiB raw, 25 % over-
	// provisioning → 48 MiB = 50331648 B of logical space.
	require.Equal(t, int64(50331648), cp)
	require.Equal(t, int64(4096), raw.BlockSize(), "tiny's namespace has 4 KiB LBAs")
	cases := []struct {
		name         string
		op           uflip.Op
		offset, size int64
		want         string
	}{
		{"512 B on a 4 KiB-block device", uflip.OpRead, 0, 512, "read of 512 B at offset 0: offset and size must be multiples of the 4096-byte block"},
		{"misaligned offset", uflip.OpWrite, 512, 4096, "write of 4096 B at offset 512"},
		{"zero size", uflip.OpRead, 0, 0, "read of 0 B at offset 0"},
		{"negative offset", uflip.OpRead, -4096, 4096, "offset -4096"},
		{"past capacity", uflip.OpRead, cp - 4096, 8192, fmt.Sprintf("read of 8192 B at offset %d ends past the capacity 50331648 B", cp-4096)},
		{"larger than the device", uflip.OpWrite, 0, cp + 4096, "ends past the capacity"},
		{"flush with a range", uflip.OpFlush, 4096, 0, "flush with offset 4096 and size 0"},
		{"unknown op", uflip.Op(9), 0, 4096, "unknown op op(9)"},
	}
	run(t, m, func(p *sim.Proc) {
		for _, tc := range cases {
			lat, err := raw.Do(p, tc.op, tc.offset, tc.size)
			require.ErrorContains(t, err, tc.want, tc.name)
			require.Zero(t, lat, tc.name)
		}
		_, err := raw.DoData(p, uflip.OpWrite, 0, 8192, []uint64{1})
		require.ErrorContains(t, err, "needs 2 stamps, got 1")
		_, err = raw.Discard(p, 100, 4096)
		require.ErrorContains(t, err, "discard of 4096 B at offset 100")
	})
	require.Zero(t, m.Host.Queue.Stats().Bios, "rejected calls submit nothing")
	require.Zero(t, raw.IOs())
	_, err := hostos.NewRawDevice(m.Host, 1000)
	require.ErrorContains(t, err, "capacity 1000 is not a positive multiple of the 4096-byte block")
	_, err = hostos.NewRawDevice(nil, 4096)
	require.Error(t, err)
}

// TestRawDeviceStamps writes stamped pages through the whole stack (block layer, NVMe
// driver, PCIe, controller, firmware buffer and flash) and reads them back in other
// groupings: every page returns the stamp of its last write. The 1 MiB write is split by the
// block layer into several requests; the overwrite of pages 2–3 of the first extent must win
// over the older stamps.
func TestRawDeviceStamps(t *testing.T) {
	m, raw := tiny(t)
	const pg = 4096
	writes := []struct {
		off, pages int64
		base       uint64
	}{
		{0, 1, 100},               // one page
		{16 * pg, 16, 200},        // 64 KiB
		{2048 * pg, 256, 1000},    // 1 MiB, split into requests
		{18 * pg, 2, 300},         // overwrite pages 18, 19
		{cap64(raw) - pg, 1, 900}, // the last page of the device
	}
	want := map[int64]uint64{} // page → stamp, by hand from the writes above in order
	run(t, m, func(p *sim.Proc) {
		for _, w := range writes {
			st := make([]uint64, w.pages)
			for i := range st {
				st[i] = w.base + uint64(i)
				want[w.off/pg+int64(i)] = st[i]
			}
			_, err := raw.DoData(p, uflip.OpWrite, w.off, w.pages*pg, st)
			require.NoError(t, err)
		}
		// Read back in different groupings than written.
		reads := [][2]int64{{0, 1}, {16, 8}, {24, 8}, {2048, 256}, {2100, 3}, {cap64(raw)/pg - 1, 1}}
		for _, r := range reads {
			got := make([]uint64, r[1])
			_, err := raw.DoData(p, uflip.OpRead, r[0]*pg, r[1]*pg, got)
			require.NoError(t, err)
			for i, s := range got {
				require.Equal(t, want[r[0]+int64(i)], s, "page %d", r[0]+int64(i))
			}
		}
		// Spelled out by hand: pages 16–23 hold 200, 201, then the overwrite 300, 301, then
		// 204 … 207.
		got := make([]uint64, 8)
		_, err := raw.DoData(p, uflip.OpRead, 16*pg, 8*pg, got)
		require.NoError(t, err)
		require.Equal(t, []uint64{200, 201, 300, 301, 204, 205, 206, 207}, got)
	})
}

func cap64(d *hostos.RawDevice) int64 { return d.Capacity() }

// TestRawDeviceSyscallCost checks that each call charges exactly one syscall to the calling
// process's core as kernel time: 1500 cycles at 3 GHz = 500 ns per call, so 6 calls leave
// 3 µs of "kernel" busy time on that core, and every latency is at least 500 ns.
func TestRawDeviceSyscallCost(t *testing.T) {
	m, raw := tiny(t)
	var core *sim.Core
	run(t, m, func(p *sim.Proc) {
		core = m.Host.Task(p).Core
		for i := range int64(3) {
			lat, err := raw.Do(p, uflip.OpWrite, i*4096, 4096)
			require.NoError(t, err)
			require.GreaterOrEqual(t, lat, 500*sim.Nanosecond)
			lat, err = raw.Do(p, uflip.OpRead, i*4096, 4096)
			require.NoError(t, err)
			require.GreaterOrEqual(t, lat, 500*sim.Nanosecond)
		}
	})
	busy := core.Res.BusyAt(m.Eng.Now(), core.Res.Activity("kernel"))
	require.Equal(t, 6*500*sim.Nanosecond, busy)
	require.Equal(t, int64(6), raw.IOs())
	st := m.Host.Queue.Stats()
	require.Equal(t, int64(6), st.Bios)
}

// TestRawDeviceFUA checks the O_SYNC semantics end to end. With FUA (the host default,
// pagecache direct_fua) a write completes only once its page is programmed, so it takes at
// least TLC's fastest program time, tPROG(LSB) = 558 µs (docs/sources.md §3.4); without
// FUA the SSD's DRAM buffer absorbs it well below that. The bios carry the flag to the block
// layer, which never merges FUA requests.
func TestRawDeviceFUA(t *testing.T) {
	const tProgLSB = 558 * sim.Microsecond
	m, raw := tiny(t)
	require.True(t, raw.FUA(), "tiny keeps the host default direct_fua: true")
	run(t, m, func(p *sim.Proc) {
		lat, err := raw.Do(p, uflip.OpWrite, 0, 4096)
		require.NoError(t, err)
		require.GreaterOrEqual(t, lat, tProgLSB)
		raw.SetFUA(false)
		lat, err = raw.Do(p, uflip.OpWrite, 4096, 4096)
		require.NoError(t, err)
		require.Less(t, lat, tProgLSB)
		lat, err = raw.Do(p, uflip.OpFlush, 0, 0)
		require.NoError(t, err)
		require.Positive(t, lat)
	})
	st := m.Host.Queue.Stats()
	require.Equal(t, int64(3), st.Requests, "write, write, flush: nothing merged")
}

// TestRawDeviceConcurrent runs 8 processes with 4 reads each at once: every call completes
// with its own latency, and the pool serves them all.
func TestRawDeviceConcurrent(t *testing.T) {
	m, raw := tiny(t)
	left := 8
	for k := range int64(8) {
		m.Eng.Spawn(fmt.Sprintf("reader%d", k), func(p *sim.Proc) {
			for i := range int64(4) {
				lat, err := raw.Do(p, uflip.OpRead, (k*4+i)*8192, 8192)
				require.NoError(t, err)
				require.Positive(t, lat)
			}
			left--
		})
	}
	m.Eng.Run()
	require.Zero(t, left)
	require.Equal(t, int64(32), raw.IOs())
	require.Equal(t, int64(32), m.Host.Queue.Stats().Bios)
}

// ExampleRawDevice writes two stamped pages through the tiny machine and reads them back.
func ExampleRawDevice() {
	c, _ := platforms.Load(platforms.Options{Preset: "tiny", Variant: "vanilla"})
	m, _ := platforms.Build(c)
	defer m.Eng.Close()
	raw, _ := hostos.NewRawDevice(m.Host, capacity(m))
	m.Eng.Spawn("app", func(p *sim.Proc) {
		_, err := raw.DoData(p, uflip.OpWrite, 1<<20, 8192, []uint64{7, 8})
		fmt.Println("write:", err)
		got := make([]uint64, nvmedrv.StampPages(1<<20, 8192))
		_, err = raw.DoData(p, uflip.OpRead, 1<<20, 8192, got)
		fmt.Println("read:", err, got)
	})
	m.Eng.Run()
	fmt.Println("capacity:", raw.Capacity(), "block:", raw.BlockSize())
	// Output:
	// write: <nil>
	// read: <nil> [7 8]
	// capacity: 50331648 block: 4096
}

// BenchmarkRawDeviceRead measures one synchronous 4 KiB read through the whole simulated
// stack per iteration; the device itself allocates nothing per call once its pool is warm.
func BenchmarkRawDeviceRead(b *testing.B) {
	m, raw := tiny(b)
	n := raw.Capacity() / 4096
	m.Eng.Spawn("bench", func(p *sim.Proc) {
		for i := range int64(b.N) {
			if _, err := raw.Do(p, uflip.OpRead, (i*7919%n)*4096, 4096); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportAllocs()
	b.ResetTimer()
	m.Eng.Run()
}
