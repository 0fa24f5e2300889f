package nvmedrv

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestQueueDepth checks q_depth = min(CAP.MQES + 1, io_queue_depth) and tag depth
// q_depth − 1 (docs/sources.md §1.4) for a few controller and driver settings.
func TestQueueDepth(t *testing.T) {
	cases := []struct {
		mqe, iodepth, entries, tags int
	}{
		{4096, 1024, 1024, 1023}, // the defaults
		{16, 1024, 16, 15},       // a controller with small queues caps it
		{65536, 4095, 4095, 4094},
		{4096, 2, 2, 1},
	}
	for _, tc := range cases {
		cs := ctrlSpec()
		cs.MaxQueueEntries = tc.mqe
		spec := DefaultSpec()
		spec.QueueDepth = tc.iodepth
		r := newRig(t, spec, cs, 1)
		require.Equal(t, tc.entries, r.d.QueueEntries())
		require.Equal(t, tc.tags, r.d.Depth())
	}
}

// TestRefuseAndRestart fills a queue pair of q_depth 4 (3 tags): the fourth request is
// refused, and once completions free identifiers the driver calls Restart, in the same
// handler pass, after the CQ doorbell; the retried request then goes through.
func TestRefuseAndRestart(t *testing.T) {
	spec := DefaultSpec()
	spec.QueueDepth = 4
	r := newRig(t, spec, ctrlSpec(), 1)
	rqs := make([]*blk.Request, 4)
	for i := range rqs {
		rqs[i] = rw(blk.OpRead, int64(i)*4096, 4096)
	}
	for i := range 3 {
		require.True(t, r.d.QueueRequest(0, rqs[i]))
	}
	require.False(t, r.d.QueueRequest(0, rqs[3]))
	require.False(t, r.d.QueueRequest(0, rqs[3]), "still full")
	require.Equal(t, int64(2), r.d.Stats.Refused)
	require.Equal(t, 3, r.d.Inflight())
	r.up.onRestart = func(now sim.Time) {
		require.Equal(t, 3, len(r.up.dones), "restart follows the completions of the pass")
		require.True(t, r.d.QueueRequest(now, rqs[3]))
	}
	r.eng.Run()
	require.Len(t, r.up.restarts, 1)
	require.Len(t, r.up.dones, 4)
	require.Same(t, rqs[3], r.up.dones[3].rq)
	require.Equal(t, 0, r.d.Inflight())
}

// TestLevelsInCompletionOrder checks that the buffer level of every completion reaches
// OnLevel in completion order, at the time its request completes and before it, for both
// status carriers; the SQ head pointer the SQHD carrier overwrites is never used for flow
// control, so the requests still all complete.
func TestLevelsInCompletionOrder(t *testing.T) {
	levels := []bufferlevel.Level{bufferlevel.High, bufferlevel.Mid, bufferlevel.Low,
		bufferlevel.High, bufferlevel.High, bufferlevel.Low}
	for _, carrier := range []nvmectrl.StatusCarrier{nvmectrl.StatusSQHD, nvmectrl.StatusDW1} {
		cs := ctrlSpec()
		cs.StatusCarrier = carrier
		r := newRig(t, DefaultSpec(), cs, 1)
		r.dev.levels = append([]bufferlevel.Level(nil), levels...)
		type seen struct {
			at    sim.Time
			level bufferlevel.Level
			dones int
		}
		var got []seen
		r.d.OnLevel = func(now sim.Time, l bufferlevel.Level) { got = append(got, seen{now, l, len(r.up.dones)}) }
		// Spread out so that each completes in a handler pass of its own, in order.
		for i := range levels {
			rq := rw(blk.OpWrite, int64(i)*4096, 4096)
			r.at(sim.Time(i)*5*sim.Microsecond, func() { require.True(t, r.d.QueueRequest(r.eng.Now(), rq)) })
		}
		r.eng.Run()
		require.Len(t, got, len(levels))
		for i, g := range got {
			require.Equal(t, levels[i], g.level, "completion %d", i)
			require.Equal(t, i, g.dones, "reported before its request completes")
			require.Equal(t, r.up.dones[i].at, g.at)
		}
		require.Equal(t, [3]int64{2, 1, 3}, r.d.Stats.Levels)
	}
}

// TestStatusError checks that a failed command completes its request with a StatusError.
func TestStatusError(t *testing.T) {
	r := newRig(t, DefaultSpec(), ctrlSpec(), 1)
	r.dev.status = nvmectrl.StatusUnrecoveredRead
	require.True(t, r.d.QueueRequest(0, rw(blk.OpRead, 0, 4096)))
	r.eng.Run()
	require.Len(t, r.up.dones, 1)
	var se *StatusError
	require.ErrorAs(t, r.up.dones[0].err, &se)
	require.Equal(t, nvmectrl.StatusUnrecoveredRead, se.Status)
	require.Equal(t, int64(1), r.d.Stats.Errors)
	require.Equal(t, "the device reported Unrecovered Read Error: the read data could not be recovered from the media (NVMe status 2h/81h)", se.Error())
}

