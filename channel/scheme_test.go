package channel

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// TestTwoPassResend programs word lines 0 and 1 of a two-pass QLC die (16 KiB pages, the
// default NV-DDR2 333 MT/s bus): each page is one program transaction of progBus
// (345 ns of commands + 16 KiB of data-in). Word line 1's last page (page 7) also sends word
// line 0's four pages again for its fine pass: 4 × xfer16K more data-in, so
//
//	page 3 completes at 4·progBus + 2,000 µs (coarse of WL 0)
//	page 7 completes at page 3's end + 4·progBus + resend + 2,000 + 2,800 µs,
//
// where the resent 64 KiB is one transfer, rounded once: ⌈65536·10⁶/333⌉ = 196,804,805 ps.
func TestTwoPassResend(t *testing.T) {
	eng, c := newChannel(t, func(s *Spec) {
		s.Die = die.SpecFor(die.QLC)
		s.Die.BlocksPerPlane = 8
	})
	var txs []*Transaction
	for p := range 8 {
		tx := prog(0, die.Addr{Page: p}, uint64(p), nil)
		txs = append(txs, tx)
		c.Submit(tx)
	}
	eng.Run()
	const resend = sim.Time(196_804_805)
	wl0 := 4*progBus + 2000*us
	require.Equal(t, wl0, txs[3].Completed)
	require.Equal(t, wl0+4*progBus+resend+4800*us, txs[7].Completed)
	bus := c.Bus()
	require.Equal(t, 8*xfer16K+resend, bus.BusyAt(eng.Now(), bus.Activity("data-in")))
	require.Equal(t, int64(12*16384), c.Stats().BytesIn)
	require.Equal(t, sim.Time(0), txs[0].ArrayEnd-txs[0].ArrayStart, "page 0 only latches")
}
