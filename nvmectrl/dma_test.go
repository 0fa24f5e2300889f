package nvmectrl

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// fixedSink lands data a fixed delay after it arrives and records each piece it is given.
type fixedSink struct {
	delay  sim.Time
	pieces [][2]int // off, n
}

func (s *fixedSink) Land(t sim.Time, _ *Command, off, n int) sim.Time {
	s.pieces = append(s.pieces, [2]int{off, n})
	return t + s.delay
}

// doneAt records when the DMA engine says a command's data has landed.
type doneAt map[uint16]sim.Time

func (d doneAt) HandleEvent(ev *sim.Event) { d[ev.Data.(*Command).SQE.CID()] = ev.Time }

// TestFetchHostDataWithinTagsIsOneBooking: a 4 KiB Write needs 4096 / 512 = 8 read
// requests, fewer than the 32 default tags, so it is booked at once as one DMA read (as
// ReadHostData books it) and landed by the sink: no event, no wait.
func TestFetchHostDataWithinTagsIsOneBooking(t *testing.T) {
	sink := &fixedSink{delay: 100 * sim.Nanosecond}
	var got sim.Time
	var ok bool
	r, ref, fetched := oneCommand(t, testSpec(),
		func(r *rig) SQE { return r.rw(t, OpWrite, 9, 8) }, // 8 × 512 B = 4 KiB
		func(r *rig, now sim.Time, cmd *Command) {
			got, ok = r.c.FetchHostData(now, cmd, 0, cmd.DataLen, sink, doneAt{}, 0)
			r.c.Complete(now, cmd, StatusSuccess, 0, bufferlevel.None)
		})
	require.True(t, ok)
	require.Equal(t, ref.DMARead(fetched, PageSize)+100*sim.Nanosecond, got)
	require.Equal(t, [][2]int{{0, PageSize}}, sink.pieces)
	require.Zero(t, r.c.Stats.DataWaits)
}

// TestFetchHostDataWaitsForTags: with 8 read tags and MRRS 512 the window is 8 × 512 B =
// 4 KiB, one host page. A 16 KiB Write (PRP1 + PRP2 as a 3-entry list, 24 B) is then
// fetched one page at a time, each page requested only when the previous one has landed
// (its tags come back): by hand, done = list + 4 × (isolated 4 KiB read + 100 ns sink).
func TestFetchHostDataWaitsForTags(t *testing.T) {
	s := testSpec()
	s.ReadTags = 8
	sink := &fixedSink{delay: 100 * sim.Nanosecond}
	done := doneAt{}
	var ok bool
	r, ref, fetched := oneCommand(t, s,
		func(r *rig) SQE { return r.rw(t, OpWrite, 9, 32) }, // 32 × 512 B = 16 KiB
		func(r *rig, now sim.Time, cmd *Command) {
			_, ok = r.c.FetchHostData(now, cmd, 0, cmd.DataLen, sink, done, 0)
		})
	require.False(t, ok, "16 KiB needs 32 requests, more than 8 tags")
	want := ref.DMARead(fetched, 3*8) // the PRP list: entries for pages 1..3
	for range 4 {
		want = ref.DMARead(want, PageSize) + 100*sim.Nanosecond // each on an idle link
	}
	require.Equal(t, want, done[9])
	require.Equal(t, [][2]int{{0, 4096}, {4096, 4096}, {8192, 4096}, {12288, 4096}}, sink.pieces)
	require.Equal(t, int64(1), r.c.Stats.DataWaits)
}

// TestFetchHostDataRoundRobin: two Writes, A of 12 KiB and B of 8 KiB, ask for their data
// at the same time with a one-page window (8 tags). The engine serves the waiting commands
// one page per turn: A0 (A asked first), then the queue is [A, B]: A1, B0, A2 (A done), B1
// (B done). Every page waits for the previous one to land, so A is done after the 4th
// page and B after the 5th.
func TestFetchHostDataRoundRobin(t *testing.T) {
	s := testSpec()
	s.ReadTags = 8
	sink := &fixedSink{}
	done := doneAt{}
	r := newRig(t, s, ArbRoundRobin)
	r.addPair(t, 1, 16, 16, PrioMedium, 1)
	var cmds []*Command
	r.fw.onSubmit = func(now sim.Time, cmd *Command) {
		cmds = append(cmds, cmd)
		if len(cmds) == 2 {
			for _, c := range cmds {
				_, ok := r.c.FetchHostData(now, c, 0, c.DataLen, sink, done, 0)
				require.False(t, ok)
			}
		}
	}
	a, b := r.rw(t, OpWrite, 1, 24), r.rw(t, OpWrite, 2, 16) // 12 KiB, 8 KiB
	r.at(0, func() {
		r.host.push(1, &a)
		r.host.push(1, &b)
		r.host.ring(0, 1)
	})
	r.eng.Run()
	require.Equal(t, [][2]int{{0, 4096}, {4096, 4096}, {0, 4096}, {8192, 4096}, {4096, 4096}}, sink.pieces)
	require.Less(t, done[1], done[2])
	// Replay: both SQEs come in one fetch; A's list (2 entries) is read, then B's (B's
	// second page is PRP2 itself: no list), then the five pages one after the other.
	ref := refLink()
	fetched := ref.DMARead(edge(ref.MMIOWrite(0, 4)), 2*SQESize)
	t0 := ref.DMARead(fetched, 2*8)
	page := t0
	var ends []sim.Time
	for range 5 {
		page = ref.DMARead(page, PageSize)
		ends = append(ends, page)
	}
	require.Equal(t, ends[3], done[1])
	require.Equal(t, ends[4], done[2])
}

