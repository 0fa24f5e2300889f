package replay_test

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/replay"
	"github.com/fastdrain-sim/fastdrain/hostos/trace"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestPerDevice: six requests of devices 7, 2, 7, 7, 2, 0 (first seen in that order) are
// split per device in ascending device order: device 0 one 4 KiB read; device 2 a 4 KiB
// write and an 8 KiB read; device 7 three 4 KiB reads. Each device's histogram holds its own
// requests, and together they hold every request once.
func TestPerDevice(t *testing.T) {
	m, raw := tiny(t)
	const kib = 4096
	reqs := []trace.Request{
		{Device: 7, Op: trace.Read, Offset: 0, Size: kib, Line: 1},
		{Device: 2, Op: trace.Write, Offset: 16 * kib, Size: kib, Line: 2},
		{Device: 7, Op: trace.Read, Offset: kib, Size: kib, Line: 3},
		{Device: 7, Op: trace.Read, Offset: 2 * kib, Size: kib, Line: 4},
		{Device: 2, Op: trace.Read, Offset: 32 * kib, Size: 2 * kib, Line: 5},
		{Device: 0, Op: trace.Read, Offset: 64 * kib, Size: kib, Line: 6},
	}
	var res *replay.Result
	run(t, m, func(p *sim.Proc) {
		var err error
		res, err = replay.Run(p, raw, replay.FromSlice(reqs), replay.DefaultOptions())
		require.NoError(t, err)
	})
	require.Len(t, res.Devices, 3)
	type want struct {
		dev           int
		reads, writes int64
		bytes         int64
	}
	for i, w := range []want{{0, 1, 0, kib}, {2, 1, 1, 3 * kib}, {7, 3, 0, 3 * kib}} {
		d := &res.Devices[i]
		require.Equal(t, w.dev, d.Device)
		require.Equal(t, [2]int64{w.reads, w.writes}, [2]int64{d.Count[trace.Read], d.Count[trace.Write]}, "device %d", w.dev)
		require.Equal(t, w.bytes, d.Bytes[trace.Read]+d.Bytes[trace.Write], "device %d", w.dev)
		require.Equal(t, uint64(w.reads+w.writes), d.Latency.Count(), "device %d", w.dev)
	}
	all := &sim.Histogram{}
	for i := range res.Devices {
		all.Merge(&res.Devices[i].Latency)
	}
	total := res.Total()
	require.Equal(t, total.Count(), all.Count())
	require.Equal(t, total.Min(), all.Min())
	require.Equal(t, total.Max(), all.Max())
	require.Equal(t, total.Quantile(0.5), all.Quantile(0.5))
}
