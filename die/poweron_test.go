package die

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestPowerOn: a die built again takes the array of the one a cut stopped — write
// pointers, P/E counts and stamps, the interrupted program's page read back LostStamp — and
// refuses the array of another part, or a second array once it holds one.
func TestPowerOn(t *testing.T) {
	old := newDie(t, smallSpec())
	now := sim.Time(0)
	for p := range 3 {
		end := old.Program(now, []Addr{{Plane: 0, Block: 1, Page: p}}, []uint64{uint64(10 + p)})
		require.True(t, old.Complete(end))
		now = end
	}
	old.Program(now, []Addr{{Plane: 0, Block: 1, Page: 3}}, []uint64{13})
	old.Cut(now + 100*us) // 100 µs into page 3's 558 µs LSB program: page 3 lost (an LSB page: no lower page)
	other := smallSpec()
	other.PagesPerBlock *= 2
	require.ErrorContains(t, newDie(t, other).PowerOn(old), "another part")
	d := newDie(t, smallSpec())
	require.NoError(t, d.PowerOn(old))
	require.Equal(t, 4, d.NextPage(0, 1))
	for p := range 3 {
		require.Equal(t, uint64(10+p), d.Stamp(Addr{Plane: 0, Block: 1, Page: p}))
	}
	require.Equal(t, LostStamp, d.Stamp(Addr{Plane: 0, Block: 1, Page: 3}))
	require.ErrorContains(t, d.PowerOn(newDie(t, smallSpec())), "after it was programmed")
}