// TestSQEFetchDuringWriteStreamIsBounded: while a 128 KiB Write's data streams at full
// rate, an SQE fetch (a 64 B read) waits only for the data already requested: at most the
// 32 × 512 B = 16 KiB window plus one maximum-size completion TLP. By hand, on Gen3 x4
// with MPS 256: a byte takes 8 b × 130/128 / (4 lanes × 8 GT/s) = 253.90625 ps on the wire;
// 16 KiB travel in 64 completions of 256 + 20 B = 17,664 B, and a max TLP is 276 B, so the
// bound is (17,664 + 276) × 253.90625 ps = 4,555,078 ps before the DLLP share, which
// stretches each byte by the factor DLLPFactor (docs/sources.md §2). Without the window the fetch
// would wait for the whole 128 KiB (about 35 µs).
func TestSQEFetchDuringWriteStreamIsBounded(t *testing.T) {
	s := testSpec()
	var probe, idle sim.Time
	r, _, _ := oneCommand(t, s,
		func(r *rig) SQE { return r.rw(t, OpWrite, 9, 256) }, // 128 KiB
		func(r *rig, now sim.Time, cmd *Command) {
			r.c.FetchHostData(now, cmd, 0, cmd.DataLen, &fixedSink{}, doneAt{}, 0)
			// 10 µs in, the stream is at full rate; fetch an SQE then.
			r.at(now+10*sim.Microsecond, func() {
				at := r.eng.Now()
				probe = r.link.DMARead(at, SQESize) - at
			})
		})
	idle = refLink().DMARead(0, SQESize)
	ps := pcie.DefaultSpec()
	fn, fd := ps.DLLPFactor()
	bound := sim.Time((17664+276)*253906250*fn/fd/1000000 + 1)
	require.Greater(t, probe, idle, "the stream must be running when the probe is sent")
	require.LessOrEqual(t, probe-idle, bound)
	require.Equal(t, int64(128<<10), r.c.Stats.DataRead)
}

// TestFetchHostDataQD32ReachesLinkPayloadRate: 32 Writes of 128 KiB (4 MiB) fetched at once
// through the 32-tag engine keep host→device busy with completions. By hand (docs/sources.md §2):
// Gen3 x4 carries 3.94 GB/s per direction, 3.63 GB/s at the TLP layer after 7.7 % of
// DLLPs and SKPs at MPS 256, and a completion carries 256 B of payload in 276 B, so data
// arrives at 3.63 × 256/276 = 3.37 GB/s: 4 MiB in 1.245 ms. The measured rate, taken from
// the first data request (after the SQE fetches and PRP lists) to the last byte, must be
// within 2 % of it.
func TestFetchHostDataQD32ReachesLinkPayloadRate(t *testing.T) {
	r := newRig(t, testSpec(), ArbRoundRobin)
	r.addPair(t, 1, 64, 64, PrioMedium, 1)
	done := doneAt{}
	first := sim.MaxTime
	r.fw.onSubmit = func(now sim.Time, cmd *Command) {
		first = min(first, now)
		if _, ok := r.c.FetchHostData(now, cmd, 0, cmd.DataLen, &fixedSink{}, done, 0); ok {
			done[cmd.SQE.CID()] = now
		}
	}
	r.at(0, func() {
		for i := range 32 {
			e := r.rw(t, OpWrite, uint16(i), 256)
			r.host.push(1, &e)
		}
		r.host.ring(0, 1)
	})
	r.eng.Run()
	require.Len(t, done, 32)
	var last sim.Time
	for _, d := range done {
		last = max(last, d)
	}
	rate := float64(32*128<<10) / (float64(last-first) / 1e12) // bytes per second
	want := 3.63e9 * 256 / 276
	t.Logf("measured %.3f GB/s, by hand %.3f GB/s", rate/1e9, want/1e9)
	require.InDelta(t, want, rate, 0.02*want)
}

// TestDMATagReleaseOutOfOrder holds three quanta whose arrivals are not in the order they
// were booked (a later quantum can land in DRAM first) and checks the tags each release
// frees and the first arrival left, worked by hand: 32 tags, three quanta of 8 arriving at
// 100, 50 and 200 ps leave 8 free and the first arrival at 50. Before 50 nothing comes
// back; at 100 the quanta of 50 and 100 have (8 + 16 = 24 free, next arrival 200); at 200
// the last (32 free, none in flight: sim.MaxTime).
func TestDMATagReleaseOutOfOrder(t *testing.T) {
	var e dmaEngine
	e.init(32, 512)
	e.hold(100, 8)
	e.hold(50, 8)
	e.hold(200, 8)
	require.Equal(t, 8, e.free)
	require.Equal(t, sim.Time(50), e.firstArrival())
	e.release(49)
	require.Equal(t, 8, e.free)
	require.Len(t, e.held, 3)
	e.release(100)
	require.Equal(t, 24, e.free)
	require.Equal(t, []dmaHold{{200, 8}}, e.held)
	require.Equal(t, sim.Time(200), e.firstArrival())
	e.hold(150, 8) // booked after the others, first to arrive
	require.Equal(t, 16, e.free)
	require.Equal(t, sim.Time(150), e.firstArrival())
	e.release(200)
	require.Equal(t, 32, e.free)
	require.Empty(t, e.held)
	require.Equal(t, sim.MaxTime, e.firstArrival())
}
