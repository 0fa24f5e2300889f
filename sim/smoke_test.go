package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestQueueHandOff checks a producer/consumer pair: five items sent 10 ns apart through a
// queue of two arrive in order, the last at 50 ns.
func TestQueueHandOff(t *testing.T) {
	e := NewEngine()
	q := NewQueue[int]("q", 2)
	var got []Time
	e.Spawn("prod", func(p *Proc) {
		for i := 0; i < 5; i++ {
			p.Sleep(10 * Nanosecond)
			q.Send(p, i)
		}
	})
	e.Spawn("cons", func(p *Proc) {
		for i := 0; i < 5; i++ {
			require.Equal(t, i, q.Recv(p))
			got = append(got, p.Now())
		}
	})
	e.Run()
	require.Equal(t, []Time{10000, 20000, 30000, 40000, 50000}, got)
}
