package channel

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// TestCacheProgramTiming works N = 4 programs of pages 0–3 of one block (LSB pages of the
// default 2D TLC die, tPROG 558 µs; each program's bus phase B = progBus, 345 ns of
// command and address plus 16 KiB of data-in at 333 MT/s, 49.2 µs), all submitted at 0 to
// die 0, by hand:
//
//   - Without cache program a die takes a program's data only when it is free: page k
//     completes at (k + 1) · (B + 558 µs), the last at 4B + 2,232 µs.
//   - With it the data of page k + 1 goes into the cache register while page k programs
//     (its bus phase starts at the end of page k's, or when page k's array starts), and its
//     tPROG starts when page k's ends: page k completes at B + (k + 1) · 558 µs, the last
//     at B + 2,232 µs: 3B = 147.6 µs sooner, first data-in + N · tPROG.
//   - Page k + 1's bus phase starts when page k's array has started (k = 0: at B; then at
//     page k's promotion, B + k · 558 µs).
//
// A program to another block is not cached (cache program works within one block): it
// waits for the die.
func TestCacheProgramTiming(t *testing.T) {
	run := func(cache bool, blocks []int) []*Transaction {
		eng, c := newChannel(t, func(s *Spec) { s.Die.CacheProgram = cache })
		rec := &recorder{}
		var txs []*Transaction
		for p, b := range blocks {
			tx := prog(0, die.Addr{Block: b, Page: p % 2}, uint64(100+p), rec)
			if b == 0 {
				tx.Addrs[0].Page = p
			}
			txs = append(txs, tx)
			c.Submit(tx)
		}
		eng.Run()
		require.Len(t, rec.done, len(blocks))
		if cache {
			require.Positive(t, c.Stats().Cached)
		}
		return txs
	}
	const B, T = progBus, 558 * us
	off := run(false, []int{0, 0, 0, 0})
	on := run(true, []int{0, 0, 0, 0})
	for k := range 4 {
		require.Equal(t, sim.Time(k+1)*(B+T), off[k].Completed, "page %d without", k)
		require.Equal(t, B+sim.Time(k+1)*T, on[k].Completed, "page %d with cache program", k)
		require.Equal(t, B+sim.Time(k)*T, on[k].ArrayStart, "page %d's tPROG starts when the one before ends", k)
	}
	require.Equal(t, B, on[1].BusStart, "page 1's data-in right after page 0's")
	require.Equal(t, B+T, on[2].BusStart, "page 2's once page 1 is promoted")
	// Pages 0, 1 of block 0, then page 0 of block 1: not cached behind block 0's page 1.
	mixed := run(true, []int{0, 0, 1})
	require.Equal(t, B+2*T, mixed[2].BusStart, "another block waits for the die")
	require.Equal(t, 2*B+3*T, mixed[2].Completed)
}
