package parallel

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestForRunsEachJobOnce: every job runs exactly once, whatever the number of workers
// (none, one, fewer than the jobs, more than the jobs), and For returns only after all.
func TestForRunsEachJobOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 100} {
		for _, workers := range []int{-1, 0, 1, 2, 3, 64} {
			t.Run(fmt.Sprintf("n=%d/workers=%d", n, workers), func(t *testing.T) {
				runs := make([]atomic.Int32, n)
				For(n, workers, func(i int) { runs[i].Add(1) })
				for i := range runs {
					require.Equal(t, int32(1), runs[i].Load(), "job %d", i)
				}
			})
		}
	}
}

// TestForInOrderOnOneWorker: with one worker the jobs run in order on the caller.
func TestForInOrderOnOneWorker(t *testing.T) {
	var order []int
	For(5, 1, func(i int) { order = append(order, i) })
	require.Equal(t, []int{0, 1, 2, 3, 4}, order)
}
