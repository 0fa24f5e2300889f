package runner

import (
	"runtime"
	"sync"
)

// RunAll runs independent experiments on up to workers goroutines (0 = one per CPU) and
// returns their results in the order of opts. Each run has its own engine, so results do
// not depend on workers or scheduling. progress, if set, is called after each run ends
// (from the worker goroutine, serialised).
func RunAll(opts []Options, workers int, progress func(done int)) ([]*Result, []error) {
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	res := make([]*Result, len(opts))
	errs := make([]error, len(opts))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				res[i], errs[i] = Run(opts[i])
				if progress != nil {
					mu.Lock()
					done++
					progress(done)
					mu.Unlock()
				}
			}
		}()
	}
	for i := range opts {
		next <- i
	}
	close(next)
	wg.Wait()
	return res, errs
}
