package parallel

import (
	"sync"
	"sync/atomic"
)

// For calls job(0) … job(n−1), each once, on up to workers goroutines that take the jobs in
// order, and returns when all are done. With one worker (or none) or one job, the jobs run in
// order on the calling goroutine. The jobs must be independent: each writes only its own
// results.
func For(n, workers int, job func(i int)) {
	if workers <= 1 || n <= 1 {
		for i := range n {
			job(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(n); i = next.Add(1) - 1 {
				job(int(i))
			}
		})
	}
	wg.Wait()
}