// TestBlockStatus: the driver classes NVMe statuses for the block layer as Linux's
// nvme_error_status (drivers/nvme/host/core.c) does, DNR or not.
func TestBlockStatus(t *testing.T) {
	for _, c := range []struct {
		st   nvmectrl.Status
		want blk.Status
	}{
		{nvmectrl.StatusUnrecoveredRead, blk.StatusMedium},
		{nvmectrl.StatusWriteFault, blk.StatusMedium},
		{nvmectrl.StatusWriteReadOnlyRange.WithDNR(), blk.StatusMedium},
		{nvmectrl.StatusCapacityExceeded, blk.StatusNoSpace},
		{nvmectrl.StatusLBAOutOfRange, blk.StatusTarget},
		{nvmectrl.StatusInvalidOpcode, blk.StatusNotSupp},
		{nvmectrl.StatusInvalidField, blk.StatusNotSupp},
		{nvmectrl.StatusInternalError, blk.StatusIOErr},
	} {
		require.Equal(t, c.want, (&StatusError{Status: c.st}).BlockStatus(), "%v", c.st)
	}
}

// TestStamps writes two bios with stamps in one request, one bio without, and reads them
// back: the device sees each page's stamp in its first 8 bytes and the reader gets them.
func TestStamps(t *testing.T) {
	r := newRig(t, DefaultSpec(), ctrlSpec(), 1)
	w := &blk.Request{Op: blk.OpWrite, Offset: 8192, Size: 5 * 4096, Bios: []*blk.Bio{
		{Op: blk.OpWrite, Offset: 8192, Size: 2 * 4096, Private: &Data{Stamps: []uint64{0xA1, 0xA2}}},
		{Op: blk.OpWrite, Offset: 4 * 4096, Size: 4096},
		{Op: blk.OpWrite, Offset: 5 * 4096, Size: 2 * 4096, Private: &Data{Stamps: []uint64{0xB1, 0xB2}}},
	}}
	// Leave stale bytes in the slot's buffer where the unstamped page goes.
	r.ctrl.Memory().PutUint64(r.d.queues[0].slots[0].buf+2*4096, 0xDEAD)
	require.True(t, r.d.QueueRequest(0, w))
	r.eng.Run()
	require.Equal(t, map[int64]uint64{2: 0xA1, 3: 0xA2, 4: 0, 5: 0xB1, 6: 0xB2}, r.dev.stamps)

	got := &Data{Stamps: make([]uint64, 3)}
	rd := &blk.Request{Op: blk.OpRead, Offset: 3 * 4096, Size: 3 * 4096, Bios: []*blk.Bio{
		{Op: blk.OpRead, Offset: 3 * 4096, Size: 3 * 4096, Private: got},
	}}
	require.True(t, r.d.QueueRequest(r.eng.Now(), rd))
	r.eng.Run()
	require.Equal(t, []uint64{0xA2, 0, 0xB1}, got.Stamps)
}

// TestStampsSplitBio checks a bio split over two requests (blk lists it in both): each
// request carries the stamps of the pages that start inside it, indexed from the bio's
// first page.
func TestStampsSplitBio(t *testing.T) {
	r := newRig(t, DefaultSpec(), ctrlSpec(), 1)
	bio := &blk.Bio{Op: blk.OpWrite, Offset: 0, Size: 4 * 4096, Private: &Data{Stamps: []uint64{10, 11, 12, 13}}}
	front := &blk.Request{Op: blk.OpWrite, Offset: 0, Size: 3 * 4096, Bios: []*blk.Bio{bio}}
	back := &blk.Request{Op: blk.OpWrite, Offset: 3 * 4096, Size: 4096, Bios: []*blk.Bio{bio}}
	require.True(t, r.d.QueueRequest(0, back))
	require.True(t, r.d.QueueRequest(0, front))
	r.eng.Run()
	require.Equal(t, map[int64]uint64{0: 10, 1: 11, 2: 12, 3: 13}, r.dev.stamps)
	got := &Data{Stamps: make([]uint64, 4)}
	rbio := &blk.Bio{Op: blk.OpRead, Offset: 0, Size: 4 * 4096, Private: got}
	require.True(t, r.d.QueueRequest(r.eng.Now(), &blk.Request{Op: blk.OpRead, Offset: 4096, Size: 3 * 4096, Bios: []*blk.Bio{rbio}}))
	r.eng.Run()
	require.Equal(t, []uint64{0, 11, 12, 13}, got.Stamps, "page 0 was in no request")
}

// TestStampPages checks the number of pages that start inside a byte range.
func TestStampPages(t *testing.T) {
	for _, tc := range []struct {
		off, size int64
		want      int
	}{{0, 4096, 1}, {0, 512, 1}, {512, 3584, 0}, {512, 4096, 1}, {4096, 8192, 2}, {0, 0, 0}, {1024, 16384, 4}} {
		require.Equal(t, tc.want, StampPages(tc.off, tc.size), "%+v", tc)
	}
}

// TestDeterminism runs the same mixed workload on two queue pairs twice and requires
// identical completion times.
func TestDeterminism(t *testing.T) {
	run := func() []sim.Time {
		spec := DefaultSpec()
		spec.Queues = 2
		spec.QueueMap = MapRoundRobin
		spec.QueueDepth = 8
		r := newRig(t, spec, ctrlSpec(), 2)
		rng := sim.NewRNG(1, "det")
		sent := 0
		send := func(now sim.Time) {
			for sent < 200 {
				op := blk.Op(rng.IntN(2))
				rq := rw(op, int64(rng.IntN(1000))*4096, int64(1+rng.IntN(8))*4096)
				if !r.d.QueueRequest(now, rq) {
					return
				}
				sent++
			}
		}
		r.up.onRestart = send
		send(0)
		r.eng.Run()
		require.Len(t, r.up.dones, 200)
		var ts []sim.Time
		for _, d := range r.up.dones {
			ts = append(ts, d.at)
		}
		return ts
	}
	require.Equal(t, run(), run())
}
