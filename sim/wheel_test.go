package sim

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTimeQueueAgainstSortedList drives the time queue directly with keys placed where its
// parts meet — a few picoseconds either side of window edges, of the wheel's span from the
// current window and from later ones, of coarse periods and of the coarse wheel's reach, in
// the same window as many others, and far beyond — taking keys (the earliest at the current
// time, or the next with advance, sometimes with a limit) in between, and checks every key
// taken against a sorted reference list.
func TestTimeQueueAgainstSortedList(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		rng := NewRNG(seed, "timequeue")
		slots := make([]Event, 0, 1024)
		q := newTimeQueue(&slots)
		var ref []key // sorted by (t, tie), earliest first
		var seq uint64
		free := []int32{}
		near := func() Time {
			edge := []Time{wheelGrain, wheelSpan, wheelSpan - wheelGrain, wheelSpan + wheelGrain, 2 * wheelSpan}
			coarse := period * coarseSlots
			pedge := []Time{period, 2 * period, 3 * period, 7 * period, coarse, coarse + period, coarse + 2*period, coarse + 3*period}
			switch rng.IntN(9) {
			case 6: // around the edge of a period, or of the coarse wheel's reach, from the period
				return pedge[rng.IntN(len(pedge))] - q.last%period + Time(rng.IntN(9)) - 4
			case 7:
				return Time(rng.Int64N(int64(2 * coarse)))
			case 0:
				return Time(rng.IntN(4)) // the current time, or nearly
			case 1: // around the edge of a window or of the wheel's span, from the window
				return edge[rng.IntN(len(edge))] - q.last%wheelGrain + Time(rng.IntN(9)) - 4
			case 2:
				return Time(rng.Int64N(int64(wheelSpan)))
			case 3:
				return Time(rng.Int64N(int64(4 * wheelSpan)))
			case 4:
				return Time(rng.Int64N(1 << 40))
			}
			return Time(rng.IntN(3)) * wheelGrain // several keys in one later window
		}
		for step := range 20_000 {
			if rng.IntN(2) == 0 || len(ref) == 0 {
				tm := max(q.last, q.last+near())
				burst := 1
				if rng.IntN(100) == 0 {
					burst = runMax + 8 // a crowded window, wherever it lies
				}
				for range burst {
					var s int32
					if n := len(free); n > 0 {
						s, free = free[n-1], free[:n-1]
					} else {
						slots = append(slots, Event{})
						s = int32(len(slots) - 1)
					}
					seq++
					k := key{t: tm, tie: uint64(rng.IntN(3))<<56 | seq, slot: s}
					slots[s].Time, slots[s].tie = tm, k.tie
					q.push(k)
					i, _ := slices.BinarySearchFunc(ref, k, func(a, b key) int {
						if later(&a, &b) {
							return 1
						}
						return -1
					})
					ref = slices.Insert(ref, i, k)
				}
				continue
			}
			var got int32
			if h := q.nowHead(); h != nil {
				got = h.slot
				q.popNow()
			} else {
				limit := MaxTime
				if rng.IntN(4) == 0 {
					limit = q.last + near()
				}
				s, ok := q.advance(limit)
				if !ok {
					require.Greater(t, ref[0].t, limit, "seed %d step %d: advance refused a key within its limit", seed, step)
					continue
				}
				got = s
			}
			require.Equal(t, ref[0].slot, got, "seed %d step %d: want the key at %v", seed, step, ref[0].t)
			require.Equal(t, ref[0].t, q.last, "seed %d step %d", seed, step)
			ref = ref[1:]
			free = append(free, got)
			require.Equal(t, len(ref), q.n)
		}
	}
}

// later reports whether a comes after b in the engine's order.
func later(a, b *key) bool { return a.t > b.t || a.t == b.t && a.tie > b.tie }
