package channel

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// planeReads programs page 0 of plane 0 and plane 1 and page 1 of plane 0 (block 0, die 0,
// LSB pages), then submits together, in this order, reads of plane 0 page 0 (a), plane 0
// page 1 (b) and plane 1 page 0 (c), under read-first arbitration.
func planeReads(t *testing.T, independent bool) (t0 sim.Time, a, b, c *Transaction) {
	eng, ch := newChannel(t, func(s *Spec) {
		s.Policy = ReadFirst
		s.Die.IndependentPlaneReads = independent
	})
	for _, ad := range []die.Addr{{Plane: 0, Page: 0}, {Plane: 1, Page: 0}, {Plane: 0, Page: 1}} {
		ch.Submit(prog(0, ad, uint64(10*ad.Plane+ad.Page), nil))
	}
	eng.Run()
	t0 = eng.Now()
	a, b, c = read(0, die.Addr{Plane: 0, Page: 0}, nil), read(0, die.Addr{Plane: 0, Page: 1}, nil), read(0, die.Addr{Plane: 1, Page: 0}, nil)
	eng.At(t0, func() { ch.Submit(a); ch.Submit(b); ch.Submit(c) })
	eng.Run()
	require.Equal(t, []uint64{0, 1, 10}, []uint64{a.Stamps[0], b.Stamps[0], c.Stamps[0]})
	return t0, a, b, c
}

// TestIndependentPlaneReadsOverlap: with independent plane reads (die.Spec), c (plane 1)
// overtakes b (plane 0, busy with a) and senses beside a: a's command 275 ns and tR(LSB)
// 58 µs; c's command follows a's on the bus (275 ns) and its tR overlaps a's; a's data-out
// (tRR 20 ns + 16 KiB) frees plane 0, and b's command (275 ns) goes on the bus before c's
// waiting data-out (a command to a free plane first, so b's tR starts at once):
//
//	a.Completed = t0 + 275 ns + 58 µs + readOut
//	c.Completed = a.Completed + 275 ns + readOut         (c's tR ended at t0 + 550 ns + 58 µs)
//	b.Completed = a.Completed + 275 ns + 58 µs + readOut (its tR outlasts c's data-out)
//
// The control, the same die reading one page at a time, runs a, b, c back to back (the
// read queue's order): c completes at t0 + 3 × (readBus + 58 µs) instead of
// t0 + 550 ns + 58 µs + 2 × readOut: 116 µs + 275 ns + readOut ≈ 165.5 µs later.
func TestIndependentPlaneReadsOverlap(t *testing.T) {
	t0, a, b, c := planeReads(t, true)
	require.Equal(t, t0+readCmd+58*us+readOut, a.Completed)
	require.Equal(t, t0+readCmd, c.BusStart)
	require.Equal(t, t0+2*readCmd, c.ArrayStart)
	require.Equal(t, a.Completed+readCmd+readOut, c.Completed)
	require.Equal(t, a.Completed, b.BusStart)
	require.Equal(t, a.Completed+readCmd+58*us+readOut, b.Completed)

	t0, a, b, c = planeReads(t, false)
	one := readBus + 58*us
	require.Equal(t, t0+one, a.Completed)
	require.Equal(t, t0+2*one, b.Completed)
	require.Equal(t, t0+3*one, c.Completed)
}

// TestSLCTransactions: a program with SLC set takes the die's SLC tPROG (300 µs here)
// instead of the LSB page's 558 µs (the control), and a read with SLC set its SLC tR
// (25 µs) instead of 58 µs; the bus phases are those of any one-plane program and read.
func TestSLCTransactions(t *testing.T) {
	for _, slc := range []bool{true, false} {
		eng, ch := newChannel(t, func(s *Spec) { s.Die.SLC = die.SLCSpec{TRead: 25 * us, TProg: 300 * us} })
		pg := prog(0, die.Addr{Page: 0}, 5, nil)
		pg.SLC = slc
		ch.Submit(pg)
		eng.Run()
		r := read(0, die.Addr{Page: 0}, nil)
		r.SLC = slc
		t0 := eng.Now()
		ch.Submit(r)
		eng.Run()
		tProg, tR := 558*us, 58*us
		if slc {
			tProg, tR = 300*us, 25*us
		}
		require.Equal(t, progBus+tProg, pg.Completed, "SLC %v", slc)
		require.Equal(t, t0+readBus+tR, r.Completed, "SLC %v", slc)
		require.Equal(t, uint64(5), r.Stamps[0])
		require.Equal(t, slc, ch.Die(0).IsSLC(0, 0))
	}
}
