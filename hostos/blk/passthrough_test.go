package blk

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestZoneAppendPassthrough: zones of 64 KiB, mq-deadline, a device taking 100 µs a
// request. Three 4 KiB Zone Appends to zone 0 submitted at once all go down at 0, each in
// a request of its own (passthrough requests never merge and never wait in a zone's write
// plug), where three 4 KiB writes to zone 0 at 0, 4 and 8 KiB go down at 0, 100 and 200 µs
// (TestZoneWritePlugging; the control, 2 plugged). Each append's bio gets its request's
// result (the device's ALBA), which the fake device sets to 8 × (tag + 1) blocks here.
func TestZoneAppendPassthrough(t *testing.T) {
	us := sim.Microsecond
	spec := DefaultSpec()
	spec.Scheduler = SchedMQDeadline
	lat := func(_ sim.Time, rq *Request) sim.Time {
		rq.Result = uint64(8 * (rq.Tag + 1))
		return 100 * us
	}
	run := func(op Op) (*Queue, []dispatched, []*Bio) {
		eng, q, dev := newTestQueue(t, spec, lat)
		require.NoError(t, q.SetZoned(64<<10, 4))
		var bios []*Bio
		for k := range 3 {
			off := int64(k) * 4096
			if op == OpZoneAppend {
				off = 0 // an append names the zone's start
			}
			b := &Bio{Op: op, Offset: off, Size: 4096, Sync: true}
			bios = append(bios, b)
			q.Submit(b)
		}
		eng.Run()
		return q, dev.log, bios
	}
	q, log, bios := run(OpZoneAppend)
	require.Len(t, log, 3)
	for i, d := range log {
		require.Equal(t, OpZoneAppend, d.Op)
		require.Equal(t, sim.Time(0), d.At, "append %d goes down at once", i)
		require.Equal(t, 1, d.Bios)
	}
	require.Zero(t, q.Stats().Zones.Plugged)
	require.Zero(t, q.Stats().BackMerges)
	var got []uint64
	for _, b := range bios {
		require.True(t, b.Finished())
		require.NoError(t, b.Err)
		got = append(got, b.Result)
	}
	require.ElementsMatch(t, []uint64{8 * (uint64(log[0].Tag) + 1), 8 * (uint64(log[1].Tag) + 1), 8 * (uint64(log[2].Tag) + 1)}, got)

	q, log, _ = run(OpWrite)
	require.Equal(t, []sim.Time{0, 100 * us, 200 * us}, []sim.Time{log[0].At, log[1].At, log[2].At})
	require.Equal(t, int64(2), q.Stats().Zones.Plugged)
}

// TestZoneAppendMalformed: a zone append not at a zone's start, larger than the largest
// request, or on a queue without zones is a caller's bug and panics.
func TestZoneAppendMalformed(t *testing.T) {
	spec := DefaultSpec()
	_, q, _ := newTestQueue(t, spec, fixed(sim.Microsecond))
	require.Panics(t, func() { q.Submit(&Bio{Op: OpZoneAppend, Size: 4096}) }, "no zones")
	require.NoError(t, q.SetZoned(1<<20, 4))
	require.Panics(t, func() { q.Submit(&Bio{Op: OpZoneAppend, Offset: 4096, Size: 4096}) }, "not a zone start")
	require.Panics(t, func() { q.Submit(&Bio{Op: OpZoneAppend, Size: int64(spec.MaxRequestBytes) + 4096}) }, "above the largest request")
}
