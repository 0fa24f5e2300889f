package channel

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// TestUnitReadTiming: with sub-page mapping a 4 KiB mapping unit is read from an 8 KiB page
// of mqsim-ref's SLC die (75 µs tR) on its NV-DDR2 mode 6 bus (333 MT/s, 8 bits). The die
// senses the whole page; only the unit's 4,096 bytes cross the bus (Bytes, a column range):
//
//	read command 00h + 5 address cycles + 30h = 7 × 25 ns, + tWB 100 ns  =    275,000 ps
//	tR                                                                   = 75,000,000 ps
//	tRR before the first data-out cycle                                  =     20,000 ps
//	data-out ⌈4096 · 10⁶ / 333⌉ ps (4,096,000,000 / 333 = 12,300,300.3)  = 12,300,301 ps
//	                                                                total = 87,595,301 ps
//
// against 99,895,601 ps for the whole page (⌈8192 · 10⁶ / 333⌉ = 24,600,601 ps of data-out).
// The read returns both slots' stamps; 4,096 bytes are counted out.
func TestUnitReadTiming(t *testing.T) {
	eng, c := newChannel(t, func(s *Spec) {
		s.Die = die.SpecFor(die.SLC)
		s.Die.BlocksPerPlane, s.Die.PageSize, s.Die.Slots = 8, 8192, 2
		s.Die.TRead = die.PerType{LSB: 75 * us}
		s.Die.TProg = die.PerType{LSB: 750 * us}
	})
	c.Submit(&Transaction{Kind: Program, Die: 0, Addrs: []die.Addr{{Page: 0}}, Stamps: []uint64{41, 42}})
	eng.Run()
	for _, tc := range []struct {
		bytes int
		want  sim.Time
	}{{4096, 87_595_301}, {0, 99_895_601}} {
		rec := &recorder{}
		tx := &Transaction{Kind: Read, Die: 0, Addrs: []die.Addr{{Page: 0}}, Bytes: tc.bytes, Done: rec}
		before := c.Stats().BytesOut
		c.Submit(tx)
		eng.Run()
		require.Len(t, rec.done, 1)
		require.Equal(t, tc.want, tx.Completed-tx.Submitted, "read of %d bytes", tc.bytes)
		require.Equal(t, []uint64{41, 42}, tx.Stamps)
		want := int64(tc.bytes)
		if want == 0 {
			want = 8192
		}
		require.Equal(t, want, c.Stats().BytesOut-before)
	}
	// A program needs both slots' stamps.
	require.Panics(t, func() {
		c.Submit(&Transaction{Kind: Program, Die: 0, Addrs: []die.Addr{{Page: 1}}, Stamps: []uint64{1}})
	})
}
