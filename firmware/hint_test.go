package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/firmware/buffer"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestUpcallReportsPredictedOccupancy: a 100-page Vanilla buffer (it evicts nothing before
// it is full) with watermarks 0.5 / 0.8 holds 10 plain pages; then a pass of 2-page hinted
// writes announces 70 pages (70, 68, … still to flush, each write included). After the
// first, the occupancy is 12 and 68 pages are announced after it: predicted 80 ≥ 80, so the
// predicted reading reports above-high at once, while the current one reports below-low
// (12 < 50). After the 10th (hint 52) the occupancy is 30 and 50 more are announced: 80,
// above-high. The pass then ends early: its last write announces only its own 2 pages
// (nothing after it), so once they are in the occupancy, 32, is the whole prediction and
// both readings report below-low (32 < 50).
func TestUpcallReportsPredictedOccupancy(t *testing.T) {
	for _, up := range []Upcall{UpcallPredicted, UpcallCurrent} {
		s := smallSpec(Vanilla, "sequential")
		s.Buffer.Pages = 100
		s.Buffer.Watermarks = buffer.Watermarks{Low: 0.5, High: 0.8}
		s.Buffer.Upcall = up
		r := newFake(t, s, 4096)
		var levels []bufferlevel.Level
		r.eng.Spawn("host", func(p *sim.Proc) {
			for i := int64(0); i < 10; i++ {
				r.cmd(p, nvme.OpWrite, i, 1, nvme.Hint{}, []uint64{Stamp(i, 1)})
			}
			lba := int64(100)
			for k := 0; k < 11; k++ {
				left := uint32(70 - 2*k)
				if k == 10 {
					left = 2 // the pass's last write: nothing after it
				}
				rq := r.cmd(p, nvme.OpWrite, lba, 2, nvme.Hint{Victim: true, Pages: left},
					[]uint64{Stamp(lba, 1), Stamp(lba+1, 1)})
				levels = append(levels, rq.level)
				lba += 2
			}
		})
		r.eng.Run()
		require.Equal(t, 32, r.fw.Buffer().Occupancy())
		require.Zero(t, r.fw.announced())
		if up == UpcallPredicted {
			require.Equal(t, bufferlevel.High, levels[0], "12 + 68 = 80")
			require.Equal(t, bufferlevel.High, levels[9], "30 + 50 = 80")
		} else {
			require.Equal(t, bufferlevel.Low, levels[0], "12")
			require.Equal(t, bufferlevel.Low, levels[9], "30")
		}
		require.Equal(t, bufferlevel.Low, levels[10], "32, nothing announced (%v)", up)
	}
}

// TestHintsInFlightCountedOnce: two hinted writes of 4 pages each are received before
// either's data is in the buffer; the first announces 8 pages (itself and the second), the
// second 4 (itself). Still to come: 4 + 4 pages received and not yet reserved, 0 after the
// second: 8. (Overwriting the count with the latest hint said 4, and counting both writes'
// pages off it then went to 0 with 4 pages still to come.) As the 8 pages' slots are
// reserved, one of each write at a time, the count of pages still to come goes down to 0.
func TestHintsInFlightCountedOnce(t *testing.T) {
	r := newFake(t, smallSpec(FastDrain, "sequential"), 4096)
	f := r.fw
	a := &hal.HostCmd{Hint: nvme.Hint{Victim: true, Pages: 8}}
	b := &hal.HostCmd{Hint: nvme.Hint{Victim: true, Pages: 4}}
	f.announce(a, 4)
	require.Equal(t, int64(8), f.announced())
	f.announce(b, 4)
	require.Equal(t, int64(8), f.announced())
	for i := 0; i < 4; i++ {
		f.victimReserved(a, 1)
		f.victimReserved(b, 1)
		require.Equal(t, int64(8-2*(i+1)), f.announced())
	}
	plain := &hal.HostCmd{}
	f.announce(plain, 4)
	f.victimReserved(plain, 4)
	require.Zero(t, f.announced(), "unhinted writes are not counted")
}

// TestPredictionCountsAPageOnce follows one hinted write of 4 pages that announces only
// itself (hint 4) into an empty Vanilla buffer of 100 pages, sampling the predicted
// occupancy every 100 ns from its submission to 10 µs after. Each page is counted once,
// still to come (announced), on its way into a reserved slot (the fake DMA takes 1 µs, the
// DRAM move 1 µs more), or in the buffer, so once the write is received every sample reads
// 4 (0 before). (Counting the pages off the announcement only once stored read 4 + 4 = 8
// while the data was on its way.)
func TestPredictionCountsAPageOnce(t *testing.T) {
	r := newFake(t, smallSpec(Vanilla, "sequential"), 4096)
	f := r.fw
	var samples, received, inFlight int
	r.eng.Spawn("probe", func(p *sim.Proc) {
		for i := 0; i < 100; i++ {
			samples++
			want := int64(4)
			if received == 0 && f.predicted() == 0 {
				want = 0 // not yet received
			}
			require.Equal(t, want, f.predicted(), "at %v: occupancy %d, reserved %d, announced %d",
				p.Now(), f.Buffer().Occupancy(), f.wb.reserved, f.announced())
			if want == 4 {
				received++
			}
			if f.wb.reserved > 0 {
				inFlight++
			}
			p.Sleep(100 * sim.Nanosecond)
		}
	})
	r.eng.Spawn("host", func(p *sim.Proc) {
		r.cmd(p, nvme.OpWrite, 0, 4, nvme.Hint{Victim: true, Pages: 4},
			[]uint64{Stamp(0, 1), Stamp(1, 1), Stamp(2, 1), Stamp(3, 1)})
	})
	r.eng.Run()
	require.Equal(t, 100, samples)
	require.GreaterOrEqual(t, received, 50, "the write is received within 5 µs")
	require.Positive(t, inFlight, "some samples fall while the data is on its way")
	require.Equal(t, 4, f.Buffer().Occupancy())
}
