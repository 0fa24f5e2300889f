package channel

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// waker is a Done handler that wakes the firmware process waiting for its transaction.
type waker struct{ sig sim.Signal }

func (w *waker) HandleEvent(*sim.Event) { w.sig.Notify() }

// stampOf is the unique stamp of a page in the property test.
func stampOf(d int, a die.Addr) uint64 {
	return uint64(d)<<40 | uint64(a.Plane)<<32 | uint64(a.Block)<<16 | uint64(a.Page)
}

// runMix runs firmware-like processes against one channel: per die a writer programming
// every block in order (two-plane when it can) and a reader reading random programmed
// pages, with read-first arbitration, suspend and status polling on. Every read must
// return the stamp of its page. It returns the completion times of all transactions.
func runMix(t *testing.T) []sim.Time {
	eng := sim.NewEngine()
	s := DefaultSpec()
	s.Policy, s.StatusPoll = ReadFirst, true
	s.Die.BlocksPerPlane, s.Die.PagesPerBlock = 2, 24
	s.Die.Suspend, s.Die.TSuspend, s.Die.TResume, s.Die.MaxSuspends = true, 10*us, 15*us, 3
	c, err := New(eng, "ssd.ch[0]", s)
	require.NoError(t, err)
	var times []sim.Time
	for d := range s.Dies {
		written := 0                     // pages of die d known programmed, in (block, page, plane) order
		addrOf := func(i int) die.Addr { // i-th page in that order
			return die.Addr{Plane: i % 2, Block: i / (2 * 24), Page: i / 2 % 24}
		}
		eng.Spawn(c.Die(d).Name()+".writer", func(p *sim.Proc) {
			rng := sim.NewRNG(1, p.Name())
			w := &waker{}
			tx := &Transaction{Die: d, Kind: Program, Done: w}
			for i := 0; i < 2*2*24; {
				n := 1
				if i%2 == 0 && rng.IntN(2) == 0 {
					n = 2 // both planes, same page index, possibly different blocks
				}
				tx.Addrs, tx.Stamps = tx.Addrs[:0], tx.Stamps[:0]
				for k := range n {
					a := addrOf(i + k)
					tx.Addrs = append(tx.Addrs, a)
					tx.Stamps = append(tx.Stamps, stampOf(d, a))
				}
				c.Submit(tx)
				p.Wait(&w.sig)
				times = append(times, tx.Completed)
				i += n
				written = i
				p.Sleep(sim.Time(rng.IntN(200)) * us)
			}
		})
		eng.Spawn(c.Die(d).Name()+".reader", func(p *sim.Proc) {
			rng := sim.NewRNG(1, p.Name())
			w := &waker{}
			tx := &Transaction{Die: d, Kind: Read, Done: w, Addrs: make([]die.Addr, 1), MaySuspend: true}
			for range 60 {
				p.Sleep(sim.Time(50+rng.IntN(300)) * us)
				if written == 0 {
					continue
				}
				tx.Addrs[0] = addrOf(rng.IntN(written))
				c.Submit(tx)
				p.Wait(&w.sig)
				require.Equal(t, stampOf(d, tx.Addrs[0]), tx.Stamps[0], "die %d %v", d, tx.Addrs[0])
				times = append(times, tx.Completed)
			}
		})
	}
	eng.Run()
	st := c.Stats()
	require.Equal(t, int64(s.Dies*2*2*24), st.BytesIn/int64(s.Die.PageSize))
	var suspends int64
	for d := range s.Dies {
		suspends += c.Die(d).Stats().Suspends
		require.Equal(t, 24, c.Die(d).NextPage(1, 1))
		require.Equal(t, 0, c.Outstanding(d))
	}
	require.Positive(t, suspends, "the mix should exercise program suspend")
	return times
}

// TestProcessesMix checks data integrity and determinism with firmware-like processes: the
// same run twice gives identical completion times.
func TestProcessesMix(t *testing.T) {
	a := runMix(t)
	b := runMix(t)
	require.NotEmpty(t, a)
	require.Equal(t, a, b)
}
