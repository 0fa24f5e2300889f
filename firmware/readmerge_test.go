package firmware

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// TestSubPageReadSensesOnce: with 4 units a 16 KiB page, the four logical pages of one
// flash page pushed out of the buffer and read by one 16 KiB command are four host reads
// queued on one die together; the scheduler hands them to the channel as one transaction,
// so the die senses the page once (one tR: the die counts 1 page read) and the channel moves
// the four units' 16,384 bytes. Each read returns its own version. Without the merge each
// unit paid its own tR: 4 page reads.
func TestSubPageReadSensesOnce(t *testing.T) {
	r := newRig(t, smallSpec(Vanilla, "sequential"), subPageDies(4))
	fl := r.fw.FTL()
	got := make([]uint64, 4)
	var out, sensed int64
	r.eng.Spawn("host", func(p *sim.Proc) {
		st := []uint64{Stamp(0, 1), Stamp(1, 1), Stamp(2, 1), Stamp(3, 1)}
		require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, 0, 4, nvme.Hint{}, st).status)
		r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
		for lpn := int64(0); lpn < 4; lpn++ {
			r.fw.buf.Invalidate(lpn)
		}
		before, reads := r.busBytesOut(), r.pagesSensed()
		require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpRead, 0, 4, nvme.Hint{}, got).status)
		for lpn := range 4 {
			require.Equal(t, Stamp(int64(lpn), 1), got[lpn], "lpn %d", lpn)
		}
		out, sensed = r.busBytesOut()-before, r.pagesSensed()-reads
	})
	r.eng.Run()
	require.Equal(t, int64(4*4096), out)
	require.Equal(t, int64(1), sensed)
	require.Equal(t, int64(4), r.fw.Stats.FlashReads, "four units read from flash")
	require.NoError(t, fl.Check())
}

// pagesSensed returns the pages the rig's dies have read (tR), all page types.
func (r *rig) pagesSensed() int64 {
	var n int64
	for _, c := range r.chans {
		for d := range c.NumDies() {
			for _, k := range c.Die(d).Stats().Reads {
				n += k
			}
		}
	}
	return n
}
