package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestPartialPageWrites: with 512-byte LBAs a logical page is LBAs 8i … 8i+7.
//   - Page 0 is written whole (version 1), flushed to flash and dropped from DRAM. A write of
//     LBAs 2–3 starts inside page 0, so the page keeps the version it has: its old data is
//     read from flash (one flash read) and the page is buffered again as Stamp(0, 1). That
//     write waits for the read, one fakeTR (58 µs), on top of its other steps: parse 800
//     cycles at 400 MHz = 2 µs, data 1 µs, per-page 100 cycles = 0.25 µs, staging 1 µs,
//     completion 400 cycles = 1 µs; 63.25 µs, under 70 µs with clock edges.
//   - A write of LBAs 8–10 starts at page 1 and ends inside it: its stamp is the host's
//     (Stamp(1, 2)); the tail read finds page 1 unmapped, so no flash read.
//
// Reads of both pages then return those stamps, from the buffer.
func TestPartialPageWrites(t *testing.T) {
	r := newFake(t, smallSpec(Vanilla, "sequential"), 512)
	f := r.fw
	var rmw sim.Time
	got := make([]uint64, 1)
	r.eng.Spawn("host", func(p *sim.Proc) {
		r.cmd(p, nvme.OpWrite, 0, 8, nvme.Hint{}, []uint64{Stamp(0, 1)})
		r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
		require.Equal(t, int64(1), r.flash.programs)
		f.buf.Invalidate(0) // its clean copy leaves DRAM
		rmw = r.cmd(p, nvme.OpWrite, 2, 2, nvme.Hint{}, []uint64{Stamp(0, 9)}).latency
		require.Equal(t, int64(1), r.flash.reads, "the head of page 0 came from flash")
		r.cmd(p, nvme.OpWrite, 8, 3, nvme.Hint{}, []uint64{Stamp(1, 2)})
		require.Equal(t, int64(1), r.flash.reads, "page 1 was unmapped: nothing to read")
		r.cmd(p, nvme.OpRead, 0, 8, nvme.Hint{}, got)
		require.Equal(t, Stamp(0, 1), got[0])
		r.cmd(p, nvme.OpRead, 8, 8, nvme.Hint{}, got)
		require.Equal(t, Stamp(1, 2), got[0])
	})
	r.eng.Run()
	require.GreaterOrEqual(t, rmw, fakeTR+5*sim.Microsecond)
	require.Less(t, rmw, 70*sim.Microsecond)
	require.Equal(t, int64(2), f.Stats.ReadHits)
}

// TestTrims: pages 0–7 are written (version 1 each); Dataset Management deallocates LBAs
// 2–5 and Write Zeroes LBAs 6–7 (4 KiB LBAs: one page each). Reads then return the
// stamps of pages 0 and 1 and zero (unmapped) for pages 2–7. With 512-byte LBAs, a range
// of LBAs 1–15 (bytes 512 … 8,191) holds only page 1 (bytes 4,096 … 8,191) whole, so
// only page 1 is trimmed.
func TestTrims(t *testing.T) {
	r := newFake(t, smallSpec(Vanilla, "sequential"), 4096)
	got := make([]uint64, 8)
	r.eng.Spawn("host", func(p *sim.Proc) {
		w := make([]uint64, 8)
		for i := range w {
			w[i] = Stamp(int64(i), 1)
		}
		r.cmd(p, nvme.OpWrite, 0, 8, nvme.Hint{}, w)
		require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpDatasetManagement, 2, 4, nvme.Hint{}, nil).status)
		require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWriteZeroes, 6, 2, nvme.Hint{}, nil).status)
		r.cmd(p, nvme.OpRead, 0, 8, nvme.Hint{}, got)
	})
	r.eng.Run()
	require.Equal(t, []uint64{Stamp(0, 1), Stamp(1, 1), 0, 0, 0, 0, 0, 0}, got)
	require.Equal(t, int64(2), r.fw.Stats.Trims)

	r = newFake(t, smallSpec(Vanilla, "sequential"), 512)
	r.eng.Spawn("host", func(p *sim.Proc) {
		r.cmd(p, nvme.OpWrite, 0, 24, nvme.Hint{}, []uint64{Stamp(0, 1), Stamp(1, 1), Stamp(2, 1)})
		r.cmd(p, nvme.OpDatasetManagement, 1, 15, nvme.Hint{}, nil)
		r.cmd(p, nvme.OpRead, 0, 24, nvme.Hint{}, got[:3])
	})
	r.eng.Run()
	require.Equal(t, []uint64{Stamp(0, 1), 0, Stamp(2, 1)}, got[:3])
}

// TestTrimOutOfRange: a Dataset Management range past the namespace fails with LBA Out of
// Range and trims nothing.
func TestTrimOutOfRange(t *testing.T) {
	r := newFake(t, smallSpec(Vanilla, "sequential"), 4096)
	r.eng.Spawn("host", func(p *sim.Proc) {
		r.cmd(p, nvme.OpWrite, 0, 1, nvme.Hint{}, []uint64{Stamp(0, 1)})
		st := r.cmd(p, nvme.OpDatasetManagement, r.fw.LogicalPages()-1, 2, nvme.Hint{}, nil).status
		require.Equal(t, nvme.StatusLBAOutOfRange, st)
	})
	r.eng.Run()
	require.Equal(t, int64(1), r.fw.Stats.Errors)
	require.Equal(t, 1, r.fw.Buffer().Occupancy())
}

// TestPreconditionNeedsFlashImage: a flash port without the FlashImage capability cannot be
// preconditioned, and says so (rather than filling the FTL alone).
func TestPreconditionNeedsFlashImage(t *testing.T) {
	r := newFake(t, smallSpec(Vanilla, "sequential"), 4096)
	err := r.fw.Precondition(0.5, 0, false, 1)
	require.ErrorContains(t, err, "not a FlashImage")
	require.Zero(t, r.fw.FTL().Stats.HostWrites)
}
